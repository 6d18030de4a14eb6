import type { Conversation } from '../../src/conversation/conversation.js';

/**
 * What a Conversation shows, as plain data: assistant texts and groups with their summary,
 * detail and tools (stage, arguments, result). Two folds that show the same thing give equal
 * summaries; `JSON.stringify` makes them comparable.
 */
export function conversationSummary(conversation: Conversation | undefined): unknown[] {
  return (conversation?.items ?? []).map((item) =>
    item.kind === 'assistant'
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
  a: Conversation | undefined,
  b: Conversation | undefined,
): boolean {
  return JSON.stringify(conversationSummary(a)) === JSON.stringify(conversationSummary(b));
}
