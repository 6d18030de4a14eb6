import { DEV_MODE } from '../internal/dev-mode.js';
import { internalProbe } from '../internal/probe.js';
import { type Kept, listSerial, recordKeptEnds } from './kept-ends.js';

const SHIFT = 8;
const CHUNK = 1 << SHIFT;
const MASK = CHUNK - 1;

/**
 * The items of one publication, read-only: the chunks of a `ChunkedItems` as they were when
 * it was published. Its `array()` is made on first call (O(length)) and then kept, so a
 * Grouping costs what changed when it is published, and the copy of the whole list only
 * when someone reads it.
 */
export class ItemsSnapshot<T> {
  /** Names `array()` for `keptEnds`. */
  readonly serial = listSerial();
  readonly length: number;
  /** What `array()` keeps of earlier publications' arrays (see `recordKeptEnds`). */
  readonly kept: readonly Kept[];
  /** Dropped once the array is made. */
  #chunks: readonly (readonly T[])[];
  /** Position in `#chunks[0]` of the first item. */
  readonly #offset: number;
  #array: readonly T[] | undefined;
  #read = false;

  constructor(
    chunks: readonly (readonly T[])[],
    offset: number,
    length: number,
    kept: readonly Kept[],
    array?: readonly T[],
  ) {
    this.#chunks = chunks;
    this.#offset = offset;
    this.length = length;
    this.kept = kept;
    if (array) {
      this.#read = true;
      this.#array = Object.freeze(array);
      // A record of its own, not this snapshot: a WeakMap value that holds its key (the
      // array) is a cycle the garbage collector works through at every scavenge (the fold
      // benchmark's write took ~25% longer with it).
      recordKeptEnds(this.#array, { serial: this.serial, kept: this.kept });
    }
  }

  /** A snapshot of a whole array, which it freezes and publishes as it is. */
  static of<T>(array: T[], kept: readonly Kept[]): ItemsSnapshot<T> {
    return new ItemsSnapshot<T>([], 0, array.length, kept, array);
  }

  /** Whether `array()` has been called, or the array was given (`ItemsSnapshot.of`). */
  get read(): boolean {
    return this.#read;
  }

  /** The array, when it is made already (`ItemsSnapshot.of`, or read). */
  get made(): readonly T[] | undefined {
    return this.#array;
  }

  /** The item at `index` (0 ≤ index < length), without making the array. */
  at(index: number): T {
    if (this.#array) return this.#array[index] as T;
    const n = this.#offset + index;
    return (this.#chunks[n >> SHIFT] as readonly T[])[n & MASK] as T;
  }

  /** The items, frozen: the same array at every call. */
  array(): readonly T[] {
    this.#read = true;
    if (this.#array) return this.#array;
    // Whole chunks and the ends of the first and last: slices and one concat, which copy
    // them in bulk.
    const chunks = this.#chunks;
    const end = this.#offset + this.length;
    let array: T[];
    if (chunks.length === 1) {
      array = (chunks[0] as readonly T[]).slice(this.#offset, end);
    } else {
      const parts: (readonly T[])[] = [];
      for (let k = 0; k < chunks.length; k++) {
        const chunk = chunks[k] as readonly T[];
        const from = k === 0 ? this.#offset : 0;
        const to = Math.min(CHUNK, end - (k << SHIFT));
        parts.push(from === 0 && to === chunk.length ? chunk : chunk.slice(from, to));
      }
      array = ([] as T[]).concat(...parts);
    }
    if (DEV_MODE) internalProbe.moved += this.length;
    this.#array = Object.freeze(array);
    this.#chunks = [];
    recordKeptEnds(this.#array, { serial: this.serial, kept: this.kept });
    return this.#array;
  }
}

/**
 * A list of items changed in place at any index or at its front, whose state can be
 * published as an `ItemsSnapshot` in O(length / 256): storage is chunks of 256 items, shared
 * with every snapshot taken since they last changed (a chunk is copied before its first change
 * after a snapshot). Items are numbered so that a change at the front renumbers nothing after
 * it, and a chunk holds a fixed range of numbers. Internal: not re-exported.
 */
export class ChunkedItems<T> {
  /** Chunk `k` (items numbered `k·256` to `k·256 + 255`) at `#chunks[k − #firstChunk]`. */
  #chunks: T[][] = [];
  /** Whether a snapshot holds the chunk at the same index of `#chunks`. */
  #shared: boolean[] = [];
  #firstChunk = 0;
  /** The number of the first item. */
  #start = 0;
  #length = 0;

  constructor(items: readonly T[] = []) {
    this.replaceFront(0, items);
  }

  get length(): number {
    return this.#length;
  }

  at(index: number): T {
    const n = this.#start + index;
    return (this.#chunks[(n >> SHIFT) - this.#firstChunk] as T[])[n & MASK] as T;
  }

  set(index: number, item: T): void {
    const n = this.#start + index;
    this.#writable(n >> SHIFT)[n & MASK] = item;
  }

  /** Replaces the first `removed` items (at most `length`) with `added`, in that order. */
  replaceFront(removed: number, added: readonly T[]): void {
    const start = this.#start + removed - added.length;
    for (let i = 0; i < added.length; i++) {
      const n = start + i;
      this.#writable(n >> SHIFT)[n & MASK] = added[i] as T;
    }
    this.#start = start;
    this.#length += added.length - removed;
  }

  /** Replaces the last `removed` items (at most `length`) with `added`, in that order. */
  replaceBack(removed: number, added: readonly T[]): void {
    const end = this.#start + this.#length;
    let n = end - removed;
    for (const item of added) {
      this.#writable(n >> SHIFT)[n & MASK] = item;
      n++;
    }
    // Slots left past the new end: cleared, so that they hold no item that left the list.
    for (let m = n; m < end; m++) this.#writable(m >> SHIFT)[m & MASK] = undefined as T;
    this.#length += added.length - removed;
  }

  /**
   * The items as they are now; `kept` as `ItemsSnapshot.kept`. A list of at most one chunk's
   * length is copied into the snapshot's array at once (no dearer than sharing it, and its
   * next change then copies nothing).
   */
  snapshot(kept: readonly Kept[]): ItemsSnapshot<T> {
    if (this.#length === 0) return ItemsSnapshot.of([], kept);
    const from = (this.#start >> SHIFT) - this.#firstChunk;
    const to = ((this.#start + this.#length - 1) >> SHIFT) - this.#firstChunk + 1;
    if (DEV_MODE) internalProbe.moved += to - from;
    const snapshot = new ItemsSnapshot<T>(
      this.#chunks.slice(from, to),
      this.#start & MASK,
      this.#length,
      kept,
    );
    if (this.#length <= CHUNK) {
      snapshot.array();
      return snapshot;
    }
    for (let k = from; k < to; k++) this.#shared[k] = true;
    return snapshot;
  }

  /** Chunk `k`, made or copied so that no snapshot holds it. */
  #writable(k: number): T[] {
    if (this.#chunks.length === 0) this.#firstChunk = k;
    // A new chunk is filled where it is written (holes until then: its items are read only
    // where written, between the first and the last item).
    while (k < this.#firstChunk) {
      this.#chunks.unshift([]);
      this.#shared.unshift(false);
      this.#firstChunk--;
    }
    while (k >= this.#firstChunk + this.#chunks.length) {
      this.#chunks.push([]);
      this.#shared.push(false);
    }
    const i = k - this.#firstChunk;
    let chunk = this.#chunks[i] as T[];
    if (this.#shared[i]) {
      chunk = chunk.slice();
      if (DEV_MODE) internalProbe.moved += CHUNK;
      this.#chunks[i] = chunk;
      this.#shared[i] = false;
    }
    return chunk;
  }
}
