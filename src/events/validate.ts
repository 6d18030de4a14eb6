import { isRecord } from '../internal/is-record.js';
import { describeValue } from './describe-value.js';
import { jsonText } from './json-text.js';
import type { CallfoldEvent, CallfoldEventType } from './types.js';

/**
 * Thrown by `parseEvent` for a value that is not a well-formed CallfoldEvent.
 *
 * `field` is the path of the first offending field, e.g. `'callId'` or `'blocks[2].argsText'`;
 * it is `''` when the value itself is not an event object (null, a primitive, an array).
 */
export class EventError extends Error {
  readonly field: string;

  constructor(field: string, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'EventError';
    this.field = field;
  }
}

/**
 * Returns `value`, typed, when it is a well-formed CallfoldEvent; throws `EventError` naming
 * the first offending field otherwise. Use it where events enter from outside the program
 * (transcripts, SSE, messages from a worker).
 *
 * Rules:
 * 1. An event is any non-array object; only its own properties count, so nothing inherited
 *    (including a polluted `Object.prototype`) can make it valid. Unknown keys are allowed
 *    and ignored, `__proto__` among them.
 * 2. A required field must be present with the right type. An optional field is absent or
 *    of the right type: under `exactOptionalPropertyTypes` a present `undefined` is rejected.
 * 3. Ids (`turnId`, `messageId`, `attemptId`, `callId`) and tool names are non-empty
 *    strings; texts and argument fragments are strings and may be empty.
 * 4. `seq` and `at` are finite numbers; `block` is a non-negative integer.
 * 5. `tool/call.args` is a string or a plain object (prototype `Object.prototype` or null;
 *    not an array, null or a class instance; an object made in another realm, such as an
 *    iframe, counts as a class instance). An object must be JSON data at any depth: a
 *    cycle, a BigInt or a property whose getter throws is rejected (`field` `'args'`), so
 *    that the call's `argsRaw` can always be written.
 * 6. `tool/result.output` may be any value, absent included (it reads as `undefined`); it
 *    is not inspected, since outputs are opaque and may be large.
 * 7. The real-world call shapes are optional: `input` is `'text'` (then `tool/call.args`
 *    must be a string), `executor` is `'provider'`, `providerCallId`, `approvalId` and
 *    `stopReason` are non-empty strings, `incomplete` and `approved` are booleans.
 *    `turn/start.prompt` (the user's message, an extension) is a string and may be empty.
 * 8. The value is returned as is: never copied, never mutated. A getter that throws or an
 *    exotic object (a revoked Proxy) is reported as an `EventError`, never as a crash.
 */
export function parseEvent(value: unknown): CallfoldEvent {
  const problem = inspect(value);
  if (problem) throw new EventError(problem.field, problem.message, problem.options);
  return value as CallfoldEvent;
}

/** Whether `value` is a well-formed CallfoldEvent (the rules of `parseEvent`); never throws. */
export function isCallfoldEvent(value: unknown): value is CallfoldEvent {
  return inspect(value) === undefined;
}

interface Problem {
  readonly field: string;
  readonly message: string;
  readonly options?: ErrorOptions;
}

interface Rule {
  readonly test: (value: unknown) => boolean;
  readonly expected: string;
}

/** What `own` returns for an absent key, and for a property that could not be read. */
const missing = Symbol('missing');
const unreadable = Symbol('unreadable');

const nonEmptyString: Rule = {
  test: (v) => typeof v === 'string' && v !== '',
  expected: 'a non-empty string',
};
const string: Rule = { test: (v) => typeof v === 'string', expected: 'a string' };
const finite: Rule = { test: Number.isFinite, expected: 'a finite number' };
const boolean: Rule = { test: (v) => typeof v === 'boolean', expected: 'a boolean' };
const index: Rule = {
  test: (v) => Number.isSafeInteger(v) && (v as number) >= 0,
  expected: 'a non-negative integer',
};
const argsValue: Rule = {
  test: (v) => typeof v === 'string' || isPlainObject(v),
  expected: 'a string or a plain object',
};
const anything: Rule = { test: (v) => v !== unreadable, expected: 'readable' };
const textInput: Rule = { test: (v) => v === 'text', expected: '"text"' };
const providerExecutor: Rule = { test: (v) => v === 'provider', expected: '"provider"' };

type Fields = (record: object, label: string) => Problem | undefined;

/** One checker per variant: the mapped type makes a missing variant a compile error. */
const variants: { readonly [K in CallfoldEventType]: Fields } = {
  'turn/start': (r, l) =>
    durable(r, l) ?? need(r, 'turnId', nonEmptyString, l) ?? allow(r, 'prompt', string, l),
  'turn/end': (r, l) => durable(r, l) ?? need(r, 'turnId', nonEmptyString, l),
  'assistant/message': (r, l) =>
    durable(r, l) ??
    need(r, 'messageId', nonEmptyString, l) ??
    need(r, 'attemptId', nonEmptyString, l) ??
    blocks(own(r, 'blocks'), l) ??
    allow(r, 'stopReason', nonEmptyString, l),
  'tool/call': (r, l) =>
    durable(r, l) ??
    need(r, 'callId', nonEmptyString, l) ??
    need(r, 'name', nonEmptyString, l) ??
    callShape(r, l) ??
    need(r, 'args', own(r, 'input') === missing ? argsValue : string, l) ??
    jsonArgs(own(r, 'args'), l),
  'tool/result': (r, l) =>
    durable(r, l) ??
    need(r, 'callId', nonEmptyString, l) ??
    allow(r, 'output', anything, l) ??
    allow(r, 'isError', boolean, l) ??
    allow(r, 'executor', providerExecutor, l),
  'tool/approval-request': (r, l) =>
    durable(r, l) ??
    need(r, 'callId', nonEmptyString, l) ??
    allow(r, 'approvalId', nonEmptyString, l),
  'tool/approval': (r, l) =>
    durable(r, l) ??
    need(r, 'callId', nonEmptyString, l) ??
    need(r, 'approved', boolean, l) ??
    allow(r, 'reason', string, l) ??
    allow(r, 'approvalId', nonEmptyString, l),
  'stream/text-delta': (r, l) =>
    need(r, 'attemptId', nonEmptyString, l) ??
    need(r, 'block', index, l) ??
    need(r, 'text', string, l) ??
    allow(r, 'reasoning', boolean, l),
  'stream/tool-call-delta': (r, l) =>
    need(r, 'attemptId', nonEmptyString, l) ??
    need(r, 'block', index, l) ??
    need(r, 'callId', nonEmptyString, l) ??
    allow(r, 'name', nonEmptyString, l) ??
    need(r, 'args', string, l) ??
    callShape(r, l),
  'stream/block-end': (r, l) =>
    need(r, 'attemptId', nonEmptyString, l) ??
    need(r, 'block', index, l) ??
    allow(r, 'callId', nonEmptyString, l) ??
    need(r, 'text', string, l) ??
    allow(r, 'input', textInput, l),
  'stream/settle': (r, l) => need(r, 'attemptId', nonEmptyString, l),
};

const knownTypes = Object.keys(variants).join(', ');
/** Error-message labels, made once: validation runs for every delta. */
const labels = Object.fromEntries(Object.keys(variants).map((type) => [type, `${type} event`]));

function inspect(value: unknown): Problem | undefined {
  if (isWellFormedDelta(value)) return undefined;
  try {
    if (!isRecord(value)) {
      return { field: '', message: `event: expected an object, got ${describeValue(value)}` };
    }
    const type = own(value, 'type');
    if (typeof type !== 'string' || !Object.hasOwn(variants, type)) {
      return mismatch('event', 'type', `one of ${knownTypes}`, type);
    }
    return variants[type as CallfoldEventType](value, labels[type] as string);
  } catch (cause) {
    // Only exotic objects get here (a revoked Proxy throws from Array.isArray).
    return { field: '', message: 'event: the value could not be inspected', options: { cause } };
  }
}

const hasOwn = Object.hasOwn;

function isId(value: unknown): boolean {
  return typeof value === 'string' && value !== '';
}

/**
 * The same rules as the variant checkers, for the two events a stream sends thousands of,
 * written straight through so that a well-formed delta costs a few property reads. Anything
 * else (or anything wrong) goes the long way, which names the field.
 */
function isWellFormedDelta(v: unknown): boolean {
  try {
    return isWellFormedDeltaRecord(v);
  } catch {
    return false; // an exotic object: the long way reports it
  }
}

function isWellFormedDeltaRecord(v: unknown): boolean {
  if (typeof v !== 'object' || v === null || Array.isArray(v) || !hasOwn(v, 'type')) return false;
  const r = v as Record<string, unknown>;
  if (!(hasOwn(r, 'attemptId') && isId(r.attemptId) && hasOwn(r, 'block') && index.test(r.block))) {
    return false;
  }
  if (r.type === 'stream/tool-call-delta') {
    return (
      hasOwn(r, 'callId') &&
      isId(r.callId) &&
      hasOwn(r, 'args') &&
      typeof r.args === 'string' &&
      (!hasOwn(r, 'name') || isId(r.name)) &&
      (!hasOwn(r, 'input') || r.input === 'text') &&
      (!hasOwn(r, 'executor') || r.executor === 'provider') &&
      (!hasOwn(r, 'providerCallId') || isId(r.providerCallId))
    );
  }
  if (r.type === 'stream/text-delta') {
    return (
      hasOwn(r, 'text') &&
      typeof r.text === 'string' &&
      (!hasOwn(r, 'reasoning') || typeof r.reasoning === 'boolean')
    );
  }
  return false;
}

/** The optional fields of a call's real-world shape (docs/guide/events.md, "Events": real-world call shapes). */
function callShape(record: object, label: string, prefix = ''): Problem | undefined {
  return (
    allow(record, 'input', textInput, label, prefix) ??
    allow(record, 'executor', providerExecutor, label, prefix) ??
    allow(record, 'providerCallId', nonEmptyString, label, prefix)
  );
}

/** Object arguments must be writable as JSON (the Tool Definition writes their `argsRaw`). */
function jsonArgs(args: unknown, label: string): Problem | undefined {
  if (typeof args === 'string') return undefined;
  try {
    jsonText(args);
    return undefined;
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : 'unreadable';
    return {
      field: 'args',
      message: `${label}: "args" must be JSON data (${reason})`,
      options: { cause },
    };
  }
}

function durable(record: object, label: string): Problem | undefined {
  return need(record, 'seq', finite, label) ?? allow(record, 'at', finite, label);
}

/** Checks `value`, the `blocks` of an assistant message, read once. */
function blocks(value: unknown, label: string): Problem | undefined {
  if (!Array.isArray(value)) return mismatch(label, 'blocks', 'an array', value);
  const list: readonly unknown[] = value;
  for (let i = 0; i < list.length; i++) {
    const problem = block(own(list, String(i)), label, `blocks[${i}]`);
    if (problem) return problem;
  }
  return undefined;
}

function block(value: unknown, label: string, path: string): Problem | undefined {
  if (!isRecord(value)) return mismatch(label, path, 'an object', value);
  const type = own(value, 'type');
  const prefix = `${path}.`;
  if (type === 'text' || type === 'reasoning') return need(value, 'text', string, label, prefix);
  if (type === 'tool-use') {
    return (
      need(value, 'callId', nonEmptyString, label, prefix) ??
      need(value, 'name', nonEmptyString, label, prefix) ??
      need(value, 'argsText', string, label, prefix) ??
      callShape(value, label, prefix) ??
      allow(value, 'incomplete', boolean, label, prefix)
    );
  }
  return mismatch(label, `${prefix}type`, '"text", "reasoning" or "tool-use"', type);
}

function need(record: object, key: string, rule: Rule, label: string, prefix = '') {
  const value = own(record, key);
  return rule.test(value) ? undefined : mismatch(label, prefix + key, rule.expected, value);
}

function allow(record: object, key: string, rule: Rule, label: string, prefix = '') {
  const value = own(record, key);
  return value === missing || rule.test(value)
    ? undefined
    : mismatch(label, prefix + key, `${rule.expected} when present`, value);
}

/** An own property's value; inherited properties read as missing. */
function own(record: object, key: string): unknown {
  try {
    return Object.hasOwn(record, key) ? (record as Record<string, unknown>)[key] : missing;
  } catch {
    return unreadable;
  }
}

function mismatch(label: string, field: string, expected: string, value: unknown): Problem {
  const got =
    value === missing
      ? 'missing'
      : value === unreadable
        ? 'its getter threw'
        : `got ${describeValue(value)}`;
  return { field, message: `${label}: "${field}" must be ${expected} (${got})` };
}

function isPlainObject(value: unknown): boolean {
  if (!isRecord(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * The JSON text of a valid event, for the encoders: at any depth; an `EventError` naming the
 * event when a part of it cannot be JSON (a BigInt or a cycle in a result's `output`, which
 * `parseEvent` leaves uninspected).
 */
export function eventJSON(value: object, event: { readonly type: string }): string {
  try {
    return jsonText(value) as string;
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new EventError('', `${event.type} event: cannot be written as JSON (${reason})`, {
      cause,
    });
  }
}
