import type { ScriptAttempt } from '../session-script.js';
import {
  demoResponse,
  firstAt,
  hasCalls,
  type ResponseConstants,
  sseMessage,
  stopReasonOf,
  type TimedChunk,
} from './timed-chunk.js';

/**
 * A recorded response as OpenAI Chat Completions streams it: `data: {chat.completion.chunk}`
 * lines with `delta.content`, `delta.reasoning_content` (as DeepSeek and vLLM send reasoning)
 * and `delta.tool_calls` by `index` (id, type and name in an index's first chunk), then a
 * chunk with `finish_reason` and `data: [DONE]`. Parallel calls keep their recorded
 * interleaving, as compatible servers send it. A cut response stops before `finish_reason`.
 *
 * - A free-form call (`input: 'text'`) is a `type: 'custom'` tool call streaming
 *   `custom.input` (OpenAI's custom tools).
 * - Chat Completions has no calls the provider runs (its search models return citations, not
 *   calls): a provider-run call (`executor: 'provider'`) and its result are left out.
 * - A response its token limit cut ends with `finish_reason: 'length'`.
 */
export function encodeOpenAIChatCompletions(
  attempt: ScriptAttempt,
  constants: ResponseConstants = demoResponse,
): TimedChunk[] {
  const out: TimedChunk[] = [];
  const chunk = (at: number, delta: Record<string, unknown>, finish: string | null = null) =>
    out.push({
      at,
      data: sseMessage({
        id: attempt.messageId,
        object: 'chat.completion.chunk',
        created: constants.created,
        model: constants.model,
        choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
      }),
    });
  // A reasoning model's first chunk opens its reasoning (DeepSeek's and vLLM's shape); an
  // empty `content` there would open the text block first, and blocks number by first sight.
  const reasons = attempt.stream.some(
    ({ event }) => event.type === 'stream/text-delta' && event.reasoning === true,
  );
  chunk(
    firstAt(attempt),
    reasons
      ? { role: 'assistant', content: null, reasoning_content: '' }
      : { role: 'assistant', content: '' },
  );
  const indexes = new Map<number, number>();
  for (const { at, event } of attempt.stream) {
    switch (event.type) {
      case 'stream/text-delta':
        chunk(at, event.reasoning ? { reasoning_content: event.text } : { content: event.text });
        break;
      case 'stream/tool-call-delta': {
        if (event.executor === 'provider') break;
        const custom = event.input === 'text';
        let index = indexes.get(event.block);
        if (index === undefined) {
          index = indexes.size;
          indexes.set(event.block, index);
          const name = event.name ?? '';
          const call = custom
            ? { index, id: event.callId, type: 'custom', custom: { name, input: event.args } }
            : {
                index,
                id: event.callId,
                type: 'function',
                function: { name, arguments: event.args },
              };
          chunk(at, { tool_calls: [call] });
        } else if (custom) {
          chunk(at, { tool_calls: [{ index, custom: { input: event.args } }] });
        } else {
          chunk(at, { tool_calls: [{ index, function: { arguments: event.args } }] });
        }
        break;
      }
      case 'stream/block-end':
        break;
      default:
        event satisfies never;
    }
  }
  if (attempt.finished) {
    const finish =
      stopReasonOf(attempt) === 'length' ? 'length' : hasCalls(attempt) ? 'tool_calls' : 'stop';
    chunk(attempt.end, {}, finish);
    out.push({ at: attempt.end, data: 'data: [DONE]\n\n' });
  }
  return out;
}
