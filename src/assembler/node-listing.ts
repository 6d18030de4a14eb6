import { appendAll } from '../internal/append-all.js';
import { DEV_MODE } from '../internal/dev-mode.js';
import { FrontList } from '../internal/front-list.js';
import type { ListChanges, ReadList } from '../internal/list-changes.js';
import type { ContextOrder, Merged, Ordered, Tail } from './context-order.js';
import { assemblerProbe } from './probe.js';

/**
 * The nodes of the ordered Contexts, in order, as a NodeAssembler hands them to its compose
 * step, and how they changed since the last publication (`ListChanges`). A Context's node is
 * at index `slot − base` while its `slotEpoch` is the listing's: nodes added at the front take
 * slots below the base, so that no other Context is renumbered, and the list grows at the
 * front without moving (`FrontList`). When a change cannot be described (a Context after the
 * front gained or lost its node, a page at the front and a changed end at once, a full sort)
 * the list is made afresh, in a new epoch.
 */
export class NodeListing<Node> {
  readonly #order: ContextOrder<Node>;
  #nodes = new FrontList<Node>();
  /**
   * `#nodes` as an array, for a compose step that takes one: made on demand after a change
   * at the front, kept in step while nodes are replaced or appended.
   */
  #array: Node[] | undefined;
  #base = 0;
  #epoch = 1;
  #listed = false;

  constructor(order: ContextOrder<Node>) {
    this.#order = order;
  }

  /** The nodes as last listed (lent: read it during the compose call only). */
  get nodes(): ReadList<Node> {
    return this.#nodes;
  }

  /** The nodes as last listed, as an array (lent, as `nodes`). */
  array(): readonly Node[] {
    this.#array ??= this.#nodes.toArray();
    return this.#array;
  }

  /**
   * Puts the order right and lists the nodes of a publication. `dirty`: the Contexts built
   * since the last one. Returns how the list changed, or undefined when it was made afresh
   * (and at the first publication).
   */
  publish(dirty: readonly Ordered<Node>[]): Required<ListChanges> | undefined {
    const order = this.#order;
    const patched = order.reorder();
    const changes =
      patched && this.#listed ? this.#changes(dirty, order.merged, order.tail) : undefined;
    order.settle();
    if (changes === undefined) this.#relist();
    this.#listed = true;
    return changes;
  }

  /**
   * Applies the changes since the last publication to `#nodes` and returns them; undefined
   * (nothing written) when a Context after the front gained or lost its node (the list is
   * then made afresh).
   */
  #changes(
    dirty: readonly Ordered<Node>[],
    merged: Merged<Node> | undefined,
    tail: Tail<Node> | undefined,
  ): Required<ListChanges> | undefined {
    // A page at the front and a changed end in one publication: listed afresh (rare).
    if (merged && tail) return undefined;
    const epoch = this.#epoch;
    const base = this.#base;
    const nodes = this.#nodes;
    const publication = this.#order.publication;
    let removed = 0;
    const added: Node[] = [];
    if (merged) {
      for (const context of merged.old) if (context.slotEpoch === epoch) removed++;
      for (const context of merged.prefix) if (context.node !== undefined) added.push(context.node);
    }
    // The end: the old nodes of the tail's Contexts must be the last of the list.
    let dropped = 0;
    const appended: Node[] = tail ? [] : NO_NODES;
    if (tail) {
      let first = Number.POSITIVE_INFINITY;
      for (const context of tail.old) {
        if (context.slotEpoch !== epoch) continue;
        dropped++;
        first = Math.min(first, context.slot - base);
      }
      if (dropped > 0 && first !== nodes.length - dropped) return undefined;
      for (const context of tail.contexts)
        if (context.node !== undefined) appended.push(context.node);
    }
    const at: number[] = [];
    const by: Node[] = [];
    for (const context of dirty) {
      if (context.front || context.tail === publication) continue;
      const had = context.slotEpoch === epoch;
      if (had !== (context.node !== undefined)) return undefined;
      if (had && nodes.at(context.slot - base) !== context.node) {
        at.push(context.slot - base);
        by.push(context.node as Node);
      }
    }
    const shift = added.length - removed;
    const array = this.#array;
    const replaced = at.map((i, k) => {
      nodes.set(i, by[k] as Node);
      if (array) array[i] = by[k] as Node;
      return i + shift;
    });
    if (merged) {
      nodes.replaceFront(removed, added);
      if (removed > 0 || added.length > 0) this.#array = undefined;
      const start = base - shift;
      let slot = start;
      for (const context of merged.prefix) {
        if (context.node === undefined) {
          context.slotEpoch = 0;
        } else {
          context.slot = slot++;
          context.slotEpoch = epoch;
        }
      }
      this.#base = start;
    }
    if (tail) {
      const kept = nodes.length - dropped;
      nodes.truncate(kept);
      for (const context of tail.old) if (context.slotEpoch === epoch) context.slotEpoch = 0;
      let slot = base + kept;
      for (const context of tail.contexts) {
        if (context.node === undefined) continue;
        nodes.push(context.node);
        context.slot = slot++;
        context.slotEpoch = epoch;
      }
      if (array) {
        array.length = kept;
        appendAll(array, appended);
      }
    }
    return {
      removed,
      added: added.length,
      dropped,
      appended: appended.length,
      replaced,
    };
  }

  /** Lists every ordered Context's node afresh (a new epoch of slots). */
  #relist(): void {
    const epoch = ++this.#epoch;
    const nodes: Node[] = [];
    const order = this.#order.contexts;
    if (DEV_MODE) assemblerProbe.listed += order.length;
    for (let i = 0; i < order.length; i++) {
      const context = order.at(i);
      if (context.node === undefined) continue;
      context.slot = nodes.length;
      context.slotEpoch = epoch;
      nodes.push(context.node);
    }
    this.#nodes = new FrontList(nodes.slice());
    this.#array = nodes;
    this.#base = 0;
  }
}

/** `#changes`'s nodes appended when nothing is (never written). */
const NO_NODES: never[] = [];
