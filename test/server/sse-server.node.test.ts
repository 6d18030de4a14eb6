/**
 * The SSE codec between a real Node HTTP server and fetch: encodeSSEStream as a response
 * body through Readable.fromWeb, decodeSSE on the client, resumption with Last-Event-ID.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pipeline, Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { expect } from 'chai';
import { lastValueFrom, take, toArray } from 'rxjs';
import type { CallfoldEvent, SessionEvent } from '../../src/events/types.js';
import { decodeSSE, encodeSSEStream, parseLastEventId } from '../../src/wire/sse.js';

const log: SessionEvent[] = Array.from({ length: 6 }, (_, i) => ({
  type: 'tool/result',
  seq: i + 1,
  callId: `c${i + 1}`,
  output: `out ${'é😀'.repeat(i * 50)}`,
}));
const live: CallfoldEvent[] = [
  {
    type: 'stream/tool-call-delta',
    attemptId: 'a',
    block: 0,
    callId: 'x',
    name: 'Bash',
    args: '{',
  },
];

/** Serves the log after Last-Event-ID, then the live attempt, until the client leaves. */
async function serve(handler?: (request: IncomingMessage) => void) {
  const closed: number[] = [];
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    handler?.(request);
    const after = parseLastEventId(request.headers['last-event-id'] as string | undefined);
    const gone = once(response, 'close');
    async function* events() {
      try {
        for (const event of log) if (after === undefined || event.seq > after) yield event;
        yield* live;
        await gone; // a live session stays open until the client leaves
      } finally {
        closed.push(after ?? 0);
      }
    }
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    pipeline(Readable.fromWeb(encodeSSEStream(events()) as never), response, () => {});
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections(); // fetch keeps idle connections alive
    });
  return { url: `http://127.0.0.1:${port}/`, closed, close };
}

// Deno's node:http does not keep this loopback exchange alive; the codec itself is covered in
// test/wire/sse.test.ts in every runtime.
const skip = 'Deno' in globalThis ? 'needs a loopback node:http server (Node only)' : false;

describe('SSE over Node http', { skip }, () => {
  it('delivers every event, and resumes after the last event ID', async () => {
    const seen: (string | undefined)[] = [];
    const server = await serve((request) => {
      const header = request.headers['last-event-id'];
      seen.push(typeof header === 'string' ? header : undefined);
    });
    try {
      let lastEventId = '';
      const onEventId = (id: string) => (lastEventId = id);
      const first = await lastValueFrom(
        decodeSSE(fetch(server.url), { onEventId }).pipe(take(3), toArray()),
      );
      expect(first).to.deep.equal(log.slice(0, 3));
      expect(lastEventId).to.equal('3');

      const headers = { 'Last-Event-ID': lastEventId };
      const rest = await lastValueFrom(
        decodeSSE(fetch(server.url, { headers }), { onEventId }).pipe(take(4), toArray()),
      );
      expect(rest).to.deep.equal([...log.slice(3), ...live]);
      expect(lastEventId).to.equal('6');
      expect(seen).to.deep.equal([undefined, '3']);
      // Unsubscribing cancelled each body, and the server let go of each generator.
      for (let i = 0; i < 100 && server.closed.length < 2; i++) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(server.closed).to.deep.equal([0, 3]);
    } finally {
      await server.close();
    }
  });
});
