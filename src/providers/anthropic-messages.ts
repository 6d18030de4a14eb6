import type { Observable } from 'rxjs';
import type { CallfoldEvent } from '../events/types.js';
import { type AdapterOptions, type AdapterRun, adapt } from './adapter-run.js';
import type { Ending } from './attempt.js';
import type { ProviderSource } from './provider-source.js';
import { errorMessage, ProviderStreamError } from './provider-stream-error.js';
import { field, isRecord } from './read-chunk.js';
import { isCut, stopReasonOf } from './stop-reason.js';

const provider = 'anthropic-messages';

/**
 * Translates an Anthropic Messages stream (`stream: true`) into CallfoldEvents: the
 * `RawMessageStreamEvent`s @anthropic-ai/sdk yields (`client.messages.create({ stream: true })`,
 * or `client.messages.stream()` iterated), or the raw SSE (`event: <type>` / `data: {event}`).
 *
 * - `message_start` names the message. `content_block_start` opens block `index`:
 *   `tool_use` (with its `id` and `name`, shown at once), `text` or `thinking`; other block
 *   types (redacted thinking, citations) are skipped. `content_block_delta` carries
 *   `input_json_delta.partial_json`, `text_delta.text` or `thinking_delta.thinking`;
 *   `content_block_stop` ends the block (a tool's text is its joined `partial_json`; with none,
 *   the block start's `input` when not empty, else `{}`).
 * - Server tools: a `server_tool_use` (or `mcp_tool_use`) block is a call with
 *   `executor: 'provider'` (name: the provider's, e.g. `web_search`, `code_execution`, or the
 *   MCP tool's own); its `tool/call` is recorded when its block stops. A result block (any
 *   `*_tool_result`: `web_search_tool_result`, `web_fetch_tool_result`,
 *   `code_execution_tool_result`, `tool_search_tool_result`, `mcp_tool_result`, …) records
 *   its `tool/result` at once, `output` being its `content` as given, `isError` when that
 *   content is an `*_error` (or `is_error` is true). A result in a later response (after
 *   `pause_turn`) finds its call through the session.
 * - `message_stop` ends the response normally with `message_delta.delta.stop_reason` as the
 *   message's `stopReason`; with `max_tokens` (or `refusal`) it is truncated: its last block,
 *   if a call, is marked `incomplete` and not dispatched. `ping` is ignored; `error` fails
 *   the stream (`ProviderStreamError`).
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
  return adapt(provider, source, options, (run) => anthropicFolder(run));
}

/**
 * Folds one Anthropic Messages stream's events into `run`. `finish` is called at
 * `message_stop`: by default it ends the run; an adapter whose source holds many messages
 * (`fromClaudeCode`'s `stream_event` lines) passes `run.finishAttempt` so the run goes on,
 * and its own name for the errors it fails with (`source`).
 */
export function anthropicFolder(
  run: AdapterRun,
  finish: (ending: Ending) => void = (ending) => run.finish(ending),
  source = provider,
): (chunk: unknown) => void {
  let stopReason: string | undefined;
  /** A tool's `input` from its block start, used only when no `partial_json` follows (some proxies send it whole). */
  const inputs = new Map<string, string>();
  /** The key of the last block index seen: most chunks continue the block before them. */
  let lastIndex: unknown;
  let lastKey = '';
  return (chunk) => {
    if (!isRecord(chunk)) return;
    const { type, index } = chunk;
    // Most chunks continue the arguments of the block before them: each field read once, the
    // checks of the general path below (docs/decisions/0011-sdk-stream-costs.md).
    if (type === 'content_block_delta' && typeof index === 'number' && index === lastIndex) {
      const { delta } = chunk;
      if (isRecord(delta) && delta.type === 'input_json_delta') {
        const fragment = delta.partial_json;
        if (fragment && inputs.size > 0) inputs.delete(lastKey);
        run.attempt().args(lastKey, fragment);
        return;
      }
    }
    if (typeof type !== 'string' || type === 'ping') return;
    if (type === 'error') {
      throw new ProviderStreamError(source, errorMessage(chunk.error, 'stream error'), {
        payload: chunk,
      });
    }
    const attempt = run.attempt();
    if (typeof index !== 'number' || index !== lastIndex) {
      lastIndex = index;
      lastKey = `${index}`;
    }
    const key = lastKey;
    switch (type) {
      case 'message_start': {
        const id = field(chunk, 'message')?.id;
        if (typeof id === 'string' && id !== '') attempt.messageId ??= id;
        break;
      }
      case 'content_block_start': {
        const block = field(chunk, 'content_block');
        const kind = block?.type;
        if (kind === 'tool_use' || kind === 'server_tool_use' || kind === 'mcp_tool_use') {
          attempt.tool(
            key,
            kind === 'tool_use'
              ? { id: block?.id, name: block?.name }
              : { id: block?.id, name: block?.name, executor: 'provider' },
          );
          if (!block) break;
          if (isRecord(block.input) && Object.keys(block.input).length > 0) {
            const input = run.json(block.input, 'tool_use input');
            if (input !== undefined) inputs.set(key, input);
          }
        } else if (typeof kind === 'string' && kind.endsWith('_tool_result') && block) {
          if (typeof block.tool_use_id === 'string' && block.tool_use_id !== '') {
            attempt.providerResult(block.tool_use_id, block.content, isErrorResult(block));
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
          if (delta.partial_json && inputs.size > 0) inputs.delete(key);
          attempt.args(key, delta.partial_json);
        } else if (delta?.type === 'text_delta') attempt.text(key, delta.text);
        else if (delta?.type === 'thinking_delta') attempt.text(key, delta.thinking, true);
        break;
      }
      case 'content_block_stop':
        attempt.end(key, inputs.get(key));
        break;
      case 'message_delta':
        stopReason = stopReasonOf(field(chunk, 'delta')?.stop_reason) ?? stopReason;
        break;
      case 'message_stop':
        finish(stopReason === undefined ? {} : { stopReason, truncated: isCut(stopReason) });
        break;
      default:
        break;
    }
  };
}

/** A server tool's result block reports an error: `is_error`, or content of an `*_error` type. */
function isErrorResult(block: Record<string, unknown>): boolean {
  if (block.is_error === true) return true;
  const content = block.content;
  return isRecord(content) && typeof content.type === 'string' && content.type.endsWith('_error');
}
