import type { Observable } from 'rxjs';
import type { CallfoldEvent } from '../events/types.js';
import { type AdapterOptions, type AdapterRun, adapt, warnMalformed } from './adapter-run.js';
import { eventStreamSource } from './event-stream-source.js';
import type { ProviderSource } from './provider-source.js';
import { errorMessage, ProviderStreamError } from './provider-stream-error.js';
import { isRecord } from './read-chunk.js';
import { isCut, stopReasonOf } from './stop-reason.js';

const provider = 'bedrock-converse';

/**
 * Translates an Amazon Bedrock `ConverseStream` response into CallfoldEvents: the `stream`
 * of `@aws-sdk/client-bedrock-runtime`'s `ConverseStreamCommand` output (an async iterable
 * of `{ messageStart | contentBlockStart | contentBlockDelta | contentBlockStop |
 * messageStop | metadata }` objects), or the raw `application/vnd.amazon.eventstream` body
 * (a `Response` or a `ReadableStream` of bytes, decoded by callfold's own bounded frame
 * reader, with its checksums checked: see `EventStreamDecoder`).
 *
 * 1. Blocks are keyed by `contentBlockIndex` and numbered in order of first appearance:
 *    `contentBlockStart.start.toolUse { toolUseId, name }` opens a call (shown at once);
 *    `contentBlockDelta.delta` carries `toolUse.input` (argument text pieces), `text`, or
 *    `reasoningContent.text` (a reasoning block); `contentBlockStop` ends the block (a call
 *    with no input gets `{}`). A text block needs no start (Bedrock often sends none).
 * 2. Provider-run tools (Nova's code interpreter): a `toolUse` with `type: 'server_tool_use'`
 *    is a call with `executor: 'provider'`, recorded when its block stops; a `toolResult`
 *    block (`start.toolResult { toolUseId, status }`, its content streamed as
 *    `delta.toolResult` arrays) is that call's `tool/result` when it stops: the content
 *    joined, an error when `status` is `error`.
 * 3. `messageStop` ends the response normally with its `stopReason` (`tool_use`, `end_turn`,
 *    …); `max_tokens` and `model_context_window_exceeded` (`length`), `guardrail_intervened`
 *    and `content_filtered` (`content-filter`) truncate it: its last block, if a call, is
 *    `incomplete` and not dispatched. `metadata` is ignored.
 * 4. An exception in the stream (`internalServerException`, `modelStreamErrorException`,
 *    `throttlingException`, `validationException`, `serviceUnavailableException`: any
 *    member whose name ends in `Exception`) fails the stream with a `ProviderStreamError`;
 *    the SDK's iterator throws its own error instead, passed on unchanged.
 *
 * Cut streams, errors and `dispatch` are as for every adapter: see `AdapterOptions`.
 *
 * @example
 * ```ts
 * const { stream } = await bedrock.send(new ConverseStreamCommand({ modelId, messages, toolConfig }));
 * if (stream) fromBedrockConverse(stream, { session }).pipe(assemble()).subscribe(render);
 * ```
 */
export function fromBedrockConverse(
  source: ProviderSource,
  options: AdapterOptions = {},
): Observable<CallfoldEvent> {
  const events = eventStreamSource(source, provider, options.onMalformed ?? warnMalformed);
  return adapt(provider, events, options, bedrockFolder);
}

function bedrockFolder(run: AdapterRun): (chunk: unknown) => void {
  /** Result blocks: the call they answer, their status, their content so far. */
  const results = new Map<string, { id: string; error: boolean; content: unknown[] }>();
  let lastIndex: unknown;
  let lastKey = '';
  const keyOf = (index: unknown): string => {
    if (index !== lastIndex) {
      lastIndex = index;
      lastKey = `${typeof index === 'number' ? index : 0}`;
    }
    return lastKey;
  };

  return (chunk) => {
    if (!isRecord(chunk)) return;
    const { contentBlockDelta } = chunk;
    if (isRecord(contentBlockDelta)) {
      const key = keyOf(contentBlockDelta.contentBlockIndex);
      const delta = contentBlockDelta.delta;
      if (!isRecord(delta)) return;
      const attempt = run.attempt();
      const { toolUse, text } = delta;
      if (isRecord(toolUse)) attempt.args(key, toolUse.input);
      else if (typeof text === 'string') {
        // An empty first piece opens no block (Kimi K2 sends one before its text).
        if (text !== '') attempt.text(key, text);
      } else if (isRecord(delta.reasoningContent)) {
        attempt.text(key, delta.reasoningContent.text, true);
      } else if (Array.isArray(delta.toolResult)) {
        results.get(key)?.content.push(...delta.toolResult.slice(0, 1024));
      }
      return;
    }
    for (const member in chunk) {
      if (member.endsWith('Exception')) {
        throw new ProviderStreamError(provider, errorMessage(chunk[member], member), {
          payload: chunk,
        });
      }
    }
    const { contentBlockStart, contentBlockStop, messageStop } = chunk;
    if (isRecord(contentBlockStart)) {
      const attempt = run.attempt();
      const key = keyOf(contentBlockStart.contentBlockIndex);
      const start = contentBlockStart.start;
      if (!isRecord(start)) return;
      const { toolUse, toolResult } = start;
      if (isRecord(toolUse)) {
        attempt.tool(
          key,
          toolUse.type === 'server_tool_use'
            ? { id: toolUse.toolUseId, name: toolUse.name, executor: 'provider' }
            : { id: toolUse.toolUseId, name: toolUse.name },
        );
      } else if (isRecord(toolResult) && typeof toolResult.toolUseId === 'string') {
        results.set(key, {
          id: toolResult.toolUseId,
          error: toolResult.status === 'error',
          content: [],
        });
      }
    } else if (isRecord(contentBlockStop)) {
      const attempt = run.attempt();
      const key = keyOf(contentBlockStop.contentBlockIndex);
      const result = results.get(key);
      if (result) {
        results.delete(key);
        attempt.providerResult(result.id, result.content, result.error);
      } else {
        attempt.end(key);
      }
    } else if (isRecord(messageStop)) {
      run.attempt();
      const stopReason = stopReasonOf(messageStop.stopReason);
      run.finish(stopReason === undefined ? {} : { stopReason, truncated: isCut(stopReason) });
    } else if (isRecord(chunk.messageStart)) {
      run.attempt();
    }
  };
}
