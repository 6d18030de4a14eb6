import { DEV_MODE } from '../internal/dev-mode.js';
import type { Cursor } from './field.js';
import { argumentProbe } from './probe.js';
import type { ArgumentSource } from './source.js';

const BACKSLASH = 0x5c;
const LETTER_U = 0x75;

/** Raw control characters, which JSON forbids inside strings. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point.
export const CONTROL = /[\u0000-\u001f]/;

export function newCursor(pos: number, units: number, last: number, text: string | null): Cursor {
  return { pos, units, last, text };
}

/** The unit a one-character escape stands for, or -1 when `\` + that character is not JSON. */
export function simpleEscape(code: number): number {
  switch (code) {
    case 0x22:
    case 0x5c:
    case 0x2f:
      return code;
    case 0x62:
      return 0x08;
    case 0x66:
      return 0x0c;
    case 0x6e:
      return 0x0a;
    case 0x72:
      return 0x0d;
    case 0x74:
      return 0x09;
    default:
      return -1;
  }
}

/**
 * Decodes string content forward from `cursor.pos` up to raw offset `to`, stopping early
 * once `cursor.units >= limit`. While `open` (more text may follow `to`), an escape cut by
 * `to` is left for later, so a cursor never shows part of an escape. A counting cursor
 * (`text === null`) only visits backslashes; a text cursor also copies the plain runs and
 * checks them for raw control characters. Returns the content error found, if any.
 */
export function advance(
  source: ArgumentSource,
  cursor: Cursor,
  to: number,
  open: boolean,
  limit = Number.POSITIVE_INFINITY,
): Error | null {
  // Locals, written back once: this loop runs once per escape of a long string.
  let { pos, units, last, text } = cursor;
  const start = pos;
  let error: Error | null = null;
  let index = pos < to ? source.chunkAt(pos) : 0;
  walk: while (pos < to && units < limit) {
    const base = source.start(index);
    const chunk = source.chunk(index);
    const end = Math.min(to, base + chunk.length) - base;
    let at = pos - base;
    while (at < end) {
      if (units >= limit) break walk;
      const slash = chunk.indexOf('\\', at);
      const runEnd = slash === -1 || slash >= end ? end : slash;
      if (runEnd > at) {
        const stop = limit - units < runEnd - at ? at + (limit - units) : runEnd;
        if (text !== null) {
          const run = chunk.slice(at, stop);
          if (CONTROL.test(run)) {
            error = new SyntaxError(`Bad control character in string near position ${base + at}`);
            break walk;
          }
          text += run;
        }
        last = chunk.charCodeAt(stop - 1);
        units += stop - at;
        at = stop;
        pos = base + at;
        continue;
      }
      // An escape at `at`; it may run into the next chunk.
      const inChunk = at + 6 <= chunk.length;
      const escaped =
        pos + 1 < to ? (inChunk ? chunk.charCodeAt(at + 1) : source.codeAt(pos + 1)) : -1;
      let unit: number;
      let width: number;
      if (escaped === 0x75) {
        if (pos + 6 > to) {
          if (!open) error = new SyntaxError(`Bad Unicode escape in JSON at position ${pos}`);
          break walk;
        }
        unit = hex4(inChunk ? chunk : source.slice(pos, pos + 6), inChunk ? at + 2 : 2);
        if (unit === -1) {
          error = new SyntaxError(`Bad Unicode escape in JSON at position ${pos}`);
          break walk;
        }
        width = 6;
      } else if (escaped === -1) {
        if (!open) error = new SyntaxError(`Bad escaped character in JSON at position ${pos}`);
        break walk;
      } else {
        unit = simpleEscape(escaped);
        if (unit === -1) {
          error = new SyntaxError(`Bad escaped character in JSON at position ${pos}`);
          break walk;
        }
        width = 2;
      }
      if (text !== null) text += String.fromCharCode(unit);
      last = unit;
      units++;
      pos += width;
      if (at + width > chunk.length) {
        index = source.chunkAt(pos);
        continue walk;
      }
      at += width;
    }
    index++;
  }
  cursor.pos = pos;
  cursor.units = units;
  cursor.last = last;
  cursor.text = text;
  if (DEV_MODE) argumentProbe.decoded += pos - start;
  return error;
}

/**
 * Counts string content into a length cursor as the boundary scanner passes over it: the
 * chunk `s` starts at global offset `base`, and the cursor stands at `base + i` or, when the
 * previous chunk cut an escape, at that escape's backslash a few characters behind (it is
 * finished first, across the two chunks). Returns where counting stopped in `s`: the string's
 * closing quote, `s.length`, or the backslash of an escape it cannot decode from `s` alone
 * (cut by the chunk's end, or bad), where the cursor is left for a later read to catch up and
 * report. Returns -1, counting nothing, when the cut escape cannot be finished here.
 */
export function countString(
  source: ArgumentSource,
  cursor: Cursor,
  s: string,
  i: number,
  base: number,
): number {
  const n = s.length;
  if (cursor.pos < base + i) {
    const to = cursor.pos + (source.codeAt(cursor.pos + 1) === LETTER_U ? 6 : 2);
    if (source.codeAt(cursor.pos) !== BACKSLASH || to > base + n || to < base + i) return -1;
    if (advance(source, cursor, to, true) !== null || cursor.pos !== to) return -1;
    i = to - base;
  }
  // Locals, written back once: this loop runs once per escape of a long string.
  let { units, last } = cursor;
  let stop: number;
  let quote = s.indexOf('"', i);
  let slash = s.indexOf('\\', i);
  for (;;) {
    if (slash === -1 || (quote !== -1 && quote < slash)) {
      stop = quote === -1 ? n : quote;
      if (stop > i) {
        units += stop - i;
        last = s.charCodeAt(stop - 1);
      }
      break;
    }
    if (slash > i) {
      units += slash - i;
      last = s.charCodeAt(slash - 1);
    }
    const unit = slash + 1 < n ? escapedUnit(s, slash + 1) : -2;
    if (unit < 0) {
      stop = slash;
      break;
    }
    units++;
    last = unit;
    i = slash + (s.charCodeAt(slash + 1) === LETTER_U ? 6 : 2);
    slash = s.indexOf('\\', i);
    if (quote !== -1 && quote < i) quote = s.indexOf('"', i);
  }
  if (DEV_MODE) argumentProbe.counted += base + stop - cursor.pos;
  cursor.pos = base + stop;
  cursor.units = units;
  cursor.last = last;
  return stop;
}

/**
 * The unit of the escape whose character after the backslash is at `at`: -1 for a bad escape,
 * -2 for a `\u` whose four digits do not all lie in `s`.
 */
function escapedUnit(s: string, at: number): number {
  const code = s.charCodeAt(at);
  if (code !== LETTER_U) return simpleEscape(code);
  return at + 4 < s.length ? hex4(s, at + 1) : -2;
}

/** The value of four hex digits at `at`, or -1. */
export function hex4(text: string, at: number): number {
  let value = 0;
  for (let i = at; i < at + 4; i++) {
    const c = text.charCodeAt(i);
    const digit =
      c >= 0x30 && c <= 0x39
        ? c - 0x30
        : c >= 0x61 && c <= 0x66
          ? c - 0x57
          : c >= 0x41 && c <= 0x46
            ? c - 0x37
            : -1;
    if (digit === -1) return -1;
    value = value * 16 + digit;
  }
  return value;
}
