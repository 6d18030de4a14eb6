/**
 * The server over real HTTP: node:http + toNodeListener + sessionHandler + memoryStore, read
 * by followSession and loadHistory through Node's fetch.
 */
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { describe, it } from 'node:test';
import { expect } from 'chai';
import { followSession } from '../../src/client/follow-session.js';
import { loadHistory } from '../../src/client/load-history.js';
import { type CallfoldEvent, isDurableEvent, type SessionEvent } from '../../src/events/types.js';
import type { AssemblerCommand } from '../../src/rx/assembler-command.js';
import { memoryStore } from '../../src/server/memory-store.js';
import { project } from '../assembler/support/driver.js';
import { prng } from '../support/prng.js';
import { demoEvents, follower, produce, uninterrupted } from './support/session-fold.js';
import { serveSessions } from './support/session-server.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(condition: () => boolean, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

describe('sessions over HTTP', () => {
  it('followers cut at random points of the session converge on the uninterrupted fold, no durable event lost or repeated', async () => {
    const store = memoryStore();
    const http = await serveSessions(store);
    const random = prng(16);
    const events = demoEvents();
    const lastSeq = events.filter(isDurableEvent).length;
    const followers = Array.from({ length: 3 }, () => follower());
    const subscriptions = followers.map((f) =>
      followSession(`${http.base}demo`, { retryMs: 10, maxRetryMs: 50 }).subscribe({
        next: (input) => f.take(input),
        error: (error: unknown) => {
          throw error;
        },
      }),
    );
    // Cut by the producer's progress, never by the clock: at drops.length random points of
    // the session, once every follower holds a connection (its latest reconnect command
    // arrived), every connection is destroyed. Each follower is cut drops.length times on any
    // machine, wherever its reading stands, the ~0.5 MB write message included.
    const drops = new Set<number>();
    while (drops.size < 4) drops.add(1 + Math.floor(random() * (events.length - 2)));
    let dropped = 0;
    const connected = () => followers.every((f) => f.reconnects === dropped + 1);
    try {
      await produce(store, 'demo', events, async (index) => {
        if (drops.has(index)) {
          await waitFor(connected, 15_000, 'every follower connected');
          http.drop();
          dropped++;
        } else if (index % 20 === 0) await sleep(1);
      });
      for (const f of followers) {
        await waitFor(
          () => f.durable.at(-1) === lastSeq,
          15_000,
          `the last durable event (got ${f.durable.join()})`,
        );
        expect(f.durable, 'each durable event once, in order').to.deep.equal(
          Array.from({ length: lastSeq }, (_, i) => i + 1),
        );
        expect(f.reconnects, 'a connection per cut, and the first').to.equal(drops.size + 1);
        expect(project(f.assembler.publish())).to.deep.equal(await uninterrupted(store, 'demo'));
      }
    } finally {
      for (const subscription of subscriptions) subscription.unsubscribe();
      await http.close();
      await store.close();
    }
  });

  it('loadHistory pages back to the start, and followSession continues after the newest page', async () => {
    const store = memoryStore();
    const http = await serveSessions(store, { maxPageLimit: 7 });
    try {
      const result = (i: number) => ({ type: 'tool/result' as const, callId: `c${i}`, output: i });
      await store.append(
        's',
        Array.from({ length: 30 }, (_, i) => result(i)),
      );
      const url = `${http.base}s`;
      const pages: (readonly SessionEvent[])[] = [];
      let before: number | undefined;
      for (;;) {
        const page: readonly SessionEvent[] = await loadHistory(
          url,
          before === undefined ? { limit: 10 } : { before, limit: 10 },
        );
        if (page.length === 0) break;
        pages.push(page);
        before = page[0]?.seq;
      }
      expect(pages.map((page) => page.length)).to.deep.equal([7, 7, 7, 7, 2]);
      const seqs = pages
        .reverse()
        .flat()
        .map((event) => event.seq);
      expect(seqs).to.deep.equal(Array.from({ length: 30 }, (_, i) => i + 1));
      const live: (CallfoldEvent | AssemblerCommand)[] = [];
      const subscription = followSession(url, { lastEventId: '30' }).subscribe((input) =>
        live.push(input),
      );
      await store.append('s', [result(31)]);
      await waitFor(() => live.length >= 2, 5000, 'the next event');
      subscription.unsubscribe();
      expect(live.map((input) => ('seq' in input ? input.seq : input.type))).to.deep.equal([
        'connection/reconnect',
        31,
      ]);
    } finally {
      await http.close();
      await store.close();
    }
  });

  it('an unauthorized follower errors without retrying', async () => {
    const store = memoryStore();
    const http = await serveSessions(store, { authorize: () => false });
    try {
      const error = await new Promise<unknown>((resolve) => {
        followSession(`${http.base}s`, { retryMs: 10 }).subscribe({ error: resolve });
      });
      expect(String(error)).to.match(/HTTP status 401/);
    } finally {
      await http.close();
      await store.close();
    }
  });

  it('a client that stops reading gets its response ended once maxBufferBytes wait (toNodeListener honours backpressure)', async () => {
    const store = memoryStore();
    const http = await serveSessions(store, { maxBufferBytes: 256 * 1024 });
    const { port } = new URL(http.base);
    const socket = connect(Number(port), '127.0.0.1');
    try {
      await new Promise((resolve) => socket.once('connect', resolve));
      // The response's head arrives once the follow is open; the client reads nothing after it.
      const head = new Promise((resolve) => {
        let text = '';
        const onData = (chunk: Buffer) => {
          text += chunk.toString('latin1');
          if (!text.includes('\r\n\r\n')) return;
          socket.off('data', onData);
          socket.pause();
          resolve(text);
        };
        socket.on('data', onData);
      });
      socket.write(`GET /sessions/s HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n`);
      expect(await head).to.match(/^HTTP\/1\.1 200/);
      const output = 'y'.repeat(16 * 1024);
      let produced = 0;
      for (let i = 0; i < 2000; i++) {
        await store.append('s', [{ type: 'tool/result', callId: `c${i}`, output }]);
        produced += output.length;
        if (i % 50 === 0) await sleep(1);
      }
      let received = 0;
      let text = '';
      socket.on('data', (chunk: Buffer) => {
        received += chunk.length;
        text = (text + chunk.toString('latin1')).slice(-64);
      });
      socket.resume();
      await new Promise((resolve) => socket.once('end', resolve));
      expect(text.endsWith('0\r\n\r\n'), 'the chunked response ended normally').to.equal(true);
      expect(received).to.be.below(produced / 4);
    } finally {
      socket.destroy();
      await http.close();
      await store.close();
    }
  });

  it('toNodeListener writes a paced burst as a few HTTP chunks per follower, every event once and in order (negative control: fanOutMs 0 writes about one chunk per event)', async () => {
    const writes = 60;
    const chunksPerFollower = async (fanOutMs: number) => {
      const store = memoryStore({ fanOutMs });
      const http = await serveSessions(store);
      try {
        const followers = await Promise.all(
          Array.from(
            { length: 3 },
            () =>
              new Promise<{ chunks: () => number; text: () => string; close: () => void }>(
                (resolve) => {
                  let chunks = 0;
                  let text = '';
                  const req = httpRequest(
                    `${http.base}s`,
                    { headers: { accept: 'text/event-stream' } },
                    (response) => {
                      // One 'data' event per HTTP chunk the server wrote.
                      response.on('data', (chunk: Buffer) => {
                        chunks++;
                        text += chunk.toString('utf8');
                      });
                      resolve({
                        chunks: () => chunks,
                        text: () => text,
                        close: () => req.destroy(),
                      });
                    },
                  );
                  req.end();
                },
              ),
          ),
        );
        await sleep(20);
        for (let k = 0; k < writes; k++) {
          await store.live('s', [
            {
              type: 'stream/tool-call-delta',
              attemptId: 'a',
              block: 0,
              callId: 'a:0',
              args: `<${k}>`,
            },
          ]);
          await sleep(0);
        }
        await waitFor(
          () => followers.every((f) => f.text().includes(`<${writes - 1}>`)),
          10_000,
          'every follower to read the burst',
        );
        for (const f of followers) {
          const seen = [...f.text().matchAll(/<(\d+)>/g)].map((match) => Number(match[1]));
          expect(seen).to.deep.equal(Array.from({ length: writes }, (_, k) => k));
          f.close();
        }
        return followers.map((f) => f.chunks());
      } finally {
        await http.close();
        await store.close();
      }
    };
    for (const chunks of await chunksPerFollower(1000)) expect(chunks).to.be.within(1, 4);
    for (const chunks of await chunksPerFollower(0)) expect(chunks).to.be.above(writes / 2);
  });

  it('an idle follower whose connection closes ends its follow in the store (toNodeListener cancels the body; the Request carries no signal)', async () => {
    const inner = memoryStore();
    let ended = 0;
    let started = 0;
    // The store's follow, watched: its batches' return() is how the follow ends.
    const store = Object.assign(Object.create(inner) as typeof inner, {
      life: (sessionId: string) => inner.life(sessionId),
      follow: (sessionId: string, options: { after: number }) => {
        const follow = inner.follow(sessionId, options) as ReturnType<typeof inner.follow> & {
          batches(): AsyncIterator<readonly CallfoldEvent[]>;
        };
        started++;
        return {
          [Symbol.asyncIterator]: () => follow[Symbol.asyncIterator](),
          batches: () => {
            const batches = follow.batches();
            return {
              next: () => batches.next(),
              return: async () => {
                ended++;
                return (await batches.return?.()) ?? { done: true as const, value: undefined };
              },
            };
          },
        };
      },
    });
    const http = await serveSessions(store);
    const { port } = new URL(http.base);
    try {
      const sockets: ReturnType<typeof connect>[] = [];
      for (let i = 0; i < 5; i++) {
        const socket = connect(Number(port), '127.0.0.1');
        sockets.push(socket);
        await new Promise((resolve) => socket.once('connect', resolve));
        socket.write(`GET /sessions/s HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n`);
        await new Promise((resolve) => socket.once('data', resolve));
      }
      expect(started).to.equal(5);
      expect(ended).to.equal(0);
      for (const socket of sockets) socket.destroy();
      await waitFor(() => ended === 5, 5000, 'every follow to end');
    } finally {
      await http.close();
      await inner.close();
    }
  });
});
