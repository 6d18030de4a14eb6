import type { ScriptAttempt } from '../session-script.js';
import {
  demoResponse,
  firstAt,
  hasCalls,
  type ResponseConstants,
  sseMessage,
  type TimedChunk,
} from './timed-chunk.js';

/**
 * A recorded response as the Anthropic Messages API streams it: `message_start`, one content
 * block after another (`content_block_start`, its deltas, `content_block_stop`: thinking,
 * text, tool_use with `input_json_delta`), then `message_delta` and `message_stop`. A cut
 * response stops before `message_stop`.
 *
 * Anthropic never interleaves blocks, so calls recorded in parallel are sent one after the
 * other: the events keep their time slots and are reordered by block.
 */
export function encodeAnthropicMessages(
  attempt: ScriptAttempt,
  constants: ResponseConstants = demoResponse,
): TimedChunk[] {
  const out: TimedChunk[] = [];
  const send = (at: number, type: string, fields: Record<string, unknown>) =>
    out.push({ at, data: sseMessage({ type, ...fields }, type) });
  send(firstAt(attempt), 'message_start', {
    message: {
      id: attempt.messageId,
      type: 'message',
      role: 'assistant',
      model: constants.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 1200, output_tokens: 1 },
    },
  });
  const slots = attempt.stream.map(({ at }) => at);
  const byBlock = [...attempt.stream].sort((a, b) => a.event.block - b.event.block);
  let open: number | undefined;
  let thinking = false;
  byBlock.forEach(({ event }, i) => {
    const at = slots[i] as number;
    const index = event.block;
    if (open !== index && event.type !== 'stream/block-end') {
      open = index;
      thinking = event.type === 'stream/text-delta' && event.reasoning === true;
      const block =
        event.type === 'stream/tool-call-delta'
          ? { type: 'tool_use', id: event.callId, name: event.name ?? '', input: {} }
          : event.reasoning
            ? { type: 'thinking', thinking: '', signature: '' }
            : { type: 'text', text: '' };
      send(at, 'content_block_start', { index, content_block: block });
    }
    switch (event.type) {
      case 'stream/text-delta':
        send(at, 'content_block_delta', {
          index,
          delta: event.reasoning
            ? { type: 'thinking_delta', thinking: event.text }
            : { type: 'text_delta', text: event.text },
        });
        break;
      case 'stream/tool-call-delta':
        send(at, 'content_block_delta', {
          index,
          delta: { type: 'input_json_delta', partial_json: event.args },
        });
        break;
      case 'stream/block-end':
        if (thinking) {
          const signature = `sig_${attempt.attemptId}_${index}`;
          send(at, 'content_block_delta', { index, delta: { type: 'signature_delta', signature } });
        }
        send(at, 'content_block_stop', { index });
        open = undefined;
        break;
      default:
        event satisfies never;
    }
  });
  if (attempt.finished) {
    send(attempt.end, 'message_delta', {
      delta: { stop_reason: hasCalls(attempt) ? 'tool_use' : 'end_turn', stop_sequence: null },
      usage: { output_tokens: attempt.stream.length },
    });
    send(attempt.end, 'message_stop', {});
  }
  return out;
}
