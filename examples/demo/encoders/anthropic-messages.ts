import type { ScriptAttempt } from '../session-script.js';
import {
  demoResponse,
  firstAt,
  hasCalls,
  providerResultOf,
  type ResponseConstants,
  sseMessage,
  stopReasonOf,
  type TimedChunk,
} from './timed-chunk.js';

/** The API's keep-alive event, as its SSE sends it (with the space after the colon). */
const PING = 'event: ping\ndata: {"type": "ping"}\n\n';

/**
 * A recorded response as the Anthropic Messages API streams it: `message_start`, one content
 * block after another (`content_block_start`, its deltas, `content_block_stop`: thinking,
 * text, tool_use with `input_json_delta`), then `message_delta` and `message_stop`. A cut
 * response stops before `message_stop`.
 *
 * - A `ping` follows the first `content_block_start`, where the API sends it (every recorded
 *   stream in shared/provider-recordings, e.g. the Anthropic SDK's `tool_use_response.txt`),
 *   byte for byte as it sends it (`data: {"type": "ping"}`), so a consumer that does not
 *   ignore it fails on these streams as it would on the API's.
 * - A call the provider ran (`executor: 'provider'`) is a `server_tool_use` block; its result
 *   is a `web_search_tool_result` block (the recorded output as its `content`) at the
 *   result's time, which takes the next block index.
 * - Anthropic has no free-form tools: a free-form call (`input: 'text'`) is sent as a JSON
 *   tool whose input is `{ "input": <text> }`, streamed as JSON text. Its row is the same
 *   (a patch tool reads its `input` field either way); its records carry the JSON text.
 * - A response its token limit cut ends with `stop_reason: 'max_tokens'`.
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
  let pinged = false;
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
  /** The open block is a free-form call, sent as `{"input": …}` JSON. */
  let free = false;
  /** Result blocks sent so far: each takes an index, so later blocks move up by one. */
  let results = 0;
  byBlock.forEach(({ event }, i) => {
    const at = slots[i] as number;
    const index = event.block + results;
    if (open !== index && event.type !== 'stream/block-end') {
      open = index;
      thinking = event.type === 'stream/text-delta' && event.reasoning === true;
      free = event.type === 'stream/tool-call-delta' && event.input === 'text';
      const block =
        event.type === 'stream/tool-call-delta'
          ? {
              type: event.executor === 'provider' ? 'server_tool_use' : 'tool_use',
              id: event.callId,
              name: event.name ?? '',
              input: {},
            }
          : event.reasoning
            ? { type: 'thinking', thinking: '', signature: '' }
            : { type: 'text', text: '' };
      send(at, 'content_block_start', { index, content_block: block });
      if (!pinged) out.push({ at, data: PING });
      pinged = true;
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
      case 'stream/tool-call-delta': {
        const text = free ? JSON.stringify(event.args).slice(1, -1) : event.args;
        const partial_json = free && event.name !== undefined ? `{"input":"${text}` : text;
        send(at, 'content_block_delta', {
          index,
          delta: { type: 'input_json_delta', partial_json },
        });
        break;
      }
      case 'stream/block-end': {
        if (thinking) {
          const signature = `sig_${attempt.attemptId}_${index}`;
          send(at, 'content_block_delta', { index, delta: { type: 'signature_delta', signature } });
        }
        if (free) {
          send(at, 'content_block_delta', {
            index,
            delta: { type: 'input_json_delta', partial_json: '"}' },
          });
        }
        send(at, 'content_block_stop', { index });
        open = undefined;
        const result = event.callId && providerResultOf(attempt, event.callId);
        if (result) {
          results += 1;
          const content_block = {
            type: 'web_search_tool_result',
            tool_use_id: event.callId,
            content: result.event.output,
          };
          send(result.at, 'content_block_start', { index: index + 1, content_block });
          send(result.at, 'content_block_stop', { index: index + 1 });
        }
        break;
      }
      default:
        event satisfies never;
    }
  });
  if (attempt.finished) {
    send(attempt.end, 'message_delta', {
      delta: {
        stop_reason:
          stopReasonOf(attempt) === 'length'
            ? 'max_tokens'
            : hasCalls(attempt)
              ? 'tool_use'
              : 'end_turn',
        stop_sequence: null,
      },
      usage: { output_tokens: attempt.stream.length },
    });
    send(attempt.end, 'message_stop', {});
  }
  return out;
}
