import type { StreamEvent } from '../../src/events/types.js';
import { encodeSSE } from '../../src/wire/sse.js';

/**
 * `npm run bench:server`'s stream: the deltas of one `write` call, 16 characters of its
 * JSON arguments each (a model's escaped file content). The server worker produces them,
 * the bench process knows the bytes every follower must read (`sseOffsets`).
 */
export function writeDeltas(count: number, attemptId: string): StreamEvent[] {
  const line = 'export const greeting = "hello, world";\n';
  const text = JSON.stringify({
    file_path: 'src/big.ts',
    content: line.repeat(Math.ceil((count * 16) / line.length)),
  });
  return Array.from({ length: count }, (_, k) => ({
    type: 'stream/tool-call-delta',
    attemptId,
    block: 0,
    callId: `${attemptId}:0`,
    ...(k === 0 ? { name: 'write' } : {}),
    args: text.slice(k * 16, k * 16 + 16),
  }));
}

/**
 * The SSE body a follower reads for `events` (each `encodeSSE`d, in order), and the byte
 * offset at which each event's message ends: a reader knows which message a chunk
 * completes by counting bytes, without parsing the messages.
 */
export function sseOffsets(events: readonly StreamEvent[]): { body: Buffer; ends: Float64Array } {
  const parts = events.map((event) => Buffer.from(encodeSSE(event)));
  const ends = new Float64Array(parts.length);
  let at = 0;
  for (const [k, part] of parts.entries()) {
    at += part.length;
    ends[k] = at;
  }
  return { body: Buffer.concat(parts), ends };
}
