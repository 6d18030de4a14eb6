/**
 * The fragments of a streamed text, kept for its full text at the end. A long call streams
 * tens of thousands of small fragments (a 512 KiB write: 38,000 of 16 characters); held one
 * by one they would all survive the young generation and be copied by each scavenge, and
 * `Array.prototype.join` over that many costs V8 about twice as much per element as over a
 * few hundred. So every `BATCH` fragments are joined at once into one string, while they are
 * still young, and `text()` joins the few batches. Internal: not re-exported.
 */
export class TextBuffer {
  static readonly BATCH = 256;
  #batches: string[] = [];
  #recent: string[] = [];

  /** No fragment was pushed, not even an empty one. */
  get empty(): boolean {
    return this.#batches.length === 0 && this.#recent.length === 0;
  }

  push(fragment: string): void {
    const recent = this.#recent;
    recent.push(fragment);
    if (recent.length === TextBuffer.BATCH) {
      this.#batches.push(recent.join(''));
      this.#recent = [];
    }
  }

  /** Every fragment pushed, joined. */
  text(): string {
    const tail = this.#recent.join('');
    if (this.#batches.length === 0) return tail;
    return this.#batches.join('') + tail;
  }
}
