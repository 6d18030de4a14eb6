import type { ToolNode } from '../definitions/tool-definition.js';
import { DEV_MODE } from '../internal/dev-mode.js';
import { groupProbe } from './probe.js';

/**
 * The `tools` of a Grouping: every tool node by callId, in log order, read-only.
 *
 * A publication that replaces a few tools in place (a call streaming while thousands are
 * settled) must not copy every entry. A ToolMap shares a base Map with the ToolMaps published
 * before it and holds the replaced entries in a small overlay; `with()` copies only the
 * overlay, and folds it into a new base once it holds more than √size entries, so a
 * publication costs O(√size) amortized instead of O(size). A ToolMap never changes after it
 * is made (the base it shares is never written).
 */
export class ToolMap implements ReadonlyMap<string, ToolNode> {
  readonly #base: ReadonlyMap<string, ToolNode>;
  readonly #overlay: ReadonlyMap<string, ToolNode>;

  private constructor(base: ReadonlyMap<string, ToolNode>, overlay: ReadonlyMap<string, ToolNode>) {
    this.#base = base;
    this.#overlay = overlay;
  }

  /** The tools in log order (the first of repeated callIds keeps its place, the last node wins). */
  static of(tools: readonly ToolNode[]): ToolMap {
    if (DEV_MODE) groupProbe.toolEntries += tools.length;
    return new ToolMap(new Map(tools.map((tool) => [tool.callId, tool])), EMPTY);
  }

  /** A ToolMap with `replaced` (tools whose callIds are held) in place of the nodes held. */
  with(replaced: readonly ToolNode[]): ToolMap {
    const overlay = new Map(this.#overlay);
    for (const tool of replaced) overlay.set(tool.callId, tool);
    if (DEV_MODE) groupProbe.toolEntries += overlay.size;
    if (overlay.size * overlay.size <= this.#base.size) return new ToolMap(this.#base, overlay);
    const base = new Map(this.#base);
    for (const [callId, tool] of overlay) base.set(callId, tool);
    if (DEV_MODE) groupProbe.toolEntries += base.size;
    return new ToolMap(base, EMPTY);
  }

  get size(): number {
    return this.#base.size;
  }

  get(callId: string): ToolNode | undefined {
    return this.#overlay.get(callId) ?? this.#base.get(callId);
  }

  has(callId: string): boolean {
    return this.#base.has(callId);
  }

  forEach(
    callback: (tool: ToolNode, callId: string, map: ReadonlyMap<string, ToolNode>) => void,
    thisArg?: unknown,
  ): void {
    for (const [callId, tool] of this) callback.call(thisArg, tool, callId, this);
  }

  keys(): MapIterator<string> {
    return this.#base.keys();
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
    if (overlay.size === 0) {
      yield* this.#base;
      return;
    }
    for (const [callId, tool] of this.#base) yield [callId, overlay.get(callId) ?? tool];
  }

  *#values(): Generator<ToolNode> {
    for (const [, tool] of this.#entries()) yield tool;
  }
}

const EMPTY: ReadonlyMap<string, ToolNode> = new Map();
