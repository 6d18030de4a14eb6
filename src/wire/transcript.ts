import { describeValue } from '../events/describe-value.js';
import type { CallfoldEvent } from '../events/types.js';
import { eventJSON, parseEvent } from '../events/validate.js';

/**
 * One line of a JSONL transcript: `{"at": …, "event": …}`.
 *
 * `at` is the time the event was seen, in milliseconds since the transcript started: a
 * finite number ≥ 0, non-decreasing from line to line. It is the recording's clock, distinct
 * from a durable event's own `at` (the producer's wall clock), which the event keeps.
 */
export type TranscriptEntry = { at: number; event: CallfoldEvent };

/**
 * A transcript line that cannot be decoded, or an entry that cannot be encoded. `line` is
 * 1-based and counts every line, blank ones included; `reason` is the message without the
 * line prefix. The underlying error (an `EventError`, a `SyntaxError`) is the `cause`.
 */
export class TranscriptError extends Error {
  readonly line: number;
  readonly reason: string;

  constructor(line: number, reason: string, options?: ErrorOptions) {
    super(`transcript line ${line}: ${reason}`, options);
    this.name = 'TranscriptError';
    this.line = line;
    this.reason = reason;
  }
}

/**
 * Encodes one entry as a transcript line, newline included, so that lines concatenate into
 * a transcript. Throws `EventError` for an invalid event and `RangeError` for an invalid
 * `at`, so that whatever is written can be read back (an `output` that cannot be JSON, such
 * as a BigInt, is an `EventError` too). Any depth is written. Only JSON survives: a `tool/result`
 * `output` of `undefined` is written as no key and reads back as `undefined`.
 */
export function encodeTranscriptLine(entry: TranscriptEntry): string {
  const { at, event } = entry;
  if (!(Number.isFinite(at) && at >= 0)) {
    throw new RangeError(`"at" must be a finite number ≥ 0 (got ${describeValue(at)})`);
  }
  parseEvent(event);
  return `${eventJSON({ at, event }, event)}\n`;
}

/**
 * Encodes entries as a JSONL transcript: one line each, in order, with a trailing newline
 * (the empty string for no entries). Throws `TranscriptError` with the offending line for an
 * invalid entry or an `at` smaller than the previous one.
 */
export function encodeTranscript(entries: Iterable<TranscriptEntry>): string {
  const lines: string[] = [];
  let previous = 0;
  for (const entry of entries) {
    const line = lines.length + 1;
    try {
      lines.push(encodeTranscriptLine(entry));
    } catch (cause) {
      throw new TranscriptError(line, cause instanceof Error ? cause.message : 'cannot encode', {
        cause,
      });
    }
    if (entry.at < previous) {
      throw new TranscriptError(line, `"at" must not decrease (${entry.at} after ${previous})`);
    }
    previous = entry.at;
  }
  return lines.join('');
}

/**
 * Decodes a whole JSONL transcript. Lines end in `\n` or `\r\n`; blank lines, a missing or
 * present final newline and a leading byte-order mark are accepted. Every event is checked
 * with `parseEvent` and returned as parsed. Throws `TranscriptError` for the first malformed
 * line.
 */
export function decodeTranscript(text: string): TranscriptEntry[] {
  const decoder = new TranscriptDecoder();
  const entries = decoder.push(text);
  for (const entry of decoder.end()) entries.push(entry);
  return entries;
}

/**
 * Decodes a transcript that arrives in chunks cut anywhere (inside a line, between `\r` and
 * `\n`, inside a surrogate pair). Entries come out as soon as their line is complete, with the
 * same results and errors as `decodeTranscript` on the whole text.
 *
 * A line arriving in many chunks is joined once, when its newline arrives. After a
 * `TranscriptError` the bad line is dropped: the entries decoded before it in the same call,
 * and the lines after it, come out of the next `push` (`push('')` will do) or `end`.
 */
export class TranscriptDecoder {
  /** Pieces of the current line, which has no newline yet. */
  #pending: string[] = [];
  /** Text after a line that failed, not yet split into lines. */
  #unsplit = '';
  /** Entries decoded in a call that then failed, owed to the next call. */
  #owed: TranscriptEntry[] = [];
  #line = 0;
  #previousAt = 0;
  #ended = false;

  /** Adds a chunk; returns the entries of the lines it completed, in order. */
  push(chunk: string): TranscriptEntry[] {
    if (this.#ended) throw new Error('TranscriptDecoder: push() after end()');
    const text = this.#unsplit + chunk;
    this.#unsplit = '';
    const entries = this.#owed;
    this.#owed = [];
    let start = 0;
    for (let newline = text.indexOf('\n'); newline !== -1; newline = text.indexOf('\n', start)) {
      let line = text.slice(start, newline);
      if (this.#pending.length > 0) {
        this.#pending.push(line);
        line = this.#pending.join('');
        this.#pending = [];
      }
      start = newline + 1;
      try {
        this.#take(line, entries);
      } catch (error) {
        this.#unsplit = text.slice(start);
        this.#owed = entries;
        throw error;
      }
    }
    if (start < text.length) this.#pending.push(start === 0 ? text : text.slice(start));
    return entries;
  }

  /** Ends the text: decodes a last line without a newline; returns the remaining entries. */
  end(): TranscriptEntry[] {
    if (this.#ended) return [];
    const entries = this.push('');
    const last = this.#pending.join('');
    this.#pending = [];
    if (last !== '') {
      try {
        this.#take(last, entries);
      } catch (error) {
        this.#owed = entries;
        throw error;
      }
    }
    this.#ended = true;
    return entries;
  }

  #take(text: string, entries: TranscriptEntry[]): void {
    const line = ++this.#line;
    const content = line === 1 && text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
    if (blank.test(content)) return;
    const entry = decodeLine(content, line, this.#previousAt);
    this.#previousAt = entry.at;
    entries.push(entry);
  }
}

/** JSON whitespace only; a `\r` left by a CRLF ending is JSON whitespace too. */
const blank = /^[ \t\r]*$/;

function decodeLine(text: string, line: number, previousAt: number): TranscriptEntry {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    const detail = cause instanceof Error ? cause.message : 'unparsable';
    throw new TranscriptError(line, `invalid JSON: ${detail}`, { cause });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    const reason = `expected an object {"at", "event"}, got ${describeValue(value)}`;
    throw new TranscriptError(line, reason);
  }
  // JSON.parse makes own data properties only: `__proto__` is an ordinary key here.
  const at: unknown = Object.hasOwn(value, 'at') ? (value as { at: unknown }).at : undefined;
  if (typeof at !== 'number' || !(Number.isFinite(at) && at >= 0)) {
    const got = at === undefined ? 'missing' : `got ${describeValue(at)}`;
    throw new TranscriptError(line, `"at" must be a finite number ≥ 0 (${got})`);
  }
  if (at < previousAt) {
    throw new TranscriptError(line, `"at" must not decrease (${at} after ${previousAt})`);
  }
  if (!Object.hasOwn(value, 'event')) throw new TranscriptError(line, '"event" is missing');
  let event: CallfoldEvent;
  try {
    event = parseEvent((value as { event: unknown }).event);
  } catch (cause) {
    const detail = cause instanceof Error ? cause.message : 'invalid';
    throw new TranscriptError(line, `invalid event: ${detail}`, { cause });
  }
  return { at, event };
}
