/** Events and lookups shared by the group tests: a session driven through the real Assembler. */
import { Assembler } from '../../src/conversation/assembler.js';
import type { Conversation } from '../../src/conversation/conversation.js';
import type { AssistantNode } from '../../src/definitions/assistant-definition.js';
import type { ToolNode } from '../../src/definitions/tool-definition.js';
import type { CallfoldEvent } from '../../src/events/types.js';
import type { GroupNode } from '../../src/groups/builder.js';

import { groups as groupsOf, toolDelta } from '../assembler/support/events.js';

// The event builders are the Assembler tests' own, under the names these tests read best with.
export {
  call as toolCall,
  result as toolResult,
  textDelta,
} from '../assembler/support/events.js';
export { groupsOf, toolDelta };

/**
 * One streamed tool call: `parts` are its argument fragments, the first delta carrying the
 * name. Each call gets its own block of attempt `attemptId`.
 */
export function streamedCall(
  attemptId: string,
  block: number,
  callId: string,
  name: string,
  parts: readonly string[],
): CallfoldEvent[] {
  const [first = '', ...rest] = parts;
  return [
    toolDelta(attemptId, block, callId, first, name),
    ...rest.map((part) => toolDelta(attemptId, block, callId, part)),
  ];
}

/** The only group of a publication; fails when there is not exactly one. */
export function onlyGroup(conversation: Conversation): GroupNode {
  const groups = groupsOf(conversation);
  if (groups.length !== 1) throw new Error(`expected one group, found ${groups.length}`);
  return groups[0] as GroupNode;
}

/** The kinds and ids of the items, e.g. `['group:c1', 'assistant:a2']`. */
export function shape(conversation: Conversation): string[] {
  return conversation.items.map((item: AssistantNode | GroupNode) => `${item.kind}:${item.id}`);
}

export function callIds(group: GroupNode): string[] {
  return group.tools.map((tool: ToolNode) => tool.callId);
}

/** A fresh Assembler with a fixed clock. */
export function assembler(): Assembler {
  return new Assembler({ now: () => 0 });
}

/** `text` cut into pieces of `size` units (the last may be shorter). */
export function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}
