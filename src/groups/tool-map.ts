import type { ToolNode } from '../definitions/tool-definition.js';
import { DEV_MODE } from '../internal/dev-mode.js';
import { groupProbe } from '../tools/probe.js';

/**
 * The `tools` of a Grouping: every tool node by callId, in log order, read-only.
 *
 * Publications in a long session change a few entries of a large map: a call streaming while
 * thousands are settled replaces one, a new call adds one at the end, an older history page
 * adds a few at the front. None may copy every entry. A ToolMap never changes after it is
 * made; it shares its storage with the ToolMaps published before it:
 *
 * 1. Segments: Maps in log order, smaller towards either end (a binary counter growing at
 *    the front, another at the back). `prepended()` adds a segment at the front and merges
 *    the first two while the first is more than half the second; `appended()` does the same
 *    at the back. An entry is copied O(log size) times over a session paged in from the end
 *    or grown at the live end, and a lookup reads O(log size) Maps.
 * 2. Entries replaced in place: in a copy of the last segment when it is small (≤ 16
 *    entries: the live end, where a streaming call is, usually), else in an overlay that
 *    `with()` copies, folded into one segment once it holds more than √size entries. A call
 *    streaming and settling at the live end costs O(1) a publication; one replaced elsewhere
 *    (a late result of an old call) O(√size) amortized, instead of O(size).
 */
export class ToolMap implements ReadonlyMap<string, ToolNode> {
  /** In log order; never written once shared. */
  readonly #segments: readonly ReadonlyMap<string, ToolNode>[];
  readonly #overlay: ReadonlyMap<string, ToolNode>;
  readonly #size: number;

  private constructor(
    segments: readonly ReadonlyMap<string, ToolNode>[],
    overlay: ReadonlyMap<string, ToolNode>,
  ) {
    this.#segments = segments;
    this.#overlay = overlay;
    let size = 0;
    for (const segment of segments) size += segment.size;
    this.#size = size;
  }

  /** The tools in log order (the first of repeated callIds keeps its place, the last node wins). */
  static of(tools: readonly ToolNode[]): ToolMap {
    if (DEV_MODE) groupProbe.toolEntries += tools.length;
    return new ToolMap([new Map(tools.map((tool) => [tool.callId, tool]))], EMPTY);
  }

  /**
   * A ToolMap with `replaced` (tools whose callIds are held) in place of the nodes held: in
   * a copy of the last segment when they are in it and it is small (the live end: a call
   * streaming or settling, which `appended` put there), else in a copy of the overlay.
   */
  with(replaced: readonly ToolNode[]): ToolMap {
    if (replaced.length === 0) return this;
    const segments = this.#segments;
    const last = segments[segments.length - 1];
    let tail: Map<string, ToolNode> | undefined;
    let overlay: Map<string, ToolNode> | undefined;
    for (const tool of replaced) {
      if (last !== undefined && last.size <= SMALL_SEGMENT && last.has(tool.callId)) {
        tail ??= new Map(last);
        tail.set(tool.callId, tool);
        if ((overlay ?? this.#overlay).has(tool.callId)) {
          overlay ??= new Map(this.#overlay);
          overlay.delete(tool.callId);
        }
      } else {
        overlay ??= new Map(this.#overlay);
        overlay.set(tool.callId, tool);
      }
    }
    if (DEV_MODE) groupProbe.toolEntries += (tail?.size ?? 0) + (overlay?.size ?? 0);
    let kept = segments;
    if (tail) {
      const copy = segments.slice();
      copy[copy.length - 1] = tail;
      kept = copy;
    }
    if (overlay === undefined) return new ToolMap(kept, this.#overlay);
    if (overlay.size * overlay.size <= this.#size) return new ToolMap(kept, overlay);
    const merged = new Map<string, ToolNode>();
    for (const segment of kept) {
      segment.forEach((tool, callId) => {
        merged.set(callId, (overlay as Map<string, ToolNode>).get(callId) ?? tool);
      });
    }
    if (DEV_MODE) groupProbe.toolEntries += merged.size;
    return new ToolMap([merged], EMPTY);
  }

  /**
   * A ToolMap without its first `removed` entries (log order) and with `added` before the
   * rest; undefined when an added callId is among the entries kept (the caller rebuilds).
   */
  prepended(removed: number, added: readonly ToolNode[]): ToolMap | undefined {
    const base = removed > 0 ? this.#without(removed) : this;
    for (const tool of added) if (base.has(tool.callId)) return undefined;
    if (added.length === 0) return base;
    const front = new Map<string, ToolNode>();
    for (const tool of added) front.set(tool.callId, tool);
    if (front.size !== added.length) return undefined;
    if (DEV_MODE) groupProbe.toolEntries += front.size;
    const segments = [front, ...base.#segments];
    // Keep each segment at most half the size of the next: merge the front two until it holds.
    while (
      segments.length > 1 &&
      2 * (segments[0] as Map<string, ToolNode>).size >
        (segments[1] as ReadonlyMap<string, ToolNode>).size
    ) {
      segments.splice(
        0,
        2,
        joined(
          segments[0] as ReadonlyMap<string, ToolNode>,
          segments[1] as ReadonlyMap<string, ToolNode>,
        ),
      );
    }
    return new ToolMap(segments, base.#overlay);
  }

  /**
   * A ToolMap without its last `removed` entries (log order) and with `added` after the rest;
   * undefined when an added callId is among the entries kept (the caller rebuilds). The back
   * grows as the front does: a segment added at the end, the last two merged while the last
   * is more than half the one before it.
   */
  appended(removed: number, added: readonly ToolNode[]): ToolMap | undefined {
    const base = removed > 0 ? this.#withoutLast(removed) : this;
    for (const tool of added) if (base.has(tool.callId)) return undefined;
    if (added.length === 0) return base;
    const back = new Map<string, ToolNode>();
    for (const tool of added) back.set(tool.callId, tool);
    if (back.size !== added.length) return undefined;
    if (DEV_MODE) groupProbe.toolEntries += back.size;
    const segments = [...base.#segments, back];
    for (;;) {
      const n = segments.length;
      if (n < 2) break;
      const last = segments[n - 1] as ReadonlyMap<string, ToolNode>;
      const before = segments[n - 2] as ReadonlyMap<string, ToolNode>;
      if (2 * last.size <= before.size) break;
      segments.splice(n - 2, 2, joined(before, last));
    }
    return new ToolMap(segments, base.#overlay);
  }

  /** This map without its last `removed` entries (only the segments they are in are copied). */
  #withoutLast(removed: number): ToolMap {
    const segments = [...this.#segments];
    let overlay = this.#overlay;
    let skip = removed;
    while (skip > 0 && segments.length > 0) {
      const last = segments.pop() as ReadonlyMap<string, ToolNode>;
      const keep = Math.max(0, last.size - skip);
      skip -= last.size - keep;
      const kept = new Map<string, ToolNode>();
      let i = 0;
      last.forEach((tool, callId) => {
        if (i++ < keep) kept.set(callId, tool);
        else if (overlay.has(callId)) {
          const copy = new Map(overlay);
          copy.delete(callId);
          overlay = copy;
        }
      });
      if (DEV_MODE) groupProbe.toolEntries += kept.size;
      if (kept.size > 0) segments.push(kept);
    }
    return new ToolMap(segments, overlay);
  }

  /** This map without its first `removed` entries (only the segments they are in are copied). */
  #without(removed: number): ToolMap {
    const segments = [...this.#segments];
    let overlay = this.#overlay;
    let skip = removed;
    while (skip > 0 && segments.length > 0) {
      const first = segments.shift() as ReadonlyMap<string, ToolNode>;
      const kept = new Map<string, ToolNode>();
      first.forEach((tool, callId) => {
        if (skip > 0) {
          skip--;
          if (overlay.has(callId)) {
            const copy = new Map(overlay);
            copy.delete(callId);
            overlay = copy;
          }
        } else kept.set(callId, tool);
      });
      if (DEV_MODE) groupProbe.toolEntries += kept.size;
      if (kept.size > 0) segments.unshift(kept);
    }
    return new ToolMap(segments, overlay);
  }

  get size(): number {
    return this.#size;
  }

  /** Looks in the overlay, then the segments from the last: the live end's first and smallest. */
  get(callId: string): ToolNode | undefined {
    const overlay = this.#overlay;
    if (overlay.size > 0) {
      const replaced = overlay.get(callId);
      if (replaced !== undefined) return replaced;
    }
    const segments = this.#segments;
    for (let i = segments.length - 1; i >= 0; i--) {
      const tool = (segments[i] as ReadonlyMap<string, ToolNode>).get(callId);
      if (tool !== undefined) return tool;
    }
    return undefined;
  }

  has(callId: string): boolean {
    const segments = this.#segments;
    for (let i = segments.length - 1; i >= 0; i--) {
      if ((segments[i] as ReadonlyMap<string, ToolNode>).has(callId)) return true;
    }
    return false;
  }

  forEach(
    callback: (tool: ToolNode, callId: string, map: ReadonlyMap<string, ToolNode>) => void,
    thisArg?: unknown,
  ): void {
    for (const [callId, tool] of this) callback.call(thisArg, tool, callId, this);
  }

  keys(): MapIterator<string> {
    return this.#keys() as MapIterator<string>;
  }

  values(): MapIterator<ToolNode> {
    return this.#values() as MapIterator<ToolNode>;
  }

  entries(): MapIterator<[string, ToolNode]> {
    return this.#entries() as MapIterator<[string, ToolNode]>;
  }

  [Symbol.iterator](): MapIterator<[string, ToolNode]> {
    return this.entries();
  }

  get [Symbol.toStringTag](): string {
    return 'ToolMap';
  }

  *#entries(): Generator<[string, ToolNode]> {
    const overlay = this.#overlay;
    for (const segment of this.#segments) {
      if (overlay.size === 0) {
        yield* segment;
        continue;
      }
      for (const [callId, tool] of segment) yield [callId, overlay.get(callId) ?? tool];
    }
  }

  *#keys(): Generator<string> {
    for (const segment of this.#segments) yield* segment.keys();
  }

  *#values(): Generator<ToolNode> {
    for (const [, tool] of this.#entries()) yield tool;
  }
}

const EMPTY: ReadonlyMap<string, ToolNode> = new Map();

/**
 * The largest last segment `with()` copies to replace an entry in it rather than adding the
 * entry to the overlay (which every later `with()` copies, until it is folded in).
 */
const SMALL_SEGMENT = 16;

/**
 * Two adjacent segments as one, in log order. forEach, not for-of: no [callId, tool] array
 * per entry (a session paged in from the end, or grown at the live end, copies each entry
 * O(log tools) times).
 */
function joined(
  first: ReadonlyMap<string, ToolNode>,
  second: ReadonlyMap<string, ToolNode>,
): Map<string, ToolNode> {
  const merged = new Map(first);
  second.forEach((tool, callId) => {
    merged.set(callId, tool);
  });
  if (DEV_MODE) groupProbe.toolEntries += merged.size;
  return merged;
}
