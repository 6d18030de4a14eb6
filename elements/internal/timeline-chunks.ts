import { type Conversation, commonEnds, keptEnds, type TurnNode } from '../../src/index.js';
import { recut } from './runs.js';

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

/** A run of consecutive chunks: the unit the timeline's template walks at the top level. */
export interface Section {
  /** The key of its first chunk. */
  readonly key: string;
  readonly items: readonly Chunk[];
  /** Grows when one of its chunks starts rendering (its template must run again). */
  version: number;
}

/**
 * The timeline's items cut into chunks of at most `size`, and the chunks into sections of at
 * most `sectionSize`, kept across publications so that an unchanged stretch of history keeps
 * its chunk and section objects (and so its elements, and Lit skips it).
 *
 * Invariants:
 * 1. The chunks' items, concatenated, are the last `update`'s items, in order; the sections'
 *    chunks, concatenated, are the chunks.
 * 2. `update` finds the stretch of items that changed: from the Builder's record of what it
 *    kept (`keptEnds`) when the previous items are the list the new ones were derived
 *    from, else by comparing by identity from both ends. Only the chunks over that stretch
 *    are cut again (`recut`), and only the sections over those chunks. Appending, or
 *    replacing the live group at the end, cuts again only the last chunk and the last
 *    section, which keep their keys.
 * 3. A chunk cut again is rendered if any chunk it replaces was: what a reader has seen does
 *    not fall back to a placeholder.
 * 4. With the Builder's record, the work of an update is the changed stretch's chunks and
 *    sections plus their distance from the nearer end: independent of the number of items.
 *    Without it, add one identity comparison per unchanged item.
 */
export class TimelineChunks {
  readonly #size: number;
  readonly #sectionSize: number;
  #items: readonly TimelineItem[] = [];
  readonly #chunks: Chunk[] = [];
  readonly #sections: Section[] = [];
  readonly #sectionOf = new WeakMap<Chunk, Section>();
  #waiting = 0;
  /** Items the last `update` removed and added (the changed stretch), in order. */
  #removed: readonly TimelineItem[] = [];
  #added: readonly TimelineItem[] = [];
  #compared = 0;

  constructor(size: number, sectionSize = 32) {
    this.#size = Math.max(1, size);
    this.#sectionSize = Math.max(1, sectionSize);
  }

  /** Every chunk, in order (the live array: do not keep it across updates). */
  get chunks(): readonly Chunk[] {
    return this.#chunks;
  }

  /** Every section, in order (the live array: do not keep it across updates). */
  get sections(): readonly Section[] {
    return this.#sections;
  }

  /** How many chunks are not rendered. */
  get waiting(): number {
    return this.#waiting;
  }

  /** The items of the previous publication that the last `update` dropped or replaced. */
  get removed(): readonly TimelineItem[] {
    return this.#removed;
  }

  /** The items the last `update` put in their place. */
  get added(): readonly TimelineItem[] {
    return this.#added;
  }

  /** Identity comparisons of items the last `update` made (0 with the Builder's record). */
  get compared(): number {
    return this.#compared;
  }

  /** Marks `chunk` rendered, and its section changed. */
  render(chunk: Chunk): void {
    if (chunk.rendered) return;
    chunk.rendered = true;
    this.#waiting--;
    const section = this.#sectionOf.get(chunk);
    if (section) section.version++;
  }

  /** Cuts `items` into chunks, reusing the chunks of the previous items that did not change. */
  update(items: readonly TimelineItem[]): void {
    const old = this.#items;
    this.#compared = 0;
    if (items === old) {
      this.#removed = [];
      this.#added = [];
      return;
    }
    const kept = keptEnds(old, items);
    let prefix: number;
    let suffix: number;
    if (kept !== undefined) {
      ({ prefix, suffix } = kept);
    } else {
      ({ prefix, suffix } = commonEnds(old, items));
      this.#compared = prefix + suffix + 1;
    }
    this.#removed = old.slice(prefix, old.length - suffix);
    this.#added = items.slice(prefix, items.length - suffix);
    const chunkCount = this.#chunks.length;
    const chunks = recut(
      this.#chunks,
      old.length,
      prefix,
      suffix,
      this.#added,
      this.#size,
      (slice, replaced): Chunk => ({
        key: itemKey(slice[0] as TimelineItem),
        items: slice,
        rendered: replaced.some((chunk) => chunk.rendered),
      }),
    );
    for (const chunk of chunks.removed) if (!chunk.rendered) this.#waiting--;
    for (const chunk of chunks.added) if (!chunk.rendered) this.#waiting++;
    const sections = recut(
      this.#sections,
      chunkCount,
      chunks.head,
      chunkCount - chunks.head - chunks.removed.length,
      chunks.added,
      this.#sectionSize,
      (list): Section => ({ key: (list[0] as Chunk).key, items: list, version: 0 }),
    );
    for (const section of sections.added) {
      for (const chunk of section.items) this.#sectionOf.set(chunk, section);
    }
    this.#items = items;
  }
}
