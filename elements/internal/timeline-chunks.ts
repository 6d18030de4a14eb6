import type { Conversation, TurnNode } from '../../src/index.js';

/** What a Conversation lists: an assistant response, a turn, or a tool group. */
export type TimelineItem = Conversation<TurnNode>['items'][number];

/** An item's key among the timeline's items: its kind and id. */
export function itemKey(item: TimelineItem): string {
  return `${item.kind}:${item.id}`;
}

/** A run of consecutive items that renders, or waits to render, as one. */
export interface Chunk {
  /** The key of its first item: the same while that item leads the chunk. */
  readonly key: string;
  readonly items: readonly TimelineItem[];
  /** Whether its items have elements. Never goes back to false. */
  rendered: boolean;
}

/**
 * The timeline's items cut into chunks of at most `size`, kept across publications so that an
 * unchanged stretch of history keeps its chunk objects (and so its elements, and Lit skips it).
 *
 * Invariants:
 * 1. The chunks' items, concatenated, are the last `update`'s items, in order.
 * 2. `update` compares the new items with the previous ones by identity from both ends: the
 *    chunks wholly inside the unchanged prefix and suffix are kept as they were; only the
 *    chunks over the changed stretch are cut again, from the first of them. Appending, or
 *    replacing the live group at the end, cuts again only the last chunk, which keeps its key.
 * 3. A chunk cut again is rendered if any chunk it replaces was: what a reader has seen does
 *    not fall back to a placeholder.
 * 4. The work is one identity comparison per item (no property read) plus the size of the
 *    changed stretch's chunks.
 */
export class TimelineChunks {
  readonly #size: number;
  #items: readonly TimelineItem[] = [];
  #chunks: readonly Chunk[] = [];
  /** Items the last `update` removed and added (the changed stretch), in order. */
  #removed: readonly TimelineItem[] = [];
  #added: readonly TimelineItem[] = [];

  constructor(size: number) {
    this.#size = Math.max(1, size);
  }

  get chunks(): readonly Chunk[] {
    return this.#chunks;
  }

  /** The items of the previous publication that the last `update` dropped or replaced. */
  get removed(): readonly TimelineItem[] {
    return this.#removed;
  }

  /** The items the last `update` put in their place. */
  get added(): readonly TimelineItem[] {
    return this.#added;
  }

  /** Cuts `items` into chunks, reusing the chunks of the previous items that did not change. */
  update(items: readonly TimelineItem[]): void {
    const old = this.#items;
    if (items === old) {
      this.#removed = [];
      this.#added = [];
      return;
    }
    const chunks = this.#chunks;
    const shorter = Math.min(old.length, items.length);
    let prefix = 0;
    while (prefix < shorter && old[prefix] === items[prefix]) prefix++;
    let suffix = 0;
    while (
      suffix < shorter - prefix &&
      old[old.length - 1 - suffix] === items[items.length - 1 - suffix]
    ) {
      suffix++;
    }
    // Chunks wholly in the unchanged prefix, and wholly in the unchanged suffix.
    let head = 0;
    let start = 0;
    while (head < chunks.length) {
      const length = (chunks[head] as Chunk).items.length;
      if (start + length > prefix) break;
      start += length;
      head++;
    }
    let tail = chunks.length;
    let end = old.length;
    while (tail > head) {
      const length = (chunks[tail - 1] as Chunk).items.length;
      if (end - length < old.length - suffix) break;
      end -= length;
      tail--;
    }
    let rendered = false;
    for (let i = head; i < tail; i++) rendered ||= (chunks[i] as Chunk).rendered;
    const stop = items.length - (old.length - end);
    const cut: Chunk[] = [];
    for (let at = start; at < stop; at += this.#size) {
      const slice = items.slice(at, Math.min(at + this.#size, stop));
      cut.push({ key: itemKey(slice[0] as TimelineItem), items: slice, rendered });
    }
    this.#removed = old.slice(prefix, old.length - suffix);
    this.#added = items.slice(prefix, items.length - suffix);
    this.#chunks =
      head === 0 && tail === chunks.length
        ? cut
        : [...chunks.slice(0, head), ...cut, ...chunks.slice(tail)];
    this.#items = items;
  }
}
