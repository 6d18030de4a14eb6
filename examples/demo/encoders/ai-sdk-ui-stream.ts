import type { ScriptAttempt } from '../session-script.js';
import { firstAt, sseMessage, type TimedChunk } from './timed-chunk.js';

/**
 * A recorded response as a Vercel AI SDK (v5) UI message stream sends it, one request per
 * model response: `start`, `start-step`, `reasoning-*` / `text-*` parts, `tool-input-start`,
 * `tool-input-delta` and `tool-input-available` (the parsed input), then `finish-step`,
 * `finish` and `data: [DONE]`. The tools are client-side (no `execute` on the server), so the
 * stream carries no tool output: the host records the results, as with the other providers.
 * Parallel calls keep their recorded interleaving. A cut response stops before `finish-step`.
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
    { id: string; kind: 'text' | 'reasoning' | 'tool'; name: string }
  >();
  for (const { at, event } of attempt.stream) {
    let part = parts.get(event.block);
    if (!part && event.type !== 'stream/block-end') {
      if (event.type === 'stream/tool-call-delta') {
        part = { id: event.callId, kind: 'tool', name: event.name ?? '' };
        send(at, { type: 'tool-input-start', toolCallId: part.id, toolName: part.name });
      } else {
        const kind = event.reasoning ? 'reasoning' : 'text';
        part = { id: `${kind}-${event.block}`, kind, name: '' };
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
          send(at, {
            type: 'tool-input-available',
            toolCallId: part.id,
            toolName: part.name,
            input: JSON.parse(event.text),
          });
        } else {
          send(at, { type: `${part.kind}-end`, id: part.id });
        }
        break;
      default:
        event satisfies never;
    }
  }
  if (attempt.finished) {
    send(attempt.end, { type: 'finish-step' });
    send(attempt.end, { type: 'finish' });
    out.push({ at: attempt.end, data: 'data: [DONE]\n\n' });
  }
  return out;
}
