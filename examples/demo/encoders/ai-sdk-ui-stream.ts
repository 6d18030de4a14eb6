import type { ScriptAttempt } from '../session-script.js';
import {
  cutCallOf,
  firstAt,
  providerResultOf,
  sseMessage,
  stopReasonOf,
  type TimedChunk,
} from './timed-chunk.js';

/** The `approvalId` the encoder gives the approval request for call `callId`. */
export function approvalIdOf(callId: string): string {
  return `aprv_${callId}`;
}

/**
 * A recorded response as a Vercel AI SDK (v5) UI message stream sends it, one request per
 * model response: `start`, `start-step`, `reasoning-*` / `text-*` parts, `tool-input-start`,
 * `tool-input-delta` and `tool-input-available` (the parsed input), then `finish-step`,
 * `finish` and `data: [DONE]`. The tools are client-side (no `execute` on the server), so the
 * stream carries no tool output: the host records the results, as with the other providers.
 * Parallel calls keep their recorded interleaving. A cut response stops before `finish-step`.
 *
 * - A free-form call (`input: 'text'`) opens with `inputEncoding: 'text'`; its
 *   `tool-input-available` input is the text.
 * - A provider-run call (`executor: 'provider'`) has `providerExecuted: true` on its input
 *   chunks and its result as `tool-output-available` (also `providerExecuted`) at the
 *   result's time.
 * - An approval request for a call (`attempt.approvals`) is a `tool-approval-request` chunk
 *   (AI SDK 6) with `approvalId` `aprv_<callId>`, at the request's time, inside the step.
 * - A response its token limit cut sends no `tool-input-available` for the call it cut, and
 *   ends with `finish-step`, then `finish` with `finishReason: 'length'`.
 */
export function encodeAISDKUIStream(attempt: ScriptAttempt): TimedChunk[] {
  const out: TimedChunk[] = [];
  const send = (at: number, chunk: Record<string, unknown>) =>
    out.push({ at, data: sseMessage(chunk) });
  const start = firstAt(attempt);
  send(start, { type: 'start', messageId: attempt.messageId });
  send(start, { type: 'start-step' });
  /** The part each block opened: its id and kind. */
  const parts = new Map<
    number,
    { id: string; kind: 'text' | 'reasoning' | 'tool'; name: string; provider: boolean }
  >();
  const cut = cutCallOf(attempt);
  for (const { at, event } of attempt.stream) {
    let part = parts.get(event.block);
    if (!part && event.type !== 'stream/block-end') {
      if (event.type === 'stream/tool-call-delta') {
        const provider = event.executor === 'provider';
        part = { id: event.callId, kind: 'tool', name: event.name ?? '', provider };
        send(at, {
          type: 'tool-input-start',
          toolCallId: part.id,
          toolName: part.name,
          ...(event.input === 'text' ? { inputEncoding: 'text' } : {}),
          ...(provider ? { providerExecuted: true } : {}),
        });
      } else {
        const kind = event.reasoning ? 'reasoning' : 'text';
        part = { id: `${kind}-${event.block}`, kind, name: '', provider: false };
        send(at, { type: `${kind}-start`, id: part.id });
      }
      parts.set(event.block, part);
    }
    if (!part) continue;
    switch (event.type) {
      case 'stream/text-delta':
        send(at, { type: `${part.kind}-delta`, id: part.id, delta: event.text });
        break;
      case 'stream/tool-call-delta':
        if (event.args !== '') {
          send(at, { type: 'tool-input-delta', toolCallId: part.id, inputTextDelta: event.args });
        }
        break;
      case 'stream/block-end':
        if (part.kind === 'tool') {
          if (part.id === cut) break;
          send(at, {
            type: 'tool-input-available',
            toolCallId: part.id,
            toolName: part.name,
            input: event.input === 'text' ? event.text : JSON.parse(event.text),
            ...(part.provider ? { providerExecuted: true } : {}),
          });
          const result = providerResultOf(attempt, part.id);
          if (result) {
            send(result.at, {
              type: 'tool-output-available',
              toolCallId: part.id,
              output: result.event.output,
              providerExecuted: true,
            });
          }
        } else {
          send(at, { type: `${part.kind}-end`, id: part.id });
        }
        break;
      default:
        event satisfies never;
    }
  }
  for (const { at, event } of attempt.approvals ?? []) {
    send(at, {
      type: 'tool-approval-request',
      approvalId: approvalIdOf(event.callId),
      toolCallId: event.callId,
    });
  }
  if (attempt.finished) {
    send(attempt.end, { type: 'finish-step' });
    send(
      attempt.end,
      stopReasonOf(attempt) === 'length'
        ? { type: 'finish', finishReason: 'length' }
        : { type: 'finish' },
    );
    out.push({ at: attempt.end, data: 'data: [DONE]\n\n' });
  }
  return out;
}
