import type { AssistantNode } from '../definitions/assistant-definition.js';
import type { ToolNode } from '../definitions/tool-definition.js';
import { DEV_MODE } from '../internal/dev-mode.js';
import { type ToolCategory, toolClassifier } from './categories.js';
import { toolDetail } from './detail.js';
import { groupProbe } from './probe.js';
import { type CategoryCount, englishSummary, type SummaryFormatter } from './summary.js';
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

function sameNodes<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
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
 */
export class Builder<Item extends KindedNode = AssistantNode> {
  /** The category of a tool name, with this Builder's extra names. */
  readonly categoryOf: (name: string) => ToolCategory;
  readonly #summary: SummaryFormatter;
  readonly #details = new WeakMap<ToolNode, string>();
  #groups = new Map<string, GroupNode>();
  #grouping: Grouping<Item> = Object.freeze({ items: Object.freeze([]), tools: ToolMap.of([]) });
  /** Of the last full build, while `replaced` hints can patch it: node index → item index. */
  #itemOf: Int32Array | null = null;
  /** Item index → index of its first node. */
  #firstOf: Int32Array | null = null;

  /** Throws a RangeError when `options.categories` maps a name to an unknown category. */
  constructor(options: BuilderOptions = {}) {
    this.categoryOf = toolClassifier(options.categories);
    this.#summary = options.summary ?? englishSummary;
  }

  /**
   * Groups `nodes` (log order). `replaced`, when given, says that `nodes` is the list of the
   * last call with only the nodes at those indexes replaced by other nodes of the same kind and
   * key: the Grouping is then patched in O(replaced + their groups' sizes + √tools) instead
   * of rebuilt. Without it (or when the patch does not apply) every node is visited. `nodes`
   * is only read during the call.
   */
  build(nodes: readonly (Item | ToolNode)[], replaced?: readonly number[]): Grouping<Item> {
    if (replaced !== undefined) {
      const patched = this.#patch(nodes, replaced);
      if (patched !== undefined) return patched;
    }
    if (DEV_MODE) groupProbe.composed += nodes.length;
    const itemOf = new Int32Array(nodes.length);
    const firstOf: number[] = [];
    let runStart = 0;
    const items: (Item | GroupNode)[] = [];
    const tools: ToolNode[] = [];
    const groups = new Map<string, GroupNode>();
    let run: ToolNode[] = [];
    const flush = () => {
      if (run.length === 0) return;
      firstOf.push(runStart);
      const group = this.#group(run);
      groups.set(group.id, group);
      items.push(group);
      run = [];
    };
    for (const [i, node] of nodes.entries()) {
      if (isTool(node)) {
        if (run.length === 0) runStart = i;
        run.push(node);
        tools.push(node);
        itemOf[i] = items.length;
      } else {
        flush();
        itemOf[i] = items.length;
        firstOf.push(i);
        items.push(node);
      }
    }
    flush();
    this.#groups = groups;
    this.#itemOf = itemOf;
    this.#firstOf = Int32Array.from(firstOf);
    const previous = this.#grouping;
    const sameItems = sameNodes(previous.items, items);
    const sameTools =
      previous.tools.size === tools.length &&
      tools.every((t) => previous.tools.get(t.callId) === t);
    if (sameItems && sameTools) return previous;
    this.#grouping = Object.freeze({
      items: sameItems ? previous.items : Object.freeze(items),
      tools: sameTools ? previous.tools : ToolMap.of(tools),
    });
    return this.#grouping;
  }

  /** The last Grouping with the nodes at `replaced` swapped in; undefined when that does not apply. */
  #patch(
    nodes: readonly (Item | ToolNode)[],
    replaced: readonly number[],
  ): Grouping<Item> | undefined {
    const itemOf = this.#itemOf;
    const firstOf = this.#firstOf;
    const previous = this.#grouping;
    if (!itemOf || !firstOf || itemOf.length !== nodes.length) return undefined;
    let items: (Item | GroupNode)[] | undefined;
    const changed: ToolNode[] = [];
    const groups = new Set<number>();
    for (const i of replaced) {
      const node = nodes[i] as Item | ToolNode;
      const at = itemOf[i] as number;
      const before = previous.items[at] as Item | GroupNode;
      if (DEV_MODE) groupProbe.composed++;
      if (isTool(node)) {
        if (before.kind !== 'group') return undefined;
        const group = before as GroupNode;
        const old = group.tools[i - (firstOf[at] as number)];
        if (old?.callId !== node.callId) return undefined;
        changed.push(node);
        groups.add(at);
      } else {
        if (before.kind === 'group') return undefined;
        (items ??= [...previous.items])[at] = node;
      }
    }
    for (const at of groups) {
      const first = firstOf[at] as number;
      const size = (previous.items[at] as GroupNode).tools.length;
      if (DEV_MODE) groupProbe.composed += size;
      const group = this.#group(nodes.slice(first, first + size) as ToolNode[]);
      this.#groups.set(group.id, group);
      if (group !== previous.items[at]) (items ??= [...previous.items])[at] = group;
    }
    const tools = changed.length > 0 ? (previous.tools as ToolMap).with(changed) : previous.tools;
    if (items === undefined && tools === previous.tools) return previous;
    this.#grouping = Object.freeze({
      items: items === undefined ? previous.items : Object.freeze(items),
      tools,
    });
    return this.#grouping;
  }

  #group(run: ToolNode[]): GroupNode {
    const id = (run[0] as ToolNode).callId;
    const previous = this.#groups.get(id);
    if (previous && sameNodes(previous.tools, run)) return previous;
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
        previous !== undefined && sameNodes(previous.categories, categories)
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

function isTool(node: KindedNode): node is ToolNode {
  return node.kind === 'tool';
}
