import type { AssistantNode } from '../definitions/assistant-definition.js';
import type { ToolNode } from '../definitions/tool-definition.js';
import { type ToolCategory, toolClassifier } from './categories.js';
import { toolDetail } from './detail.js';
import { type CategoryCount, englishSummary, type SummaryFormatter } from './summary.js';

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
  #grouping: Grouping<Item> = Object.freeze({ items: Object.freeze([]), tools: new Map() });

  /** Throws a RangeError when `options.categories` maps a name to an unknown category. */
  constructor(options: BuilderOptions = {}) {
    this.categoryOf = toolClassifier(options.categories);
    this.#summary = options.summary ?? englishSummary;
  }

  build(nodes: readonly (Item | ToolNode)[]): Grouping<Item> {
    const items: (Item | GroupNode)[] = [];
    const tools: ToolNode[] = [];
    const groups = new Map<string, GroupNode>();
    let run: ToolNode[] = [];
    const flush = () => {
      if (run.length === 0) return;
      const group = this.#group(run);
      groups.set(group.id, group);
      items.push(group);
      run = [];
    };
    for (const node of nodes) {
      if (isTool(node)) {
        run.push(node);
        tools.push(node);
      } else {
        flush();
        items.push(node);
      }
    }
    flush();
    this.#groups = groups;
    const previous = this.#grouping;
    const sameItems = sameNodes(previous.items, items);
    const sameTools =
      previous.tools.size === tools.length &&
      tools.every((t) => previous.tools.get(t.callId) === t);
    if (sameItems && sameTools) return previous;
    this.#grouping = Object.freeze({
      items: sameItems ? previous.items : Object.freeze(items),
      tools: sameTools ? previous.tools : new Map(tools.map((t) => [t.callId, t])),
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
