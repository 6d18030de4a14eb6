import type { AssistantNode } from '../definitions/assistant-definition.js';
import type { ToolNode } from '../definitions/tool-definition.js';
import { categoryOf, type ToolCategory } from './categories.js';

/** A maximal run of consecutive tool nodes, counted by category. Frozen. */
export interface GroupNode {
  readonly kind: 'group';
  /** The callId of the run's first tool: stable while the run grows. */
  readonly id: string;
  readonly tools: readonly ToolNode[];
  /** In first-seen order. */
  readonly counts: readonly { readonly category: ToolCategory; readonly count: number }[];
  /** E.g. "Read 3 files · Ran 2 commands". */
  readonly summary: string;
  /** One line about the latest tool. */
  readonly detail: string;
}

/** What a publication shows: assistant responses and tool groups in log order, and every tool by callId. */
export interface Conversation {
  readonly items: readonly (AssistantNode | GroupNode)[];
  readonly tools: ReadonlyMap<string, ToolNode>;
}

function sameNodes<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Builds the Conversation from the published nodes in log order. A group is a maximal run of
 * consecutive tool nodes; any assistant node (published only with text or reasoning) ends a
 * run. The Builder looks at node kinds and tool names, never at stages. Structure is shared:
 * a group whose tools are the same objects is the same group object, and the Conversation,
 * its `items` and its `tools` map are reused when nothing in them changed.
 */
export class Builder {
  #groups = new Map<string, GroupNode>();
  #conversation: Conversation = Object.freeze({ items: Object.freeze([]), tools: new Map() });

  build(nodes: readonly (AssistantNode | ToolNode)[]): Conversation {
    const items: (AssistantNode | GroupNode)[] = [];
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
      if (node.kind === 'tool') {
        run.push(node);
        tools.push(node);
      } else {
        flush();
        items.push(node);
      }
    }
    flush();
    this.#groups = groups;
    const previous = this.#conversation;
    const sameItems = sameNodes(previous.items, items);
    const sameTools =
      previous.tools.size === tools.length &&
      tools.every((t) => previous.tools.get(t.callId) === t);
    if (sameItems && sameTools) return previous;
    this.#conversation = Object.freeze({
      items: sameItems ? previous.items : Object.freeze(items),
      tools: sameTools ? previous.tools : new Map(tools.map((t) => [t.callId, t])),
    });
    return this.#conversation;
  }

  #group(run: ToolNode[]): GroupNode {
    const id = (run[0] as ToolNode).callId;
    const previous = this.#groups.get(id);
    if (previous && sameNodes(previous.tools, run)) return previous;
    const counts: { category: ToolCategory; count: number }[] = [];
    for (const tool of run) {
      const category = categoryOf(tool.name);
      const entry = counts.find((c) => c.category === category);
      if (entry) entry.count++;
      else counts.push({ category, count: 1 });
    }
    return Object.freeze({
      kind: 'group',
      id,
      tools: Object.freeze(run),
      counts: Object.freeze(counts.map((c) => Object.freeze(c))),
      summary: `${run.length} tool ${run.length === 1 ? 'call' : 'calls'}`,
      detail: '',
    });
  }
}
