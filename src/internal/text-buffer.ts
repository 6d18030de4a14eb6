/**
 * The fragments of a streamed text, kept for its full text at the end. A long call streams
 * tens of thousands of small fragments (a 512 KiB write: 38,000 of 16 characters). Kept in
 * an array, they would all survive the young generation and be copied by each scavenge, and
 * `Array.prototype.join` over them costs V8 about twice what concatenation does (17 against
 * 7–10 ms of CPU for those 38,000, measured 2026-12-01). So fragments are concatenated, and
 * every `BATCH` of them is flattened at once into one string while they are still young.
 * Internal: not re-exported.
 */
export class TextBuffer {
  static readonly BATCH = 256;
  /** The flattened batches, concatenated. */
  #done = '';
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
    this.#done += this.#recent;
    this.#recent = '';
    this.#count = 0;
  }

  /** Every fragment pushed, joined. */
  text(): string {
    return this.#done + this.#recent;
  }
}
