import { jsonStringText } from './json-string-text.js';
import { isHighSurrogate, isLowSurrogate } from './surrogates.js';

/** A text that grows, read when asked (what `TextBuffer` lets others read of it). */
export interface GrowingText {
  readonly length: number;
  text(): string;
}

/**
 * The fragments of a streamed text, kept for its full text at the end, and handed on in
 * pieces (`pieces`, `cut`) to whoever else needs them, without a second copy. Internal: not
 * re-exported.
 *
 * Why it is built this way (docs/decisions/0009-direct-adapter-fold.md,
 * docs/decisions/0010-one-copy-of-streamed-text.md):
 * - A long call streams tens of thousands of small fragments (a 512 KiB write: 38,000 of 16
 *   characters). Kept in an array they would all survive the young generation and be copied
 *   by each scavenge, and `Array.prototype.join` over them costs V8 about twice what
 *   concatenation does. So fragments are concatenated, and every `BATCH` of them is
 *   flattened at once into one string while they are still young.
 * - `pieces()` gives the text pushed since the last cut as the buffer's own pieces, each
 *   flattened once (a batch) or about to be (the fragments since the last batch): the
 *   Assembler's reader receives each as a delta and keeps it as a chunk, so the reader and
 *   this buffer share one copy. `cut()` gives the same text as one string and keeps that very
 *   string as a piece; when a reader flattens it, in place, both hold the flat text, but that
 *   flattening is a second copy of every batch in it, in one fresh allocation: from 128 KiB
 *   on (64 Ki two-byte characters, a few publications per 512 KiB write on a loaded machine)
 *   a large object on fresh pages, 7–8 ms per 512 KiB write over the Anthropic SDK
 *   (docs/decisions/0011-sdk-stream-costs.md). So the direct fold takes `pieces()`.
 * - `text()` concatenates the pieces without flattening them into one new string: the full
 *   text of a 512 KiB write would be a fresh 1 MiB allocation (two-byte text), which costs
 *   5–9 ms on a machine where each fresh page faults (measured 2026-12-02). V8 flattens it on
 *   the first read of its characters, if one ever comes; `blank()` answers without reading it.
 * - `pushJsonString()` takes the decoded text of a JSON string that streams (Gemini's
 *   `partialArgs` send string values decoded) and escapes it when the text is next read, a
 *   batch of pieces at once: one `JSON.stringify` of a few KiB instead of one of every
 *   16-character piece, and no escaped copy of each piece to outlive the young generation
 *   (docs/decisions/0014-gemini-and-bedrock-streams.md, rule 3). The text is the same as if
 *   each piece had been escaped and pushed as it came (`jsonStringText`): a surrogate pair
 *   split between two pieces is escaped apart.
 */
export class TextBuffer implements GrowingText {
  static readonly BATCH = 256;
  /** The text cut or flattened so far, in order; the pieces from `#uncut` on were not cut yet. */
  readonly #pieces: string[] = [];
  #uncut = 0;
  /** Fragments since the last piece, concatenated. */
  #recent = '';
  #count = 0;
  #pushed = false;
  /** The length of the text pushed, but for `#decoded`. */
  #length = 0;
  /** Decoded JSON string text pushed since (`pushJsonString`), not escaped yet. */
  #decoded = '';
  #decodedCount = 0;
  /** `#decoded` ends with a high surrogate. */
  #highEnd = false;

  /** No fragment was pushed, not even an empty one. */
  get empty(): boolean {
    return !this.#pushed;
  }

  /** The length of the text pushed. */
  get length(): number {
    this.#settle();
    return this.#length;
  }

  push(fragment: string): void {
    if (this.#decodedCount > 0) this.#settle();
    this.#pushed = true;
    this.#append(fragment);
  }

  /**
   * Pushes `decoded`, the decoded text of a JSON string, as `push(jsonStringText(decoded))`
   * would, but escapes it later, with the pieces pushed next to it (see the class comment).
   */
  pushJsonString(decoded: string): void {
    this.#pushed = true;
    if (decoded.length === 0) return;
    // A pair split between two pieces is escaped apart, as the pieces one by one would be.
    if (this.#highEnd && isLowSurrogate(decoded.charCodeAt(0))) this.#settle();
    this.#decoded += decoded;
    this.#highEnd = isHighSurrogate(decoded.charCodeAt(decoded.length - 1));
    if (++this.#decodedCount === TextBuffer.BATCH) this.#settle();
  }

  /**
   * The text pushed since the last cut (all of it at the first), as one string that stays
   * this buffer's piece: share it rather than copy it.
   */
  cut(): string {
    this.#piece();
    const pieces = this.#pieces;
    const from = this.#uncut;
    if (from === pieces.length) return '';
    let text = pieces[from] as string;
    for (let i = from + 1; i < pieces.length; i++) text += pieces[i] as string;
    pieces.length = from;
    pieces.push(text);
    this.#uncut = pieces.length;
    return text;
  }

  /**
   * The text pushed since the last cut, as the pieces this buffer keeps (none when nothing
   * was pushed since): every piece but the last is a flat batch of `BATCH` fragments, the
   * last the fragments since, concatenated. Counts as a cut.
   */
  pieces(): readonly string[] {
    this.#piece();
    const from = this.#uncut;
    this.#uncut = this.#pieces.length;
    return from === this.#uncut ? NO_PIECES : this.#pieces.slice(from);
  }

  /** Every fragment pushed, joined (not flattened: see the class comment). */
  text(): string {
    this.#settle();
    let text = '';
    for (const piece of this.#pieces) text += piece;
    return text + this.#recent;
  }

  /** Whether the text is empty or white space only (as `text().trim() === ''`), reading no more of it than needed. */
  blank(): boolean {
    this.#settle();
    for (const piece of this.#pieces) if (nonBlank.test(piece)) return false;
    return !nonBlank.test(this.#recent);
  }

  #append(fragment: string): void {
    this.#length += fragment.length;
    this.#recent += fragment;
    if (++this.#count < TextBuffer.BATCH) return;
    // Reading a character flattens the concatenation (in V8): the fragments it held are free.
    this.#recent.charCodeAt(0);
    this.#piece();
  }

  /** Escapes the decoded text pushed since the last fragment and appends it. */
  #settle(): void {
    if (this.#decodedCount === 0) return;
    const decoded = this.#decoded;
    this.#decoded = '';
    this.#decodedCount = 0;
    this.#highEnd = false;
    this.#append(jsonStringText(decoded));
  }

  #piece(): void {
    this.#settle();
    if (this.#recent.length > 0) this.#pieces.push(this.#recent);
    this.#recent = '';
    this.#count = 0;
  }
}

const NO_PIECES: readonly string[] = [];

/** What `String.prototype.trim` keeps: anything but WhiteSpace and LineTerminator (`\s`). */
const nonBlank = /\S/;
