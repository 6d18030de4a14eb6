/**
 * The expected answer of every PartialArguments query for a valid object text of which the
 * first `at` characters have arrived, derived from JSON.parse of the pieces of the whole text.
 */
import type { PartialArguments } from '../../../src/arguments/partial-arguments.js';
import { isHigh, isLow, type Layout, type Member, openText, sameJson, show } from './json-text.js';

export interface ReadParams {
  /** `units` arguments for textPrefix. */
  prefixUnits: readonly number[];
  /** `step` for stringLength. */
  step: number;
}

type Operation =
  | 'has'
  | 'kind'
  | 'complete'
  | 'value'
  | 'text'
  | 'length'
  | 'stepped'
  | 'prefix'
  | 'complete()'
  | 'closed()';

/** One read of a view: a key query, or an object query when `key` is undefined. */
export interface Query {
  operation: Operation;
  key: string | undefined;
  units: number;
  step: number;
}

export function queryName(q: Query): string {
  const k = JSON.stringify(q.key);
  switch (q.operation) {
    case 'has':
    case 'kind':
    case 'complete':
    case 'value':
    case 'text':
      return `${q.operation}(${k})`;
    case 'length':
      return `stringLength(${k})`;
    case 'stepped':
      return `stringLength(${k}, {step: ${q.step}})`;
    case 'prefix':
      return `textPrefix(${k}, ${q.units})`;
    case 'complete()':
    case 'closed()':
      return q.operation;
    default:
      return q.operation satisfies never;
  }
}

export function read(view: PartialArguments, q: Query): unknown {
  const key = q.key ?? '';
  switch (q.operation) {
    case 'has':
      return view.has(key);
    case 'kind':
      return view.kind(key);
    case 'complete':
      return view.complete(key);
    case 'value':
      return view.value(key);
    case 'text':
      return view.text(key);
    case 'length':
      return view.stringLength(key);
    case 'stepped':
      return view.stringLength(key, { step: q.step });
    case 'prefix':
      return view.textPrefix(key, q.units);
    case 'complete()':
      return view.complete();
    case 'closed()':
      return view.closed();
    default:
      return q.operation satisfies never;
  }
}

/** Every key query for every key in `keys`, then complete() and closed(). */
export function allQueries(keys: readonly string[], params: ReadParams): Query[] {
  const out: Query[] = [];
  const add = (operation: Operation, key: string | undefined, units = 0) =>
    out.push({ operation, key, units, step: params.step });
  for (const key of keys) {
    for (const op of ['has', 'kind', 'complete', 'value', 'text', 'length', 'stepped'] as const) {
      add(op, key);
    }
    for (const units of params.prefixUnits) add('prefix', key, units);
  }
  add('complete()', undefined);
  add('closed()', undefined);
  return out;
}

/**
 * The member a read of `key` reaches after `at` characters: the last one whose value has
 * started. 'either' while a repeated key has arrived but its value has not started (the reader
 * may still answer for the earlier member, or already for none).
 */
export function reached(layout: Layout, key: string, at: number): Member | undefined | 'either' {
  let current: Member | undefined;
  for (const m of layout.members) {
    if (m.key !== key) continue;
    if (m.keyStart < at && at <= m.valueStart && current) return 'either';
    if (m.valueStart < at) current = m;
  }
  return current;
}

/** Whether the member's value is complete after `at` characters; 'either' for a scalar whose
 * last character arrived but whose delimiter has not. */
export function completeAt(m: Member, at: number): boolean | 'either' {
  if (m.kind === 'string' || m.kind === 'array' || m.kind === 'object') return at >= m.valueEnd;
  if (at > m.delimiter) return true;
  if (at < m.valueEnd) return false;
  return 'either';
}

/**
 * Checks a textPrefix answer against the decoded text available: the first `units` units,
 * less a trailing high surrogate whose low surrogate is cut off (a lone high surrogate may
 * stay or go). Returns a description of the expected answer when the answer is wrong.
 */
export function prefixProblem(available: string, units: number, answer: unknown): string | null {
  if (typeof answer !== 'string') return `a string of at most ${units} units`;
  if (units >= available.length) return answer === available ? null : show(available);
  const cut = available.slice(0, units);
  if (units > 0 && isHigh(cut.charCodeAt(units - 1))) {
    const dropped = cut.slice(0, -1);
    if (isLow(available.charCodeAt(units))) {
      return answer === dropped ? null : `${show(dropped)} (a split pair is dropped)`;
    }
    return answer === cut || answer === dropped ? null : `${show(cut)} or ${show(dropped)}`;
  }
  return answer === cut ? null : show(cut);
}

interface KeyState {
  member: Member | undefined | 'either';
  complete: boolean | 'either';
  available?: string;
}

/** Expected answers after `at` characters of a valid text, for a view that is not sealed. */
export class Expectation {
  readonly #states = new Map<string, KeyState>();

  constructor(
    readonly view: PartialArguments,
    readonly layout: Layout,
    readonly at: number,
  ) {}

  #state(key: string): KeyState {
    let state = this.#states.get(key);
    if (!state) {
      const member = reached(this.layout, key, this.at);
      const complete = typeof member === 'object' ? completeAt(member, this.at) : false;
      state = { member, complete };
      this.#states.set(key, state);
    }
    return state;
  }

  #isComplete(key: string, state: KeyState): boolean {
    return state.complete === 'either' ? this.view.complete(key) : state.complete;
  }

  #available(key: string, state: KeyState, m: Member): string {
    if (this.#isComplete(key, state)) return m.value as string;
    state.available ??= openText(this.layout.text.slice(m.valueStart + 1, this.at));
    return state.available;
  }

  /** Throws when `answer` is not what `q` must answer. */
  check(q: Query, answer: unknown): void {
    const problem = this.#problem(q, answer);
    if (problem === null) return;
    const { text } = this.layout;
    throw new Error(
      `${queryName(q)} after ${this.at}/${text.length} characters of ${show(text, 160)}: expected ${problem}, got ${show(answer)}`,
    );
  }

  #problem(q: Query, answer: unknown): string | null {
    const is = (expected: unknown) => (Object.is(answer, expected) ? null : show(expected));
    if (q.key === undefined) return is(this.at > this.layout.close);
    const state = this.#state(q.key);
    const m = state.member;
    if (m === 'either') return null;
    if (m === undefined)
      return is(q.operation === 'has' || q.operation === 'complete' ? false : undefined);
    switch (q.operation) {
      case 'has':
        return is(true);
      case 'kind':
        return is(m.kind);
      case 'complete':
        return state.complete === 'either' ? null : is(state.complete);
      case 'value':
        if (!this.#isComplete(q.key, state)) return is(undefined);
        return sameJson(answer, m.value) ? null : show(m.value);
      default:
        break;
    }
    if (m.kind !== 'string') return is(undefined);
    const available = this.#available(q.key, state, m);
    switch (q.operation) {
      case 'text':
        if (typeof answer !== 'string' || !(m.value as string).startsWith(answer)) {
          return `a prefix of the final value ${show(m.value)}, precisely ${show(available)}`;
        }
        return is(available);
      case 'length':
        return is(available.length);
      case 'stepped': {
        const length = available.length;
        return is(this.#isComplete(q.key, state) ? length : length - (length % q.step));
      }
      case 'prefix':
        return prefixProblem(available, q.units, answer);
      default:
        throw new Error(`unexpected ${q.operation}`);
    }
  }
}

/** Deep equality where numbers compare with === (so -0 equals 0). */
export function looseSame(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every(
    (key) =>
      Object.hasOwn(b, key) &&
      looseSame(
        Object.getOwnPropertyDescriptor(a, key)?.value,
        Object.getOwnPropertyDescriptor(b, key)?.value,
      ),
  );
}
