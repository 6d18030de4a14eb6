import type { Conversation } from '../../src/conversation/conversation.js';
import type { TurnNode } from '../../src/definitions/turn-definition.js';

/**
 * What a Conversation shows, as plain data: turns with their prompt, assistant texts and groups with their summary,
 * detail and tools (stage, arguments, result). Two folds that show the same thing give equal
 * summaries; `JSON.stringify` makes them comparable.
 */
export function conversationSummary(conversation: Conversation<TurnNode> | undefined): unknown[] {
  return (conversation?.items ?? []).map((item) =>
    item.kind === 'turn'
      ? { turn: item.id, stage: item.stage, prompt: item.prompt }
      : item.kind === 'assistant'
        ? { assistant: item.id, stage: item.stage, text: item.text, reasoning: item.reasoning }
        : {
            group: item.id,
            summary: item.summary,
            detail: item.detail,
            tools: item.tools.map((tool) => ({
              callId: tool.callId,
              name: tool.name,
              stage: tool.stage,
              argsRaw: tool.argsRaw,
              result: tool.result,
            })),
          },
  );
}

/** Whether two folds show the same thing. */
export function sameConversation(
  a: Conversation<TurnNode> | undefined,
  b: Conversation<TurnNode> | undefined,
): boolean {
  return JSON.stringify(conversationSummary(a)) === JSON.stringify(conversationSummary(b));
}
