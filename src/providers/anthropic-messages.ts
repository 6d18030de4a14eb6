import type { Observable } from 'rxjs';
import type { CallfoldEvent } from '../events/types.js';
import { type AdapterOptions, type AdapterRun, adapt } from './adapter-run.js';
import type { ProviderSource } from './provider-source.js';
import { errorMessage, ProviderStreamError } from './provider-stream-error.js';
import { field, isRecord } from './read-chunk.js';

const provider = 'anthropic-messages';

/**
 * Translates an Anthropic Messages stream (`stream: true`) into CallfoldEvents: the
 * `RawMessageStreamEvent`s @anthropic-ai/sdk yields (`client.messages.create({ stream: true })`,
 * or `client.messages.stream()` iterated), or the raw SSE (`event: <type>` / `data: {event}`).
 *
 * - `message_start` names the message. `content_block_start` opens block `index`:
 *   `tool_use` (with its `id` and `name`, shown at once), `text` or `thinking`; other block
 *   types (server tools, redacted thinking) are skipped. `content_block_delta` carries
 *   `input_json_delta.partial_json`, `text_delta.text` or `thinking_delta.thinking`;
 *   `content_block_stop` ends the block (a tool's text is its joined `partial_json`; with none,
 *   the block start's `input` when not empty, else `{}`).
 * - `message_stop` ends the response normally; with `message_delta.delta.stop_reason`
 *   `max_tokens` it is truncated (its last block, if a call, is not dispatched). `ping` is
 *   ignored; `error` fails the stream (`ProviderStreamError`).
 *
 * Cut streams, errors and `dispatch` are as for every adapter: see `AdapterOptions`.
 *
 * @example
 * ```ts
 * const stream = await anthropic.messages.create({ model, max_tokens, messages, tools, stream: true });
 * fromAnthropicMessages(stream, { session }).pipe(assemble()).subscribe(render);
 * ```
 */
export function fromAnthropicMessages(
  source: ProviderSource,
  options: AdapterOptions = {},
): Observable<CallfoldEvent> {
  return adapt(provider, source, options, anthropicFolder);
}

function anthropicFolder(run: AdapterRun): (chunk: unknown) => void {
  let truncated = false;
  /** A tool's `input` from its block start, used only when no `partial_json` follows (some proxies send it whole). */
  const inputs = new Map<string, string>();
  return (chunk) => {
    if (!isRecord(chunk) || typeof chunk.type !== 'string' || chunk.type === 'ping') return;
    if (chunk.type === 'error') {
      throw new ProviderStreamError(provider, errorMessage(chunk.error, 'stream error'), {
        payload: chunk,
      });
    }
    const attempt = run.attempt();
    const key = `${chunk.index}`;
    switch (chunk.type) {
      case 'message_start': {
        const id = field(chunk, 'message')?.id;
        if (typeof id === 'string' && id !== '') attempt.messageId ??= id;
        break;
      }
      case 'content_block_start': {
        const block = field(chunk, 'content_block');
        if (block?.type === 'tool_use') {
          attempt.tool(key, { id: block.id, name: block.name });
          if (isRecord(block.input) && Object.keys(block.input).length > 0) {
            const input = run.json(block.input, 'tool_use input');
            if (input !== undefined) inputs.set(key, input);
          }
        } else if (block?.type === 'text') {
          attempt.open(key, 'text');
          attempt.text(key, block.text);
        } else if (block?.type === 'thinking') {
          attempt.open(key, 'reasoning');
          attempt.text(key, block.thinking, true);
        }
        break;
      }
      case 'content_block_delta': {
        const delta = field(chunk, 'delta');
        if (delta?.type === 'input_json_delta') {
          if (delta.partial_json) inputs.delete(key);
          attempt.tool(key, { args: delta.partial_json });
        } else if (delta?.type === 'text_delta') attempt.text(key, delta.text);
        else if (delta?.type === 'thinking_delta') attempt.text(key, delta.thinking, true);
        break;
      }
      case 'content_block_stop':
        attempt.end(key, inputs.get(key));
        break;
      case 'message_delta':
        if (field(chunk, 'delta')?.stop_reason === 'max_tokens') truncated = true;
        break;
      case 'message_stop':
        run.finish(truncated);
        break;
      default:
        break;
    }
  };
}
