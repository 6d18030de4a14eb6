import { encodeSSE } from '../events/sse.js';
import type { CallfoldEvent } from '../events/types.js';
import { isBatchedFollow } from './session-store.js';

export interface FollowerStreamOptions {
  readonly heartbeatMs: number;
  readonly maxBufferBytes: number;
}

const utf8 = new TextEncoder();
/** Each event is encoded once, whatever the number of followers it goes to. */
const encoded = new WeakMap<CallfoldEvent, Uint8Array>();
const ping = utf8.encode(': ping\n\n');

function encode(event: CallfoldEvent): Uint8Array {
  let bytes = encoded.get(event);
  if (!bytes) {
    bytes = utf8.encode(encodeSSE(event));
    encoded.set(event, bytes);
  }
  return bytes;
}

function concat(chunks: readonly Uint8Array[], length: number): Uint8Array {
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  const joined = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    joined.set(chunk, at);
    at += chunk.byteLength;
  }
  return joined;
}

/**
 * One follower's SSE body. Whatever the store has ready is encoded into the pending bytes;
 * each read takes all of them as one chunk. The stream has no queue of its own (high-water
 * mark 0): bytes wait in `pending` until the connection asks for more, so a slow
 * connection is seen as pending bytes growing. Past `maxBufferBytes` the follow stops and
 * the stream closes after the pending bytes: the client resumes with `Last-Event-ID`.
 * A comment line (`: ping`) goes out after `heartbeatMs` without a write.
 */
export function followerStream(
  follow: AsyncIterable<CallfoldEvent>,
  options: FollowerStreamOptions,
): ReadableStream<Uint8Array> {
  const batches = isBatchedFollow(follow)
    ? follow.batches()
    : (async function* () {
        for await (const event of follow) yield [event];
      })();
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  let ending = false;
  let failed: unknown;
  let waiting: (() => void) | undefined;
  let heartbeat: ReturnType<typeof setTimeout> | undefined;
  let wrote = false;

  const wake = () => {
    const resolve = waiting;
    waiting = undefined;
    resolve?.();
  };
  const add = (bytes: Uint8Array) => {
    pending.push(bytes);
    pendingBytes += bytes.byteLength;
    wrote = true;
  };
  const stop = () => {
    ending = true;
    clearTimeout(heartbeat);
    void batches.return?.();
    wake();
  };
  const beat = () => {
    heartbeat = setTimeout(() => {
      if (ending) return;
      if (!wrote) {
        add(ping);
        wake();
      }
      wrote = false;
      beat();
    }, options.heartbeatMs);
  };

  const pump = async () => {
    try {
      for (;;) {
        const next = await batches.next();
        if (next.done || ending) break;
        for (const event of next.value) add(encode(event));
        wake();
        if (pendingBytes > options.maxBufferBytes) break;
      }
    } catch (error) {
      failed = error;
    }
    stop();
  };

  return new ReadableStream<Uint8Array>(
    {
      start() {
        beat();
        void pump();
      },
      async pull(controller) {
        while (pending.length === 0 && !ending) {
          await new Promise<void>((resolve) => {
            waiting = resolve;
          });
        }
        if (pending.length > 0) {
          const chunk = concat(pending, pendingBytes);
          pending = [];
          pendingBytes = 0;
          controller.enqueue(chunk);
          return;
        }
        // A store failure ends the response like an overflow: the client reconnects.
        if (failed !== undefined) console.warn('callfold: follow failed', failed);
        controller.close();
      },
      cancel() {
        stop();
        pending = [];
      },
    },
    { highWaterMark: 0 },
  );
}
