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
 */
export class TextBuffer {
  static readonly BATCH = 256;
  /** The text cut or flattened so far, in order; the pieces from `#uncut` on were not cut yet. */
  readonly #pieces: string[] = [];
  #uncut = 0;
  /** Fragments since the last piece, concatenated. */
  #recent = '';
  #count = 0;
  #pushed = false;

  /** No fragment was pushed, not even an empty one. */
  get empty(): boolean {
    return !this.#pushed;
  }

  push(fragment: string): void {
    this.#pushed = true;
    this.#recent += fragment;
    if (++this.#count < TextBuffer.BATCH) return;
    // Reading a character flattens the concatenation (in V8): the fragments it held are free.
    this.#recent.charCodeAt(0);
    this.#piece();
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
    let text = '';
    for (const piece of this.#pieces) text += piece;
    return text + this.#recent;
  }

  /** Whether the text is empty or white space only (as `text().trim() === ''`), reading no more of it than needed. */
  blank(): boolean {
    for (const piece of this.#pieces) if (nonBlank.test(piece)) return false;
    return !nonBlank.test(this.#recent);
  }

  #piece(): void {
    if (this.#recent.length > 0) this.#pieces.push(this.#recent);
    this.#recent = '';
    this.#count = 0;
  }
}

const NO_PIECES: readonly string[] = [];

/** What `String.prototype.trim` keeps: anything but WhiteSpace and LineTerminator (`\s`). */
const nonBlank = /\S/;
