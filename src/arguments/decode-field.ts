import { cutPrefix } from '../internal/cut-prefix.js';
import { DEV_MODE } from '../internal/dev-mode.js';
import { isHighSurrogate } from '../internal/surrogates.js';
import type { ArgumentIndex } from './argument-index.js';
import { type Field, valueError } from './field.js';
import { argumentProbe } from './probe.js';
import { advance, CONTROL, newCursor } from './string-cursor.js';

/**
 * Decoding one indexed value, on demand: the native parse of a complete value (once, then
 * kept), and for a string the text, a bounded prefix or the length so far, each through its
 * own cursor, which only ever advances over text not walked before. A content error found on
 * the way is recorded on the field (`index.reject`) and the read gives undefined.
 */

/** The value with JSON.parse semantics, parsed natively once; the field must be complete. */
export function parsedValue(index: ArgumentIndex, field: Field): unknown {
  if (field.error) return undefined;
  if (!field.parsed) {
    try {
      if (DEV_MODE) argumentProbe.parsed++;
      field.parsed = { value: JSON.parse(index.source.slice(field.start, field.end)) };
      field.text = null;
      field.length = null;
    } catch (error) {
      index.reject(field, valueError(field, error));
      return undefined;
    }
  }
  return field.parsed.value;
}

/** Where an open string's available content ends; null (and invalid) when it never closed. */
export function openEnd(index: ArgumentIndex, field: Field): number | null {
  if (index.final) {
    index.reject(field, new SyntaxError(`Unterminated string in JSON at position ${field.start}`));
    return null;
  }
  return index.scannedTo;
}

/** The decoded string so far, never ending inside an escape or a surrogate pair. */
export function decodedText(index: ArgumentIndex, field: Field): string | undefined {
  if (field.kind !== 'string' || field.error) return undefined;
  if (field.end !== -1) return parsedValue(index, field) as string | undefined;
  const to = openEnd(index, field);
  if (to === null) return undefined;
  const cursor = (field.text ??= newCursor(field.start + 1, 0, -1, ''));
  const error = advance(index.source, cursor, to, true);
  if (error) {
    index.reject(field, error);
    return undefined;
  }
  return cutPrefix(cursor.text as string, cursor.units, true);
}

/** At most `units` code units of the decoded string so far; stops walking once it has them. */
export function decodedPrefix(
  index: ArgumentIndex,
  field: Field,
  units: number,
): string | undefined {
  if (field.kind !== 'string' || field.error) return undefined;
  if (field.parsed) return cutPrefix(field.parsed.value as string, units, false);
  const complete = field.end !== -1;
  const to = complete ? field.end - 1 : openEnd(index, field);
  if (to === null) return undefined;
  const from = field.start + 1;
  const take = Math.min(to, from + units + 1);
  if (field.firstEscape === -1 || field.firstEscape >= take) {
    const raw = index.source.slice(from, take);
    if (DEV_MODE) argumentProbe.decoded += raw.length;
    if (CONTROL.test(raw)) {
      index.reject(field, new SyntaxError(`Bad control character in string near position ${from}`));
      return undefined;
    }
    return cutPrefix(raw, units, !complete && take === to);
  }
  const cursor = (field.text ??= newCursor(from, 0, -1, ''));
  if (cursor.units <= units) {
    const error = advance(index.source, cursor, to, !complete, units + 1);
    if (error) {
      index.reject(field, error);
      return undefined;
    }
  }
  return cutPrefix(cursor.text as string, units, !complete || cursor.pos < to);
}

/**
 * The decoded length in UTF-16 code units: from offsets alone for a string without escapes,
 * else through the length cursor. While open, a trailing high surrogate is not counted and
 * the length is rounded down to a multiple of `step`.
 */
export function decodedLength(
  index: ArgumentIndex,
  field: Field,
  step: number,
): number | undefined {
  if (field.kind !== 'string' || field.error) return undefined;
  if (field.parsed) return (field.parsed.value as string).length;
  const complete = field.end !== -1;
  const to = complete ? field.end - 1 : openEnd(index, field);
  if (to === null) return undefined;
  const from = field.start + 1;
  let units: number;
  let last: number;
  if (field.firstEscape === -1) {
    units = to - from;
    last = units > 0 ? index.source.codeAt(to - 1) : -1;
  } else {
    const first = field.firstEscape;
    const cursor = (field.length ??= newCursor(
      first,
      first - from,
      first > from ? index.source.codeAt(first - 1) : -1,
      null,
    ));
    const error = advance(index.source, cursor, to, !complete);
    if (error) {
      index.reject(field, error);
      return undefined;
    }
    units = cursor.units;
    last = cursor.last;
  }
  if (complete) return units;
  if (isHighSurrogate(last)) units--;
  return units - (units % step);
}
