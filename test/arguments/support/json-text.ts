/**
 * Reference facts about a JSON object text, computed the slow and obvious way, for tests that
 * compare PartialArguments with JSON.parse.
 *
 * `topLevel` finds the top-level members of a text whose quotes and brackets balance (it does
 * not validate content, so a member value may itself be invalid JSON). `openText` is what a
 * reader may show of a string whose closing quote has not arrived.
 */

export type Kind = 'string' | 'number' | 'boolean' | 'null' | 'object' | 'array';

export interface Member {
  /** Decoded key. */
  key: string;
  /** Offset of the key's opening quote. */
  keyStart: number;
  /** Offset of the value's first character. */
  valueStart: number;
  /** Offset just past the value's last character. */
  valueEnd: number;
  /** Offset of the `,` or `}` that follows the value. */
  delimiter: number;
  /** The value's raw text. */
  raw: string;
  kind: Kind;
  /** JSON.parse of `raw`; meaningful only when `valid`. */
  value: unknown;
  /** Whether `raw` alone is valid JSON. */
  valid: boolean;
}

export interface Layout {
  text: string;
  members: Member[];
  /** Offset of the top-level closing brace. */
  close: number;
}

const isSpace = (c: string | undefined) => c === ' ' || c === '\t' || c === '\n' || c === '\r';

function skipSpace(text: string, at: number): number {
  let i = at;
  while (isSpace(text[i])) i++;
  return i;
}

function stringEnd(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
  if (i >= text.length) throw new Error(`unterminated string at ${start}`);
  return i + 1;
}

function valueEnd(text: string, start: number): number {
  const first = text[start];
  if (first === '"') return stringEnd(text, start);
  if (first === '[' || first === '{') {
    let depth = 0;
    let i = start;
    while (i < text.length) {
      const c = text[i];
      if (c === '"') {
        i = stringEnd(text, i);
        continue;
      }
      if (c === '[' || c === '{') depth++;
      else if (c === ']' || c === '}') depth--;
      i++;
      if (depth === 0) return i;
    }
    throw new Error(`unclosed container at ${start}`);
  }
  let i = start;
  while (i < text.length && !isSpace(text[i]) && !',}]'.includes(text[i]!)) i++;
  return i;
}

export function kindOfRaw(raw: string): Kind {
  const c = raw[0];
  if (c === '"') return 'string';
  if (c === '{') return 'object';
  if (c === '[') return 'array';
  if (c === 't' || c === 'f') return 'boolean';
  if (c === 'n') return 'null';
  return 'number';
}

export function kindOf(value: unknown): Kind {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  const type = typeof value;
  if (type === 'string' || type === 'number' || type === 'boolean' || type === 'object') {
    return type;
  }
  throw new Error(`not a JSON value: ${String(value)}`);
}

/**
 * The top-level members of `text`, an object text whose quotes and brackets balance. Throws
 * when the top level itself is broken (no object, a missing colon or comma, a key that is not
 * a valid string, text after the object).
 */
export function topLevel(text: string): Layout {
  let i = skipSpace(text, 0);
  if (text[i] !== '{') throw new Error('not an object text');
  const members: Member[] = [];
  i = skipSpace(text, i + 1);
  if (text[i] === '}') {
    if (skipSpace(text, i + 1) < text.length) throw new Error('text after the object');
    return { text, members, close: i };
  }
  for (;;) {
    const keyStart = i;
    if (text[keyStart] !== '"') throw new Error(`expected a key at ${keyStart}`);
    const keyEnd = stringEnd(text, keyStart);
    const key = JSON.parse(text.slice(keyStart, keyEnd)) as string;
    i = skipSpace(text, keyEnd);
    if (text[i] !== ':') throw new Error(`expected a colon at ${i}`);
    const valueStart = skipSpace(text, i + 1);
    const end = valueEnd(text, valueStart);
    const raw = text.slice(valueStart, end);
    let value: unknown;
    let valid = true;
    try {
      value = JSON.parse(raw);
    } catch {
      valid = false;
    }
    const delimiter = skipSpace(text, end);
    members.push({
      key,
      keyStart,
      valueStart,
      valueEnd: end,
      delimiter,
      raw,
      kind: kindOfRaw(raw),
      value,
      valid,
    });
    if (text[delimiter] === '}') {
      if (skipSpace(text, delimiter + 1) < text.length) throw new Error('text after the object');
      return { text, members, close: delimiter };
    }
    if (text[delimiter] !== ',') throw new Error(`expected a comma at ${delimiter}`);
    i = skipSpace(text, delimiter + 1);
  }
}

/** Distinct keys of a layout, in first-seen order. */
export function keysOf(layout: Layout): string[] {
  return [...new Set(layout.members.map((m) => m.key))];
}

/** The raw body of an open string with any trailing partial escape (`\`, `\u`, `\u00`) cut off. */
export function withoutPartialEscape(body: string): string {
  let i = 0;
  while (i < body.length) {
    if (body[i] !== '\\') {
      i++;
      continue;
    }
    const width = body[i + 1] === 'u' ? 6 : 2;
    if (i + width > body.length) return body.slice(0, i);
    i += width;
  }
  return body;
}

export const isHigh = (unit: number) => unit >= 0xd800 && unit <= 0xdbff;
export const isLow = (unit: number) => unit >= 0xdc00 && unit <= 0xdfff;

/**
 * What a reader shows of an open string whose raw body has arrived so far: every complete
 * escape decoded, no partial escape, and no trailing high surrogate (its pair is still to come).
 */
export function openText(body: string): string {
  const decoded = JSON.parse(`"${withoutPartialEscape(body)}"`) as string;
  const last = decoded.length - 1;
  return last >= 0 && isHigh(decoded.charCodeAt(last)) ? decoded.slice(0, last) : decoded;
}

/**
 * Structural equality with JSON.parse semantics: numbers by Object.is (so -0 and Infinity
 * count), own enumerable keys (so an own `__proto__` counts) and the same prototype.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => sameJson(item, b[i]));
  }
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  if (keysA.length !== keysB.length) return false;
  return keysA.every(
    (k) =>
      Object.hasOwn(b, k) &&
      sameJson(
        Object.getOwnPropertyDescriptor(a, k)?.value,
        Object.getOwnPropertyDescriptor(b, k)?.value,
      ),
  );
}

/** A short printable form of a value for failure messages. */
export function show(value: unknown, limit = 120): string {
  let s: string;
  if (value === undefined) s = 'undefined';
  else if (typeof value === 'number') s = Object.is(value, -0) ? '-0' : String(value);
  else {
    try {
      s = JSON.stringify(value) ?? String(value);
    } catch {
      s = String(value);
    }
  }
  return s.length > limit ? `${s.slice(0, limit)}…(${s.length})` : s;
}

/** Own property of a JSON.parse result, read without going through `__proto__` accessors. */
export function ownValue(object: object, key: string): { present: boolean; value: unknown } {
  const descriptor = Object.getOwnPropertyDescriptor(object, key);
  return descriptor
    ? { present: true, value: descriptor.value }
    : { present: false, value: undefined };
}

/** Cut `text` into fragments whose lengths cycle through `sizes` (the last may be shorter). */
export function fragment(text: string, sizes: readonly number[]): string[] {
  const out: string[] = [];
  let at = 0;
  let n = 0;
  while (at < text.length) {
    const size = Math.max(1, sizes[n++ % sizes.length] ?? 1);
    out.push(text.slice(at, at + size));
    at += size;
  }
  return out;
}

/** Whether JSON.parse rejects `text` as arguments: it throws, or the result is not an object. */
export function rejects(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value !== 'object' || value === null || Array.isArray(value);
  } catch {
    return true;
  }
}
