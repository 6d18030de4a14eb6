import { describeValue } from '../events/describe-value.js';
import { isRecord } from '../internal/is-record.js';
import type { ToolArguments, ToolSchema } from './define-tool.js';
import type { JsonSchema, JsonType } from './json-schema.js';

/** One reason complete arguments do not match their tool's schema. */
export interface ValidationIssue {
  /** Keys and indexes from the arguments object down to the offending value; `[]` for itself. */
  readonly path: readonly (string | number)[];
  /** The path as text: `todos[2].status`, `["odd key"]`, or `(arguments)` for the object itself. */
  readonly at: string;
  /** What is wrong, without the path: `expected a string, got 42`. */
  readonly message: string;
}

export type Validation<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly issues: readonly ValidationIssue[] };

export interface ValidateOptions {
  /**
   * Read `null` for an optional parameter as "absent" and leave the key out of the returned
   * value: OpenAI strict mode (`toOpenAIChatTool(tool, { strict: true })`) makes every
   * parameter required and sends `null` for the ones the model omits.
   */
  readonly nullAsAbsent?: boolean;
}

/** Thrown by `parseArguments`; `issues` lists every problem found (at most 100). */
export class ArgumentsError extends Error {
  readonly tool: string;
  readonly issues: readonly ValidationIssue[];

  constructor(tool: string, issues: readonly ValidationIssue[]) {
    const shown = issues.slice(0, 5).map((issue) => `${issue.at}: ${issue.message}`);
    if (issues.length > 5) shown.push(`and ${issues.length - 5} more`);
    super(`invalid arguments for ${tool}: ${shown.join('; ')}`);
    this.name = 'ArgumentsError';
    this.tool = tool;
    this.issues = issues;
  }
}

/**
 * Checks complete arguments against a tool's schema and reports every problem with its path.
 * This is formal validation of a dispatched call; the streaming reader (`PartialArguments`)
 * never validates.
 *
 * The value is returned as is (never copied), except that with `nullAsAbsent` an object
 * holding such a `null` is returned as a copy without that key. Only own keys count: an
 * argument named `constructor` or `toString` is undeclared, not inherited.
 */
export function validateArguments<T extends ToolSchema>(
  tool: T,
  value: unknown,
  options: ValidateOptions = {},
): Validation<ToolArguments<T>> {
  const issues: ValidationIssue[] = [];
  const checked = check(tool.jsonSchema, value, [], issues, options.nullAsAbsent === true);
  return issues.length === 0
    ? { ok: true, value: checked as ToolArguments<T> }
    : { ok: false, issues };
}

/**
 * Parses argument text (JSON) and validates it; throws an `ArgumentsError` listing every
 * problem, including text that is not JSON.
 */
export function parseArguments<T extends ToolSchema>(
  tool: T,
  text: string,
  options: ValidateOptions = {},
): ToolArguments<T> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ArgumentsError(tool.name, [issue([], `is not valid JSON (${reason})`)]);
  }
  const result = validateArguments(tool, value, options);
  if (!result.ok) throw new ArgumentsError(tool.name, result.issues);
  return result.value;
}

const maxIssues = 100;
const identifier = /^[A-Za-z_$][\w$]*$/;

/** `todos[2].status`; keys that are not identifiers in brackets; `(arguments)` for the root. */
export function formatPath(path: readonly (string | number)[]): string {
  if (path.length === 0) return '(arguments)';
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else if (identifier.test(segment)) text += text === '' ? segment : `.${segment}`;
    else text += `[${JSON.stringify(segment)}]`;
  }
  return text;
}

function issue(path: readonly (string | number)[], message: string): ValidationIssue {
  return { path, at: formatPath(path), message };
}

const article: Record<JsonType, string> = {
  string: 'a string',
  number: 'a number',
  integer: 'an integer',
  boolean: 'a boolean',
  array: 'an array',
  object: 'an object',
  null: 'null',
};

function hasType(type: JsonType, value: unknown): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isRecord(value);
    case 'null':
      return value === null;
    default: {
      const unknownType: never = type;
      throw new TypeError(`unknown JSON type ${String(unknownType)}`);
    }
  }
}

const patterns = new Map<string, RegExp>();

function codePoints(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0xd800 || unit > 0xdbff || i + 1 === text.length) count++;
    else {
      const next = text.charCodeAt(i + 1);
      count++;
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
  }
  return count;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** Returns the value (a copy only where `nullAsAbsent` dropped a key); pushes issues. */
function check(
  schema: JsonSchema,
  value: unknown,
  path: (string | number)[],
  issues: ValidationIssue[],
  nullAsAbsent: boolean,
): unknown {
  if (issues.length >= maxIssues) return value;
  const report = (message: string) => {
    if (issues.length < maxIssues) issues.push(issue([...path], message));
  };

  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    if (!types.some((type) => hasType(type, value))) {
      report(
        `expected ${types.map((type) => article[type]).join(' or ')}, got ${describeValue(value)}`,
      );
      return value;
    }
  }
  if (schema.enum !== undefined && !schema.enum.includes(value as string | null)) {
    const allowed = schema.enum.map((option) => JSON.stringify(option)).join(', ');
    report(`expected one of ${allowed}, got ${describeValue(value)}`);
    return value;
  }

  if (typeof value === 'string') {
    const { minLength, maxLength, pattern } = schema;
    if (minLength !== undefined || maxLength !== undefined) {
      const length = codePoints(value);
      if (minLength !== undefined && length < minLength) {
        report(`expected at least ${plural(minLength, 'character')}, got ${length}`);
      }
      if (maxLength !== undefined && length > maxLength) {
        report(`expected at most ${plural(maxLength, 'character')}, got ${length}`);
      }
    }
    if (pattern !== undefined) {
      let regexp = patterns.get(pattern);
      if (regexp === undefined) patterns.set(pattern, (regexp = new RegExp(pattern, 'u')));
      if (!regexp.test(value)) report(`expected text matching /${pattern}/`);
    }
  } else if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) {
      report(`expected at least ${schema.minimum}, got ${value}`);
    }
    if (schema.maximum !== undefined && value > schema.maximum) {
      report(`expected at most ${schema.maximum}, got ${value}`);
    }
  } else if (Array.isArray(value)) {
    const { minItems, maxItems, items } = schema;
    if (minItems !== undefined && value.length < minItems) {
      report(`expected at least ${plural(minItems, 'item')}, got ${value.length}`);
    }
    if (maxItems !== undefined && value.length > maxItems) {
      report(`expected at most ${plural(maxItems, 'item')}, got ${value.length}`);
    }
    if (items !== undefined) {
      let copy: unknown[] | undefined;
      value.forEach((item: unknown, index) => {
        path.push(index);
        const checked = check(items, item, path, issues, nullAsAbsent);
        path.pop();
        if (checked !== item) (copy ??= [...value])[index] = checked;
      });
      return copy ?? value;
    }
  } else if (typeof value === 'object' && value !== null) {
    return checkObject(schema, value as Record<string, unknown>, path, issues, nullAsAbsent);
  }
  return value;
}

function checkObject(
  schema: JsonSchema,
  value: Record<string, unknown>,
  path: (string | number)[],
  issues: ValidationIssue[],
  nullAsAbsent: boolean,
): unknown {
  const properties = schema.properties ?? {};
  const required = schema.required ?? [];
  let copy: Record<string, unknown> | undefined;
  const set = (key: string, inner: unknown) => {
    copy ??= { ...value };
    Object.defineProperty(copy, key, {
      value: inner,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  };

  for (const key of Object.keys(properties)) {
    if (!Object.hasOwn(value, key)) {
      if (required.includes(key) && issues.length < maxIssues) {
        issues.push(issue([...path, key], 'is required'));
      }
      continue;
    }
    const inner = value[key];
    if (inner === null && nullAsAbsent && !required.includes(key)) {
      copy ??= { ...value };
      delete copy[key];
      continue;
    }
    path.push(key);
    const checked = check(properties[key] as JsonSchema, inner, path, issues, nullAsAbsent);
    path.pop();
    if (checked !== inner) set(key, checked);
  }
  if (schema.additionalProperties === false) {
    for (const key of Object.keys(value)) {
      if (!Object.hasOwn(properties, key) && issues.length < maxIssues) {
        issues.push(issue([...path, key], 'is not a declared parameter'));
      }
    }
  }
  return copy ?? value;
}
