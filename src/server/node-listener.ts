import { type ByteSink, directBody, type FollowerBody } from './follower-stream.js';
import type { HostRequest, HostResponse, WebResponse } from './web.js';

/** The part of `node:http`'s IncomingMessage the adapter reads. */
export interface NodeRequestLike {
  readonly method?: string | undefined;
  readonly url?: string | undefined;
  readonly headers: Record<string, string | string[] | undefined>;
}

/** The part of `node:http`'s ServerResponse the adapter drives. */
export interface NodeResponseLike {
  writeHead(status: number, headers: Record<string, string>): unknown;
  /** Sends the head now: an event stream's client learns it is connected before any event. */
  flushHeaders(): void;
  /** `false` when the socket's buffer is full: wait for `drain`. */
  write(chunk: Uint8Array): boolean;
  end(): unknown;
  once(event: 'drain' | 'close', listener: () => void): unknown;
  off(event: 'drain' | 'close', listener: () => void): unknown;
  readonly destroyed: boolean;
}

interface Globals {
  Request: new (url: string, init: { method: string; headers: [string, string][] }) => unknown;
  URL: new (url: string, base?: string) => { readonly href: string };
}

const host = globalThis as unknown as Globals;

/**
 * Serves a Fetch API handler (`sessionHandler`'s) from `node:http`: the request becomes a
 * `Request` (no body: the session handler reads none); the response body is copied with
 * backpressure — the next chunk is read only after `res.write` accepted the last one or the
 * socket drained, so a slow client leaves bytes waiting in the handler, which bounds them
 * (`maxBufferBytes`). A follower's event stream is taken directly (`directBody`): each chunk
 * goes to `res.write` when the store's fan-out hands it out, with the same backpressure and
 * no stream read per chunk. When the connection closes, the response body is cancelled
 * (which ends the follow in the store). The `Request` has no abort signal of its own: following one costs
 * ~2.3 KiB per connection, a third of what an idle follower held (`npm run bench:server`).
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * import { memoryStore, sessionHandler, toNodeListener } from 'callfold/server';
 * const handler = sessionHandler(memoryStore(), { sessionId, authorize });
 * createServer(toNodeListener(handler)).listen(8080);
 * ```
 */
export function toNodeListener(
  handler: (request: HostRequest) => Promise<HostResponse>,
): (req: NodeRequestLike, res: NodeResponseLike) => void {
  return (req, res) => {
    void serve(handler, req, res).catch((error: unknown) => {
      console.error('callfold: request failed', error);
      if (!res.destroyed) {
        try {
          res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
        } catch {}
        res.end();
      }
    });
  };
}

async function serve(
  handler: (request: HostRequest) => Promise<HostResponse>,
  req: NodeRequestLike,
  res: NodeResponseLike,
): Promise<void> {
  let closed = false;
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  let stopDirect: (() => void) | undefined;
  const onClose = () => {
    closed = true;
    stopDirect?.();
    // An idle follower's read is pending: cancelling resolves it and ends the follow.
    void reader?.cancel().catch(() => {});
  };
  res.once('close', onClose);
  const headers: [string, string][] = [];
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name.startsWith(':')) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.push([name, one]);
  }
  let request: unknown;
  try {
    const origin = `http://${String(req.headers.host ?? 'localhost')}`;
    request = new host.Request(new host.URL(req.url ?? '/', origin).href, {
      method: req.method ?? 'GET',
      headers,
    });
  } catch {
    res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' });
    res.end();
    return;
  }
  const response = (await handler(request as HostRequest)) as unknown as WebResponse & {
    headers: { forEach(callback: (value: string, name: string) => void): void };
  };
  const out: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    out[name] = value;
  });
  res.writeHead(response.status, out);
  const body = response.body;
  if (!body) {
    res.end();
    return;
  }
  if (closed) {
    await body.cancel().catch(() => {});
    return;
  }
  res.flushHeaders();
  const direct = (body as FollowerBody)[directBody];
  if (direct && !body.locked) {
    // A follower's body: its chunks are written as they are ready, no stream read each.
    const sink: ByteSink = {
      write: (chunk) => res.write(chunk),
      onDrain: (callback) => {
        const done = () => {
          res.off('drain', done);
          res.off('close', done);
          callback();
        };
        res.once('drain', done);
        res.once('close', done);
      },
      end: () => {
        res.off('close', onClose);
        res.end();
      },
    };
    stopDirect = direct(sink);
    return;
  }
  const bodyReader = body.getReader();
  reader = bodyReader;
  try {
    while (!closed) {
      const next = await bodyReader.read();
      if (next.done) break;
      if (!res.write(next.value) && !closed) {
        await new Promise<void>((resolve) => {
          const done = () => {
            res.off('drain', done);
            res.off('close', done);
            resolve();
          };
          res.once('drain', done);
          res.once('close', done);
        });
      }
    }
  } finally {
    if (closed) await bodyReader.cancel().catch(() => {});
    else res.end();
    res.off('close', onClose);
  }
}
