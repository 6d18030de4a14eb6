import { DEV_MODE } from '../internal/dev-mode.js';
import { type Field, kindOf, valueError } from './field.js';
import { argumentProbe } from './probe.js';
import type { ArgumentSource } from './source.js';
import { countString } from './string-cursor.js';

/** Where the boundary scanner stands in the top-level object. */
enum At {
  /** Before the opening brace. */
  Start,
  /** After `{`: a key or `}`. */
  FirstKey,
  /** After `,`: a key. */
  Key,
  /** Inside a key string. */
  KeyString,
  /** After a key: `:`. */
  Colon,
  /** After `:`: the first character of a value. */
  Value,
  StringValue,
  /** Inside an object or array value, at any depth. */
  Nested,
  /** Inside a number, `true`, `false` or `null` (or a bad token). */
  Scalar,
  /** After a value: `,` or `}`. */
  Next,
  /** After the closing brace: only whitespace. */
  End,
  /** A structural error stopped indexing. */
  Stopped,
}

const QUOTE = 0x22;
/** A key with a backslash or a control character goes through JSON.parse; others are literal. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters make a key invalid.
const NEEDS_DECODING = /[\\\u0000-\u001f]/;
const BACKSLASH = 0x5c;
/** How far behind the scan position a length cursor can be and still be carried along. */
const CATCH_UP = 6;

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
}

/** The first offset at or after `i` that is not JSON whitespace (`s.length` when none). */
function skipSpace(s: string, i: number): number {
  const n = s.length;
  while (i < n && isSpace(s.charCodeAt(i))) i++;
  return i;
}

/** Characters that end a number or literal token. */
function endsScalar(code: number): boolean {
  return (
    isSpace(code) ||
    code === 0x2c || // ,
    code === 0x7d || // }
    code === 0x5d || // ]
    code === QUOTE ||
    code === 0x7b || // {
    code === 0x5b || // [
    code === 0x3a // :
  );
}

/**
 * The top-level key → value-range index of one argument text, and the resumable boundary
 * scanner that builds it.
 *
 * The scanner walks each character once, across fragment boundaries, tracking quotes,
 * backslash parity and an explicit bracket stack (no recursion: depth is bounded by memory,
 * not by the call stack). Inside strings it jumps with `indexOf`. It decodes keys, never
 * values; of a string value whose length has been read it counts the decoded length as it
 * passes (`countString`, on the field's length cursor). Errors inside a value (a mismatched bracket, a token no value
 * starts with) are recorded on that field and indexing goes on; an error in the object's own
 * syntax stops it.
 */
export class ArgumentIndex {
  readonly source: ArgumentSource;
  readonly fields = new Map<string, Field>();
  #sealed: boolean;
  /** The first error found by indexing or by a content read. */
  invalid: Error | null = null;
  /** True once indexing stopped at a structural error. */
  stopped = false;
  objectComplete = false;
  /** Global offset up to which the text is indexed. */
  private scanned = 0;
  private at = At.Start;
  private escape = false;
  private inString = false;
  private stack: number[] = [];
  private keyStart = 0;
  private keyEnd = 0;
  private field: Field | null = null;
  /**
   * The next backslash in the chunk starting at `slashBase`, at or after the last search's
   * start (-1: none to the chunk's end). Reused across strings, so a chunk holding many short
   * strings and no backslash is searched once, not once per string.
   */
  private slashBase = -1;
  private slashGeneration = -1;
  private slash = -1;
  private finished = false;

  constructor(source: ArgumentSource, sealed: boolean) {
    this.source = source;
    this.#sealed = sealed;
  }

  /** No more text can arrive. */
  get sealed(): boolean {
    return this.#sealed;
  }

  /**
   * Seals the index with the authoritative full text, which must equal the text received
   * (`source.matches(fullText)`): the source adopts it as one chunk, offsets stay valid.
   */
  seal(fullText: string): void {
    if (this.#sealed) return;
    this.source.adopt(fullText);
    this.#sealed = true;
  }

  /**
   * Seals the index with `fullText` known to be the text received (see
   * `PartialArguments.sealJoined`): the source keeps its chunks and remembers the string.
   */
  sealJoined(fullText: string): void {
    if (this.#sealed) return;
    this.source.joinedAs(fullText);
    this.#sealed = true;
  }

  /** True when every received character is indexed and the view is sealed. */
  get final(): boolean {
    return this.finished;
  }

  /** Global offset up to which the text is indexed. */
  get scannedTo(): number {
    return this.scanned;
  }

  /** Indexes everything received since the last call. */
  catchUp(): void {
    if (this.finished) return;
    const { source } = this;
    source.join();
    while (this.scanned < source.joined && !this.stopped) {
      const index = source.chunkAt(this.scanned);
      const base = source.start(index);
      const chunk = source.chunk(index);
      const from = this.scanned - base;
      this.scanChunk(chunk, base, from);
      if (DEV_MODE) argumentProbe.scanned += this.scanned - base - from;
    }
    if (this.#sealed) this.finish();
  }

  /** Called when no more text can arrive: ends a trailing scalar, reports truncation. */
  private finish(): void {
    this.finished = true;
    if (this.stopped) return;
    if (this.at === At.Scalar) this.endValue(this.source.joined);
    if (this.at === At.End) return;
    this.fail(
      this.at === At.Start
        ? 'Arguments are not a JSON object: the text is empty'
        : `Unexpected end of JSON input at position ${this.source.joined}`,
    );
  }

  private fail(message: string): void {
    this.stopped = true;
    this.at = At.Stopped;
    this.invalid ??= new SyntaxError(message);
  }

  /** Records a content error of one value; indexing goes on. */
  reject(field: Field, error: Error): void {
    field.error ??= error;
    this.invalid ??= error;
  }

  private scanChunk(s: string, base: number, from: number): void {
    const n = s.length;
    let i = from;
    while (i < n && !this.stopped) i = this.scanState(s, i, base);
    this.scanned = base + (this.stopped ? n : i);
  }

  /**
   * Scans from `i` (< `s.length`) in the current state until the state changes or the chunk
   * ends; returns where it stopped. One method per state, each exhaustive over its input.
   */
  private scanState(s: string, i: number, base: number): number {
    switch (this.at) {
      case At.Start:
        return this.scanStart(s, i, base);
      case At.FirstKey:
      case At.Key:
        return this.scanKey(s, i, base);
      case At.KeyString:
        return this.scanKeyString(s, i, base);
      case At.Colon:
        return this.scanColon(s, i, base);
      case At.Value:
        return this.scanValue(s, i, base);
      case At.StringValue:
        return this.scanStringValue(s, i, base);
      case At.Nested:
        return this.skipNested(s, i, base);
      case At.Scalar:
        return this.scanScalar(s, i, base);
      case At.Next:
        return this.scanNext(s, i, base);
      case At.End:
        return this.scanEnd(s, i, base);
      case At.Stopped:
        return s.length;
      default:
        return this.at satisfies never;
    }
  }

  /** Before the opening brace. */
  private scanStart(s: string, i: number, base: number): number {
    i = skipSpace(s, i);
    if (i === s.length) return i;
    if (s.charCodeAt(i) === 0x7b) {
      this.at = At.FirstKey;
      return i + 1;
    }
    this.fail(`Arguments are not a JSON object: unexpected "${s[i]}" at position ${base + i}`);
    return i;
  }

  /** After `{` or `,`: a key's opening quote (or, after `{`, the closing brace). */
  private scanKey(s: string, i: number, base: number): number {
    i = skipSpace(s, i);
    if (i === s.length) return i;
    const c = s.charCodeAt(i);
    if (c === QUOTE) {
      this.keyStart = base + i;
      this.at = At.KeyString;
      return i + 1;
    }
    if (c === 0x7d && this.at === At.FirstKey) {
      this.objectComplete = true;
      this.at = At.End;
      return i + 1;
    }
    this.fail(`Expected a property name at position ${base + i}`);
    return i;
  }

  private scanKeyString(s: string, i: number, base: number): number {
    const end = this.skipString(s, i, base, null);
    if (end === -1) return s.length;
    this.keyEnd = base + end;
    this.at = At.Colon;
    return end;
  }

  private scanColon(s: string, i: number, base: number): number {
    i = skipSpace(s, i);
    if (i === s.length) return i;
    if (s.charCodeAt(i) === 0x3a) {
      this.at = At.Value;
      return i + 1;
    }
    this.fail(`Expected ":" after a property name at position ${base + i}`);
    return i;
  }

  /** After `:`: the first character of a value opens its field. */
  private scanValue(s: string, i: number, base: number): number {
    i = skipSpace(s, i);
    if (i === s.length) return i;
    const c = s.charCodeAt(i);
    if (c === 0x7d || c === 0x5d || c === 0x2c || c === 0x3a) {
      this.fail(`Expected a value at position ${base + i}`);
      return i;
    }
    // A string, object or array value starts past its opening character; a scalar's first
    // character belongs to its token.
    return this.openValue(c, base + i) ? i : i + 1;
  }

  private scanStringValue(s: string, i: number, base: number): number {
    const field = this.field as Field;
    const cursor = field.length;
    // A length cursor standing where scanning resumes, or just behind it inside an escape, is
    // carried along: the string is walked once, not twice.
    const behind = cursor === null ? -1 : base + i - cursor.pos;
    let end: number;
    if (cursor !== null && behind >= 0 && behind < CATCH_UP) {
      const stop = countString(this.source, cursor, s, i, base);
      if (stop === -1) end = this.skipString(s, i, base, field);
      else {
        // The escape the previous chunk cut, if any, is counted: scanning resumes past it.
        this.escape = false;
        if (stop === s.length) end = -1;
        else if (s.charCodeAt(stop) === QUOTE) end = stop + 1;
        else end = this.skipString(s, stop, base, field);
      }
    } else {
      end = this.skipString(s, i, base, field);
    }
    if (end === -1) return s.length;
    this.endValue(base + end);
    return end;
  }

  /** Inside a number, `true`, `false` or `null`: its end is the next delimiter. */
  private scanScalar(s: string, i: number, base: number): number {
    const n = s.length;
    while (i < n && !endsScalar(s.charCodeAt(i))) i++;
    if (i < n) this.endValue(base + i);
    return i;
  }

  /** After a value: `,` or `}`. */
  private scanNext(s: string, i: number, base: number): number {
    i = skipSpace(s, i);
    if (i === s.length) return i;
    const c = s.charCodeAt(i);
    if (c === 0x2c) {
      this.at = At.Key;
      return i + 1;
    }
    if (c === 0x7d) {
      this.objectComplete = true;
      this.at = At.End;
      return i + 1;
    }
    this.fail(`Expected "," or "}" after a value at position ${base + i}`);
    return i;
  }

  /** After the closing brace: only whitespace. */
  private scanEnd(s: string, i: number, base: number): number {
    i = skipSpace(s, i);
    if (i < s.length) {
      this.fail(`Unexpected non-whitespace after the object at position ${base + i}`);
    }
    return i;
  }

  /**
   * Opens the field for a value whose first character `c` is at global offset `at`; returns
   * true for a scalar, whose token is scanned from that character on.
   */
  private openValue(c: number, at: number): boolean {
    const key = this.decodeKey();
    const kind = kindOf(c);
    const field: Field = {
      key,
      start: at,
      end: -1,
      kind,
      firstEscape: -1,
      error: null,
      parsed: null,
      length: null,
      text: null,
    };
    if (kind === undefined) {
      this.reject(field, new SyntaxError(`Unexpected token at position ${at}`));
    }
    const shadowed = this.fields.get(key);
    // JSON.parse keeps the last of repeated keys; a shadowed value can never be read again,
    // so it is checked now to keep `invalid` exact.
    if (shadowed) this.checkShadowed(shadowed);
    this.fields.set(key, field);
    this.field = field;
    if (kind === 'string') {
      this.at = At.StringValue;
      return false;
    }
    if (kind === 'object' || kind === 'array') {
      this.at = At.Nested;
      this.stack = [c];
      this.inString = false;
      return false;
    }
    this.at = At.Scalar;
    return true;
  }

  private decodeKey(): string {
    const raw = this.source.slice(this.keyStart, this.keyEnd);
    if (!NEEDS_DECODING.test(raw)) return raw.slice(1, -1);
    try {
      return JSON.parse(raw) as string;
    } catch (error) {
      this.invalid ??= error as Error;
      return raw.slice(1, -1);
    }
  }

  private checkShadowed(field: Field): void {
    if (field.error || field.parsed || field.end === -1) return;
    try {
      if (DEV_MODE) argumentProbe.parsed++;
      JSON.parse(this.source.slice(field.start, field.end));
    } catch (error) {
      this.reject(field, valueError(field, error));
    }
  }

  private endValue(end: number): void {
    const field = this.field as Field;
    field.end = end;
    this.field = null;
    this.at = At.Next;
  }

  /**
   * Skips string content from `i`; returns the index just past the closing quote, or -1 when
   * the chunk ends first. Backslash parity carries over chunk boundaries in `this.escape`.
   *
   * It jumps from quote to quote (`indexOf`) and counts the backslashes just before each: an
   * odd run escapes it. Code-like text holds an escape every few characters, so walking from
   * backslash to backslash cost an `indexOf` per escape (1.4 ms for the 512 KiB code write,
   * against 0.5 ms; measured 2026-12-02). The first backslash of a field is still found
   * once, through `nextSlash`.
   */
  private skipString(s: string, i: number, base: number, field: Field | null): number {
    if (this.escape) {
      if (i >= s.length) return -1;
      this.escape = false;
      i++;
    }
    const from = i;
    let quote = s.indexOf('"', i);
    while (quote !== -1 && backslashesBefore(s, quote, from) % 2 === 1) {
      quote = s.indexOf('"', quote + 1);
    }
    if (field && field.firstEscape === -1) {
      const slash = this.nextSlash(s, from, base);
      if (slash !== -1 && (quote === -1 || slash < quote)) field.firstEscape = base + slash;
    }
    if (quote !== -1) return quote + 1;
    this.escape = backslashesBefore(s, s.length, from) % 2 === 1;
    return -1;
  }

  private nextSlash(s: string, from: number, base: number): number {
    const { generation } = this.source;
    if (
      this.slashBase === base &&
      this.slashGeneration === generation &&
      (this.slash === -1 || this.slash >= from)
    ) {
      return this.slash;
    }
    this.slashBase = base;
    this.slashGeneration = generation;
    this.slash = s.indexOf('\\', from);
    return this.slash;
  }

  /** Skips the inside of an object or array value; returns where scanning stopped. */
  private skipNested(s: string, i: number, base: number): number {
    const n = s.length;
    const { stack } = this;
    while (i < n) {
      if (this.inString) {
        const end = this.skipString(s, i, base, null);
        if (end === -1) return n;
        i = end;
        this.inString = false;
        continue;
      }
      const c = s.charCodeAt(i++);
      if (c === QUOTE) this.inString = true;
      else if (c === 0x7b || c === 0x5b) stack.push(c);
      else if (c === 0x7d || c === 0x5d) {
        const open = stack.pop();
        if (open !== (c === 0x7d ? 0x7b : 0x5b)) {
          this.reject(
            this.field as Field,
            new SyntaxError(`Mismatched "${String.fromCharCode(c)}" at position ${base + i - 1}`),
          );
        }
        if (stack.length === 0) {
          this.endValue(base + i);
          return i;
        }
      } else if (c === BACKSLASH) {
        this.reject(
          this.field as Field,
          new SyntaxError(`Unexpected "\\" at position ${base + i - 1}`),
        );
      }
    }
    return n;
  }
}

/** How many backslashes stand just before `at` in `s`, none before `from`. */
function backslashesBefore(s: string, at: number, from: number): number {
  let k = at;
  while (k > from && s.charCodeAt(k - 1) === BACKSLASH) k--;
  return at - k;
}
