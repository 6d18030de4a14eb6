import { DEV_MODE } from './dev-mode.js';
import { internalProbe } from './probe.js';

/**
 * A list that also grows and shrinks at its front in amortized O(1) per item: its storage
 * keeps free room before the first item, which doubles when a front change needs more, so
 * an item is moved O(1) times on average over a session paged in from the end. An array's
 * `splice(0, removed, ...added)` moves every item after the front instead (a long session
 * paid that per history page for each of its lists). Internal: not re-exported.
 */
export class FrontList<T> {
  #items: (T | undefined)[];
  /** Index in `#items` of the first item. */
  #start = 0;
  #length: number;

  constructor(items: T[] = []) {
    this.#items = items;
    this.#length = items.length;
  }

  get length(): number {
    return this.#length;
  }

  /** The item at `index` (0 ≤ index < length). */
  at(index: number): T {
    return this.#items[this.#start + index] as T;
  }

  set(index: number, item: T): void {
    this.#items[this.#start + index] = item;
  }

  /** The last item, or undefined when empty. */
  last(): T | undefined {
    return this.#length > 0 ? this.at(this.#length - 1) : undefined;
  }

  push(item: T): void {
    this.#items[this.#start + this.#length++] = item;
  }

  /** Drops every item from `length` on (length ≤ this.length); their slots are cleared. */
  truncate(length: number): void {
    const end = this.#start + this.#length;
    for (let i = this.#start + length; i < end; i++) this.#items[i] = undefined;
    this.#length = length;
  }

  /** Replaces the first `removed` items (at most `length`) with `added`, in that order. */
  replaceFront(removed: number, added: readonly T[]): void {
    let start = this.#start + removed;
    for (let i = this.#start; i < start; i++) this.#items[i] = undefined;
    this.#length -= removed;
    if (added.length > start) {
      // Room for the added items and as much again as the list holds, so that the next
      // growths at the front write into free slots.
      const room = added.length + this.#length;
      // Filled, not `new Array(room)`: V8 gives a long array made that way slow dictionary storage.
      const items: (T | undefined)[] = [];
      for (let i = 0; i < room; i++) items.push(undefined);
      const kept = this.#items;
      for (let i = 0; i < this.#length; i++) items.push(kept[start + i]);
      if (DEV_MODE) internalProbe.moved += this.#length;
      this.#items = items;
      start = room;
    }
    start -= added.length;
    for (let i = 0; i < added.length; i++) this.#items[start + i] = added[i];
    this.#start = start;
    this.#length += added.length;
  }

  /** A new array of the items, in order. */
  toArray(): T[] {
    return this.#items.slice(this.#start, this.#start + this.#length) as T[];
  }
}
