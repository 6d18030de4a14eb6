import { cutPrefix } from '../internal/cut-prefix.js';
import { DEV_MODE } from '../internal/dev-mode.js';
import { isHighSurrogate } from '../internal/surrogates.js';
import type { ArgumentIndex } from './argument-index.js';
import { openEnd } from './decode-field.js';
import type { Cursor, Field } from './field.js';
import { argumentProbe } from './probe.js';
import { advance, CONTROL, newCursor } from './string-cursor.js';

/** A `textFrom` cursor, where the last answer for its field ended. */
export interface TailCursor {
  readonly field: Field;
  readonly cursor: Cursor;
}

/**
 * At most `units` code units of the decoded string from unit `from` on (for `textFrom`).
 * Without escapes before the window, a slice of the source; otherwise through the field's
 * tail cursor in `tails`, which walks only new text when `from` is where its last answer
 * ended, and restarts from the string's start (counting, not copying) for any other `from`.
 */
export function decodedFrom(
  index: ArgumentIndex,
  field: Field,
  tails: Map<string, TailCursor>,
  from: number,
  units: number,
): string | undefined {
  if (field.kind !== 'string' || field.error) return undefined;
  if (field.parsed) return cutPrefix((field.parsed.value as string).slice(from), units, false);
  const complete = field.end !== -1;
  const to = complete ? field.end - 1 : openEnd(index, field);
  if (to === null) return undefined;
  const first = field.start + 1;
  if (field.firstEscape === -1 || field.firstEscape >= Math.min(to, first + from + units + 1)) {
    const at = Math.min(to, first + from);
    const take = Math.min(to, at + units + 1);
    const raw = index.source.slice(at, take);
    if (DEV_MODE) argumentProbe.decoded += raw.length;
    if (CONTROL.test(raw)) {
      index.reject(field, new SyntaxError(`Bad control character in string near position ${at}`));
      return undefined;
    }
    return cutPrefix(raw, units, !complete && take === to);
  }
  let tail = tails.get(field.key);
  if (!tail || tail.field !== field || tail.cursor.units !== from) {
    const cursor = newCursor(first, 0, -1, null);
    const error = advance(index.source, cursor, to, !complete, from);
    if (error) {
      index.reject(field, error);
      return undefined;
    }
    if (cursor.units < from) return '';
    tail = { field, cursor };
    tails.set(field.key, tail);
  }
  const { cursor } = tail;
  cursor.text = '';
  const error = advance(index.source, cursor, to, !complete, from + units);
  const text = cursor.text as string;
  cursor.text = null;
  if (error) {
    index.reject(field, error);
    return undefined;
  }
  if (!complete && cursor.pos === to && isHighSurrogate(cursor.last)) {
    // The unpaired high surrogate is withheld; the next read starts over.
    tails.delete(field.key);
    return text.slice(0, -1);
  }
  return text;
}
