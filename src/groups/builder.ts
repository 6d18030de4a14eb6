import type { AssistantNode } from '../definitions/assistant-definition.js';
import type { ToolNode } from '../definitions/tool-definition.js';
import { appendAll } from '../internal/append-all.js';
import { DEV_MODE } from '../internal/dev-mode.js';
import { FrontList } from '../internal/front-list.js';
import type { ListChanges, ReadList } from '../internal/list-changes.js';
import { sameElements } from '../internal/same-elements.js';
import { type ToolCategory, toolClassifier } from '../tools/categories.js';
import { toolDetail } from '../tools/detail.js';
import { groupProbe } from '../tools/probe.js';
import { type CategoryCount, englishSummary, type SummaryFormatter } from '../tools/summary.js';
import { ChunkedItems, ItemsSnapshot } from './chunked-items.js';
import type { Kept } from './kept-ends.js';
import { ToolMap } from './tool-map.js';

/** A maximal run of consecutive tool nodes, counted by category. Frozen. */
export interface GroupNode {
  readonly kind: 'group';
  /** The callId of the run's first tool: stable while the run grows. */
  readonly id: string;
  readonly tools: readonly ToolNode[];
  /**
   * The category of each tool, index for index with `tools`, as this group's Builder
   * classified it (`BuilderOptions.categories` included): the categories `counts` counts.
   * The elements show each row under this category, so a row and its group header agree
   * (docs/decisions/0006-one-table-of-tool-names-and-argument-fields.md).
   */
  readonly categories: readonly ToolCategory[];
  /** In first-seen order. */
  readonly counts: readonly CategoryCount[];
  /** E.g. "Read 3 files · Ran 2 commands" (`BuilderOptions.summary`). */
  readonly summary: string;
  /** One line about the latest tool (`toolDetail`). */
  readonly detail: string;
}

/**
 * What the Builder makes of nodes in log order: the other nodes and tool groups in that
 * order, and every tool by callId. Frozen. (`Conversation` is the Grouping of the default
 * composition, whose other nodes are assistant responses.)
 */
export interface Grouping<Item> {
  readonly items: readonly (Item | GroupNode)[];
  readonly tools: ReadonlyMap<string, ToolNode>;
}

/** A node the Builder can place: a tool node (`kind: 'tool'`) or any other kind of node. */
export interface KindedNode {
  readonly kind: string;
}

export interface BuilderOptions {
  /**
   * More tool names and their categories, e.g. `{ deploy_app: 'bash' }`. Keys match like the
   * built-in names (case, `_`, `-` and spaces ignored) and win over them.
   */
  readonly categories?: Readonly<Record<string, ToolCategory>>;
  /** The group header from its counts; default `englishSummary`. Called only when counts change. */
  readonly summary?: SummaryFormatter;
}

function sameCounts(a: readonly CategoryCount[], b: readonly CategoryCount[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as CategoryCount;
    const y = b[i] as CategoryCount;
    if (x.category !== y.category || x.count !== y.count) return false;
  }
  return true;
}

/** Whether `map` holds exactly `tools`, in that order (a map in another order is not the same). */
function sameEntries(map: ReadonlyMap<string, ToolNode>, tools: readonly ToolNode[]): boolean {
  if (map.size !== tools.length) return false;
  let i = 0;
  for (const [callId, tool] of map) {
    const other = tools[i++];
    if (other !== tool || other.callId !== callId) return false;
  }
  return true;
}

export type { ListChanges } from '../internal/list-changes.js';

/**
 * Groups the published nodes, in log order, into a Grouping (in the default composition, the
 * Conversation). `Item` is the type of the nodes other than tools (default: assistant nodes).
 *
 * 1. A group is a maximal run of consecutive tool nodes, whatever their stage (from
 *    preparation on); any other node (an assistant response, a custom Definition's node)
 *    is an item of its own and ends a run. The Builder reads node kinds, tool names and, for
 *    the detail, the latest tool's arguments; never stages.
 * 2. Structure is shared: a group whose tools are the same objects is the same group object;
 *    counts and summary are reused while the counts are equal; the Grouping, its `items`
 *    and its `tools` map are reused when nothing in them changed.
 * 3. A group's detail is computed only for a latest tool node not seen before. A tool node is
 *    replaced exactly when an argument answer someone read changed, and the detail reads
 *    through the same reader, so a kept node keeps its detail.
 * 4. Told what changed (`ListChanges`), the Builder regroups only the nodes added at the
 *    front (with the rest of the group they join), those appended at the end (with the
 *    group they continue) and the groups of the replaced nodes; the
 *    items array and its index are copied, never revisited node by node.
 * 5. Each new `items` array records the ends it kept of the previous one (`keptEnds`), so a
 *    view finds the changed stretch in O(1).
 */
export class Builder<Item extends KindedNode = AssistantNode> {
  /** The category of a tool name, with this Builder's extra names. */
  readonly categoryOf: (name: string) => ToolCategory;
  readonly #summary: SummaryFormatter;
  readonly #details = new WeakMap<ToolNode, string>();
  #groups = new Map<string, GroupNode>();
  /** The items of `#grouping`. */
  #snapshot: ItemsSnapshot<Item | GroupNode> = ItemsSnapshot.of([], []);
  #grouping: Grouping<Item> = grouping(this.#snapshot, ToolMap.of([]));
  /**
   * Of the last call, while changes can patch it: the items (chunked, so that a publication
   * shares all but the chunks it changed), node index → item number, and item index → node
   * number. Numbers, not indexes: index = number − base, so that nodes and items added at
   * the front take numbers below the base and nothing after them is renumbered. All three
   * are changed in place, and grow at the front without moving what they hold: a long
   * session's lists are large, and costly to copy or move per publication.
   */
  #items = new ChunkedItems<Item | GroupNode>();
  #itemOf: FrontList<number> | null = null;
  #itemBase = 0;
  #firstOf: FrontList<number> | null = null;
  #nodeBase = 0;
  /** Tool nodes of the last call: `tools.size` unless callIds repeat (then no front patch). */
  #toolCount = 0;
  /** The items a patch in progress changed, as indexes of the new items: `[from, to)`. */
  #changedFrom = Number.POSITIVE_INFINITY;
  #changedTo = 0;

  /** Throws a RangeError when `options.categories` maps a name to an unknown category. */
  constructor(options: BuilderOptions = {}) {
    this.categoryOf = toolClassifier(options.categories);
    this.#summary = options.summary ?? englishSummary;
  }

  /**
   * Groups `nodes` (log order). `changes`, when given, says how `nodes` differs from the list
   * of the last call (see `ListChanges`): the Grouping is then patched in O(added + appended +
   * replaced + their groups' sizes + log tools + items / 256) instead of rebuilt. Without it (or when
   * the patch does not apply) every node is visited. `nodes` is only read during the call,
   * through `length` and `at()` (an array, or the NodeAssembler's own list: see
   * `NodeAssemblerListOptions`).
   */
  build(nodes: ReadList<Item | ToolNode>, changes?: ListChanges): Grouping<Item> {
    if (changes !== undefined) {
      const patched = this.#patch(nodes, changes);
      if (patched !== undefined) return patched;
    }
    if (DEV_MODE) groupProbe.composed += nodes.length;
    const { items, tools, itemOf, firstOf } = this.#regroup(nodes, 0, nodes.length, 0);
    const groups = new Map<string, GroupNode>();
    for (const item of items)
      if (item.kind === 'group') groups.set((item as GroupNode).id, item as GroupNode);
    this.#groups = groups;
    this.#items = new ChunkedItems(items);
    this.#itemOf = new FrontList(itemOf);
    this.#itemBase = 0;
    this.#firstOf = new FrontList(firstOf);
    this.#nodeBase = 0;
    this.#toolCount = tools.length;
    const previous = this.#grouping;
    const { prefix, suffix } = keptOf(this.#snapshot, items);
    const sameItems = prefix === items.length && prefix === this.#snapshot.length;
    const sameTools = sameEntries(previous.tools, tools);
    if (sameItems && sameTools) return previous;
    if (!sameItems) this.#snapshot = ItemsSnapshot.of(items, this.#kept(prefix, suffix));
    this.#grouping = grouping(this.#snapshot, sameTools ? previous.tools : ToolMap.of(tools));
    return this.#grouping;
  }

  /**
   * Groups `nodes[start, end)`: the items, the tools, each node's item index and each item's
   * first node index (plus `itemBase` and 0: numbers as `#itemOf` and `#firstOf` hold them).
   */
  #regroup(
    nodes: ReadList<Item | ToolNode>,
    start: number,
    end: number,
    itemBase: number,
  ): { items: (Item | GroupNode)[]; tools: ToolNode[]; itemOf: number[]; firstOf: number[] } {
    const itemOf: number[] = new Array(end - start);
    const firstOf: number[] = [];
    const items: (Item | GroupNode)[] = [];
    const tools: ToolNode[] = [];
    let run: ToolNode[] = [];
    let runStart = 0;
    const flush = () => {
      if (run.length === 0) return;
      firstOf.push(runStart);
      items.push(this.#group(run));
      run = [];
    };
    for (let i = start; i < end; i++) {
      const node = nodes.at(i) as Item | ToolNode;
      if (isTool(node)) {
        if (run.length === 0) runStart = i;
        run.push(node);
        tools.push(node);
        itemOf[i - start] = itemBase + items.length;
      } else {
        flush();
        itemOf[i - start] = itemBase + items.length;
        firstOf.push(i);
        items.push(node);
      }
    }
    flush();
    return { items, tools, itemOf, firstOf };
  }

  /**
   * The last Grouping with `changes` applied, in their three steps (`#patchFront`,
   * `#patchTail`, `#patchReplaced`); undefined when they do not apply (the state is then
   * rebuilt by a full build).
   */
  #patch(nodes: ReadList<Item | ToolNode>, changes: ListChanges): Grouping<Item> | undefined {
    const { removed, added, replaced } = changes;
    const dropped = changes.dropped ?? 0;
    const appended = changes.appended ?? 0;
    const last = this.#itemOf?.length ?? -1;
    if (
      !this.#itemOf ||
      !this.#firstOf ||
      removed + dropped > last ||
      nodes.length !== last - removed + added - dropped + appended
    ) {
      return undefined;
    }
    if ((removed > 0 || added > 0) && (dropped > 0 || appended > 0)) return undefined;
    const previous = this.#grouping;
    this.#changedFrom = Number.POSITIVE_INFINITY;
    this.#changedTo = 0;
    let tools = previous.tools as ToolMap;
    // The nodes regrouped at the front, and the first node of the end regrouped.
    let front = 0;
    let end = nodes.length;
    let changed: ToolNode[] = [];
    if (removed > 0 || added > 0) {
      const patched = this.#patchFront(nodes, removed, added);
      if (patched === undefined) return undefined;
      front = patched.front;
      tools = patched.tools;
    }
    if (dropped > 0 || appended > 0) {
      const tail = this.#patchTail(nodes, dropped);
      if (tail === undefined) return undefined;
      tools = tail.tools;
      changed = tail.changed;
      end = tail.node;
      if (tail.changedItems) this.#changedItems(tail.item, this.#items.length);
    }
    if (!this.#patchReplaced(nodes, replaced, front, end, changed)) return undefined;
    tools = tools.with(changed);
    const from = this.#changedFrom;
    if (from === Number.POSITIVE_INFINITY && tools === previous.tools) return previous;
    if (from !== Number.POSITIVE_INFINITY) {
      const mirror = this.#items;
      this.#snapshot = mirror.snapshot(this.#kept(from, mirror.length - this.#changedTo));
    }
    this.#grouping = grouping(this.#snapshot, tools);
    return this.#grouping;
  }

  /** Records that the items `[from, to)` (indexes of the new items) changed. */
  #changedItems(from: number, to: number): void {
    this.#changedFrom = Math.min(this.#changedFrom, from);
    this.#changedTo = Math.max(this.#changedTo, to);
  }

  /**
   * Applies the front of `ListChanges` (the first `removed` nodes replaced by the first
   * `added`): regroups the nodes added and the rest of the old group they may join, whose
   * old items are replaced by the front's. Returns how many nodes it regrouped and the tools
   * map with the front's tools; undefined when the patch does not apply.
   */
  #patchFront(
    nodes: ReadList<Item | ToolNode>,
    removed: number,
    added: number,
  ): { front: number; tools: ToolMap } | undefined {
    const itemOf = this.#itemOf as FrontList<number>;
    const firstOf = this.#firstOf as FrontList<number>;
    const mirror = this.#items;
    const previous = this.#grouping.tools as ToolMap;
    // The old items before `kept` are replaced by the front's items.
    let kept: number;
    let front = added;
    if (removed === itemOf.length) {
      kept = mirror.length;
    } else {
      kept = itemOf.at(removed) - this.#itemBase;
      const item = mirror.at(kept);
      if (item.kind === 'group') {
        const first = firstOf.at(kept) - this.#nodeBase;
        front += first + (item as GroupNode).tools.length - removed;
        kept++;
      }
    }
    if (front === 0 && kept === 0) return { front, tools: previous };
    if (this.#toolCount !== previous.size) return undefined;
    if (DEV_MODE) groupProbe.composed += front;
    const region = this.#regroup(nodes, 0, front, 0);
    const replacedTools: ToolNode[] = [];
    for (let k = 0; k < kept; k++) {
      const item = mirror.at(k);
      if (item.kind === 'group') appendAll(replacedTools, (item as GroupNode).tools);
    }
    const oldTools = replacedTools.length;
    // A page of other nodes alone (a response, a turn) regroups the first tools as they
    // were: the map stays the same object.
    let tools: ToolMap | undefined = previous;
    if (!sameElements(replacedTools, region.tools)) {
      tools = previous.prepended(oldTools, region.tools);
      if (tools === undefined) return undefined;
    }
    for (let k = 0; k < kept; k++) {
      const item = mirror.at(k);
      if (item.kind === 'group') this.#groups.delete((item as GroupNode).id);
    }
    for (const item of region.items) {
      if (item.kind === 'group') this.#groups.set((item as GroupNode).id, item as GroupNode);
    }
    const nodeBase = this.#nodeBase - (added - removed);
    this.#itemBase += kept - region.items.length;
    const itemBase = this.#itemBase;
    const regionItemOf = region.itemOf.map((item) => item + itemBase);
    const regionFirstOf = region.firstOf.map((node) => node + nodeBase);
    mirror.replaceFront(kept, region.items);
    itemOf.replaceFront(front - (added - removed), regionItemOf);
    firstOf.replaceFront(kept, regionFirstOf);
    this.#nodeBase = nodeBase;
    this.#toolCount += region.tools.length - oldTools;
    this.#changedItems(0, region.items.length);
    return { front, tools };
  }

  /**
   * Applies the replaced indexes of `ListChanges` between the front and the end already
   * regrouped (`[front, end)`): an item that is not a tool takes its place; a tool is added
   * to `changed` (for the tools map) and its group is made again. False when the patch does
   * not apply (a node of another kind or callId at that place).
   */
  #patchReplaced(
    nodes: ReadList<Item | ToolNode>,
    replaced: readonly number[],
    front: number,
    end: number,
    changed: ToolNode[],
  ): boolean {
    const itemOf = this.#itemOf as FrontList<number>;
    const firstOf = this.#firstOf as FrontList<number>;
    const mirror = this.#items;
    const itemBase = this.#itemBase;
    const nodeBase = this.#nodeBase;
    const groups = new Set<number>();
    for (const i of replaced) {
      if (i < front || i >= end) continue;
      const node = nodes.at(i) as Item | ToolNode;
      const at = itemOf.at(i) - itemBase;
      const before = mirror.at(at);
      if (DEV_MODE) groupProbe.composed++;
      if (isTool(node)) {
        if (before.kind !== 'group') return false;
        const group = before as GroupNode;
        const old = group.tools[i - (firstOf.at(at) - nodeBase)];
        if (old?.callId !== node.callId) return false;
        changed.push(node);
        groups.add(at);
      } else {
        if (before.kind === 'group') return false;
        mirror.set(at, node);
        this.#changedItems(at, at + 1);
      }
    }
    for (const at of groups) {
      const first = firstOf.at(at) - nodeBase;
      const before = mirror.at(at) as GroupNode;
      const size = before.tools.length;
      if (DEV_MODE) groupProbe.composed += size;
      const run: ToolNode[] = [];
      for (let k = first; k < first + size; k++) run.push(nodes.at(k) as ToolNode);
      const group = this.#group(run);
      this.#groups.set(group.id, group);
      if (group !== before) {
        mirror.set(at, group);
        this.#changedItems(at, at + 1);
      }
    }
    return true;
  }

  /**
   * Applies the end of `ListChanges` (the last `dropped` nodes replaced by the last
   * `appended`) to the Builder's state: regroups from the first node of the last item kept
   * when it is a group (a run the appended tools may continue), else from the first appended
   * node. Returns the tools map with the stretch's tools (those with a callId kept at the same
   * place are `changed`, for `with()`; the rest removed and appended), the first node and
   * item of the stretch, and whether an item changed; undefined when the patch does not apply.
   */
  #patchTail(
    nodes: ReadList<Item | ToolNode>,
    dropped: number,
  ):
    | { tools: ToolMap; changed: ToolNode[]; node: number; item: number; changedItems: boolean }
    | undefined {
    const itemOf = this.#itemOf as FrontList<number>;
    const firstOf = this.#firstOf as FrontList<number>;
    const mirror = this.#items;
    const previous = this.#grouping.tools as ToolMap;
    if (this.#toolCount !== previous.size) return undefined;
    const kept = itemOf.length - dropped;
    // The first node and item of the stretch to regroup.
    let node = kept;
    let item = kept > 0 ? itemOf.at(kept - 1) - this.#itemBase + 1 : 0;
    if (kept > 0 && mirror.at(item - 1).kind === 'group') {
      item--;
      node = firstOf.at(item) - this.#nodeBase;
    }
    const end = nodes.length;
    if (DEV_MODE) groupProbe.composed += end - node;
    const region = this.#regroup(nodes, node, end, this.#itemBase + item);
    // The old stretch's tools: those whose callIds keep their places are replaced in the
    // map (`with`), the rest removed and the new ones appended.
    const oldTools: ToolNode[] = [];
    for (let k = item; k < mirror.length; k++) {
      const old = mirror.at(k);
      if (old.kind === 'group') appendAll(oldTools, (old as GroupNode).tools);
    }
    let same = 0;
    const limit = Math.min(oldTools.length, region.tools.length);
    while (same < limit && oldTools[same]?.callId === region.tools[same]?.callId) same++;
    const changed: ToolNode[] = [];
    for (let k = 0; k < same; k++) {
      const tool = region.tools[k] as ToolNode;
      if (tool !== oldTools[k]) changed.push(tool);
    }
    const tools = previous.appended(oldTools.length - same, region.tools.slice(same));
    if (tools === undefined) return undefined;
    // Items kept at the start of the stretch (the group the appended nodes did not join).
    let from = 0;
    while (
      from < region.items.length &&
      item + from < mirror.length &&
      region.items[from] === mirror.at(item + from)
    ) {
      from++;
    }
    const changedItems = from < region.items.length || item + region.items.length !== mirror.length;
    for (let k = item; k < mirror.length; k++) {
      const old = mirror.at(k);
      if (old.kind === 'group') this.#groups.delete((old as GroupNode).id);
    }
    for (const group of region.items) {
      if (group.kind === 'group') this.#groups.set((group as GroupNode).id, group as GroupNode);
    }
    mirror.replaceBack(mirror.length - item, region.items);
    itemOf.truncate(node);
    for (const n of region.itemOf) itemOf.push(n);
    firstOf.truncate(item);
    for (const n of region.firstOf) firstOf.push(n + this.#nodeBase);
    this.#toolCount += region.tools.length - oldTools.length;
    return { tools, changed, node, item: item + from, changedItems };
  }

  /**
   * What new items keep of the last published ones, which kept the first `prefix` and last
   * `suffix`, for `keptEnds`: those ends, and when nobody read the last items, the ends kept
   * of the last items read before them (so a view that skips publications still learns them).
   */
  #kept(prefix: number, suffix: number): Kept[] {
    const previous = this.#snapshot;
    const kept: Kept[] = [{ base: previous.serial, prefix, suffix }];
    const since = previous.kept[previous.kept.length - 1];
    if (!previous.read && since !== undefined) {
      kept.push({
        base: since.base,
        prefix: Math.min(prefix, since.prefix),
        suffix: Math.min(suffix, since.suffix),
      });
    }
    return kept;
  }

  #group(run: ToolNode[]): GroupNode {
    const id = (run[0] as ToolNode).callId;
    const previous = this.#groups.get(id);
    if (previous && sameElements(previous.tools, run)) return previous;
    const tally: { category: ToolCategory; count: number }[] = [];
    const categories: ToolCategory[] = [];
    for (const tool of run) {
      const category = this.categoryOf(tool.name);
      categories.push(category);
      const entry = tally.find((c) => c.category === category);
      if (entry) entry.count++;
      else tally.push({ category, count: 1 });
    }
    const same = previous !== undefined && sameCounts(previous.counts, tally);
    const counts = same ? previous.counts : Object.freeze(tally.map((c) => Object.freeze(c)));
    return Object.freeze({
      kind: 'group',
      id,
      tools: Object.freeze(run),
      categories:
        previous !== undefined && sameElements(previous.categories, categories)
          ? previous.categories
          : Object.freeze(categories),
      counts,
      summary: same ? previous.summary : this.#summary(counts),
      detail: this.#detail(run[run.length - 1] as ToolNode),
    });
  }

  #detail(tool: ToolNode): string {
    let detail = this.#details.get(tool);
    if (detail === undefined) {
      detail = toolDetail(tool, this.categoryOf(tool.name));
      this.#details.set(tool, detail);
    }
    return detail;
  }
}

/**
 * A Grouping whose `items` array, unless made already, is made on first read
 * (`ItemsSnapshot.array`): a publication nobody reads costs what changed, not a copy of
 * every item.
 */
function grouping<Item>(
  snapshot: ItemsSnapshot<Item | GroupNode>,
  tools: ReadonlyMap<string, ToolNode>,
): Grouping<Item> {
  const items = snapshot.made;
  if (items) return Object.freeze({ items, tools });
  return Object.freeze({
    get items() {
      return snapshot.array();
    },
    tools,
  });
}

/** The ends `items` keeps of `previous` (identity, not overlapping), as `commonEnds`. */
function keptOf<T>(previous: ItemsSnapshot<T>, items: readonly T[]): Kept {
  const shorter = Math.min(previous.length, items.length);
  let prefix = 0;
  while (prefix < shorter && previous.at(prefix) === items[prefix]) prefix++;
  let suffix = 0;
  while (
    suffix < shorter - prefix &&
    previous.at(previous.length - 1 - suffix) === items[items.length - 1 - suffix]
  ) {
    suffix++;
  }
  return { base: previous.serial, prefix, suffix };
}

function isTool(node: KindedNode): node is ToolNode {
  return node.kind === 'tool';
}
