import { DEV_MODE } from '../internal/dev-mode.js';
import { FrontList } from '../internal/front-list.js';
import { compareMatches, type Match } from './match.js';
import { assemblerProbe } from './probe.js';

/**
 * What the order and the node listing (`ContextOrder`, `NodeListing`) read of a Context, and
 * the marks they keep on it. `Context` extends it; a test may extend it alone.
 */
export abstract class Ordered<Node> {
  /** Tie-break between two Contexts opened by one event: the Definition's place in the list. */
  abstract readonly rank: number;
  /** The Match that opened it; undefined while none has (or after it lost its Matches). */
  abstract readonly opened: Match | undefined;
  abstract readonly matches: readonly Match[];
  abstract readonly node: Node | undefined;
  /** In the order of open Contexts (see `ContextOrder`). */
  ordered = false;
  /** Opened (or moved) before everything ordered since the last publication. */
  front = false;
  /** Ordered, and its opening moved (or it lost it) since the last publication. */
  moved = false;
  /** The publication whose listed tail held it (`ContextOrder.tail`). */
  tail = 0;
  /** The publication before which it was put at the end of the order (`ContextOrder.opened`). */
  placed = -1;
  /** Its node's number in the list last composed, valid while `slotEpoch` is the listing's. */
  slot = 0;
  slotEpoch = 0;
}

/**
 * The end of the order listed afresh by a publication: `old`, the Contexts of that stretch at
 * the last publication, and `contexts`, those there now, in order.
 */
export interface Tail<Node> {
  readonly old: readonly Ordered<Node>[];
  readonly contexts: readonly Ordered<Node>[];
}

/**
 * What a publication put in order at the front: the Contexts now first, and the ordered ones
 * they replaced.
 */
export interface Merged<Node> {
  readonly prefix: readonly Ordered<Node>[];
  readonly old: readonly Ordered<Node>[];
}

/**
 * How far from the end of the order a Context whose opening moved is looked for (an attempt
 * settling moves its response and calls, the last Contexts opened); one farther away, or
 * moved before the Contexts in that stretch, makes the publication sort every Context.
 */
const TAIL_WINDOW = 64;

/**
 * The open Contexts in log order of their opening Match, then rank. Kept in order without
 * sorting as long as Contexts open at the live end (`opened`, appended) or before everything
 * published (an older history page: merged at the next publication), and repaired at the end
 * when the openings that moved are among the last `TAIL_WINDOW` (an attempt settling, a call
 * named after its first delta). Any other opening or move sorts every Context at the next
 * publication (`reorder`).
 *
 * Between two publications the folding side reports each change (`opened`, `reopened`,
 * `emptied`, `nodeChanged`); a publication calls `reorder()`, reads `merged` and `tail`, then
 * `settle()`.
 */
export class ContextOrder<Node> {
  /** Every Context that may be ordered, for a full sort. */
  readonly #all: () => Iterable<Ordered<Node>>;
  /** Open Contexts in order, while `#valid`, except those in `#front`. */
  #order = new FrontList<Ordered<Node>>();
  #valid = true;
  /** Contexts opened, or moved, before `#frontLimit` since the last publication. */
  #front: Ordered<Node>[] = [];
  /** The opening of the first Context ordered at the last publication. */
  #frontLimit: Match | undefined;
  /** Contexts of `#order` whose opening moved, or who lost it, since the last publication. */
  #moved: Ordered<Node>[] = [];
  /** `#order.length` at the last publication: Contexts after it were pushed since. */
  #orderedAtPublish = 0;
  /** Numbers publications (see `Ordered.tail`, `Ordered.placed`). */
  #publication = 0;
  /** Put in order at the front by the last `reorder()`, until `settle()`. */
  merged: Merged<Node> | undefined;
  /** The end listed afresh by the last `reorder()` (see `Tail`), until `settle()`. */
  tail: Tail<Node> | undefined;

  /** `all` lists every Context that has opened, for the rare full sort. */
  constructor(all: () => Iterable<Ordered<Node>>) {
    this.#all = all;
  }

  /** The number of the publication in progress (or the last one, outside `reorder`…`settle`). */
  get publication(): number {
    return this.#publication;
  }

  /** The Contexts in order (valid after `reorder()`). */
  get contexts(): { readonly length: number; at(index: number): Ordered<Node> } {
    return this.#order;
  }

  /** Whether the order changed since the last publication. */
  get changed(): boolean {
    return !this.#valid || this.#front.length > 0 || this.#moved.length > 0;
  }

  /** Keeps the order for a Context whose opening Match is new (it had none, or another). */
  opened(context: Ordered<Node>): void {
    if (!this.#valid) return;
    const opened = context.opened as Match;
    const limit = this.#frontLimit;
    if (limit !== undefined && compareMatches(opened, limit) < 0) {
      if (!context.front) {
        context.front = true;
        this.#front.push(context);
      }
      return;
    }
    if (context.ordered && !context.front) {
      this.#markMoved(context);
      return;
    }
    const last = this.#order.last();
    if (
      !context.ordered &&
      !context.front &&
      (last === undefined || (!last.front && (last.moved || compareOpened(last, context) < 0)))
    ) {
      context.ordered = true;
      context.placed = this.#publication;
      this.#order.push(context);
    } else {
      this.#valid = false;
    }
  }

  /** A Context replayed whose opening changed: it opens elsewhere, or no longer opens. */
  reopened(context: Ordered<Node>): void {
    if (context.opened !== undefined) this.opened(context);
    else if (context.ordered && !context.front) this.#markMoved(context);
    else this.#valid = false;
  }

  /** A Context left without Matches, dropped at this publication. */
  emptied(context: Ordered<Node>): void {
    if (context.ordered && !context.front) this.#markMoved(context);
    // One never placed (it never opened: a block end alone) leaves the order as it is.
    else if (context.ordered || context.front) this.#valid = false;
  }

  /**
   * A Context whose node appeared or went when it was built. Once the Context was listed (a
   * call named after its first delta, a response whose text follows its first call), it is
   * listed again from there by the tail repair, as a Context that moved. (One placed since
   * the last publication is in the appended tail already; with a page at the front too, the
   * list is made afresh: see `NodeListing`.)
   */
  nodeChanged(context: Ordered<Node>): void {
    if (
      context.ordered &&
      !context.front &&
      context.placed !== this.#publication &&
      this.#front.length === 0
    ) {
      this.#markMoved(context);
    }
  }

  /**
   * Puts the order right for a publication: repairs the tail or takes the Contexts appended
   * (`tail`), merges the front (`merged`); returns false when it sorted every Context instead
   * (`tail` and `merged` are then undefined).
   */
  reorder(): boolean {
    this.#publication++;
    this.merged = undefined;
    this.tail = undefined;
    if (this.#moved.length > 0 && this.#front.length > 0) this.#valid = false;
    if (this.#valid && this.#moved.length > 0) this.tail = this.#repairTail();
    else if (this.#valid) this.tail = this.#appendedTail();
    if (this.#moved.length > 0) {
      for (const context of this.#moved) context.moved = false;
      this.#moved = [];
    }
    if (!this.#valid) {
      this.tail = undefined;
      this.#sort();
      return false;
    }
    if (this.#front.length > 0) this.merged = this.#mergeFront();
    return true;
  }

  /** Ends the publication `reorder()` began. */
  settle(): void {
    const merged = this.merged;
    if (merged) for (const context of merged.prefix) context.front = false;
    this.merged = undefined;
    this.tail = undefined;
    this.#frontLimit = this.#order.length > 0 ? this.#order.at(0).opened : undefined;
    this.#orderedAtPublish = this.#order.length;
  }

  #markMoved(context: Ordered<Node>): void {
    if (context.moved) return;
    context.moved = true;
    this.#moved.push(context);
  }

  /**
   * Puts the Contexts of `#front` in order: sorted with the first ordered ones down to the
   * last that moved (usually a few), before the rest, which keeps its place.
   */
  #mergeFront(): Merged<Node> {
    const front = this.#front;
    this.#front = [];
    const order = this.#order;
    let moved = 0;
    for (const context of front) if (context.ordered) moved++;
    let removed = 0;
    while (moved > 0) if (order.at(removed++).front) moved--;
    const old: Ordered<Node>[] = [];
    for (let i = 0; i < removed; i++) old.push(order.at(i));
    const prefix = front;
    for (const context of old) {
      if (context.front) continue;
      context.front = true;
      prefix.push(context);
    }
    if (DEV_MODE) assemblerProbe.ordered += prefix.length;
    prefix.sort(compareOpened);
    for (const context of prefix) context.ordered = true;
    order.replaceFront(removed, prefix);
    return { prefix, old };
  }

  /**
   * The Contexts pushed since the last publication (usually none, or the few of a call or
   * response that started), as the tail to list at the end.
   */
  #appendedTail(): Tail<Node> | undefined {
    const order = this.#order;
    const from = this.#orderedAtPublish;
    if (from >= order.length) return undefined;
    const contexts: Ordered<Node>[] = [];
    for (let i = from; i < order.length; i++) {
      const context = order.at(i);
      context.tail = this.#publication;
      contexts.push(context);
    }
    return { old: [], contexts };
  }

  /**
   * Puts back in order the Contexts of `#moved`, when each is among the last `TAIL_WINDOW`
   * and stays after the Context before that stretch: the stretch from the first moved one to
   * the end is sorted (and those left without an opening leave it), and returned as the tail
   * to list at the end. Otherwise `#valid` is cleared (a full sort).
   */
  #repairTail(): Tail<Node> | undefined {
    const order = this.#order;
    const length = order.length;
    let pending = this.#moved.length;
    let from = length;
    for (let i = length - 1; i >= 0 && length - i <= TAIL_WINDOW && pending > 0; i--) {
      if (order.at(i).moved) {
        pending--;
        from = i;
      }
    }
    if (pending > 0) {
      this.#valid = false;
      return undefined;
    }
    from = Math.min(from, this.#orderedAtPublish);
    const old: Ordered<Node>[] = [];
    const contexts: Ordered<Node>[] = [];
    for (let i = from; i < length; i++) {
      const context = order.at(i);
      context.tail = this.#publication;
      if (i < this.#orderedAtPublish) old.push(context);
      if (context.opened === undefined || context.matches.length === 0) {
        context.ordered = false;
        continue;
      }
      contexts.push(context);
    }
    if (DEV_MODE) assemblerProbe.ordered += contexts.length;
    contexts.sort(compareOpened);
    const before = from > 0 ? order.at(from - 1) : undefined;
    const first = contexts[0];
    if (before !== undefined && first !== undefined && compareOpened(before, first) >= 0) {
      this.#valid = false;
      return undefined;
    }
    order.truncate(from);
    for (const context of contexts) order.push(context);
    return { old, contexts };
  }

  #sort(): void {
    for (const context of this.#front) context.front = false;
    this.#front = [];
    const order: Ordered<Node>[] = [];
    for (const context of this.#all()) {
      context.ordered = context.opened !== undefined;
      if (context.ordered) order.push(context);
    }
    if (DEV_MODE) assemblerProbe.ordered += order.length;
    order.sort(compareOpened);
    this.#order = new FrontList(order);
    this.#valid = true;
  }
}

function compareOpened<Node>(a: Ordered<Node>, b: Ordered<Node>): number {
  return compareMatches(a.opened as Match, b.opened as Match) || a.rank - b.rank;
}
