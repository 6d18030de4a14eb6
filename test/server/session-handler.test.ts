import { expect } from 'chai';
import { lastValueFrom, toArray } from 'rxjs';
import type { CallfoldEvent, StreamEvent } from '../../src/events/types.js';
import { memoryStore } from '../../src/server/memory-store.js';
import { sessionHandler } from '../../src/server/session-handler.js';
import { decodeSSE } from '../../src/wire/sse.js';
import { describe, it, runtime } from '../harness.js';
import { seqs } from './store-conformance.js';

const result = (callId: string) => ({ type: 'tool/result' as const, callId, output: callId });
const delta = (attemptId: string, args: string): StreamEvent => ({
  type: 'stream/tool-call-delta',
  attemptId,
  block: 0,
  callId: `${attemptId}:0`,
  name: 'Write',
  args,
});

function setup(
  options: {
    heartbeatMs?: number;
    maxBufferBytes?: number;
    maxPageLimit?: number;
    closeRetryMs?: number;
  } = {},
) {
  const store = memoryStore();
  const handler = sessionHandler(store, {
    sessionId: (request) => new URL(request.url).pathname.split('/')[2] ?? '',
    authorize: (request) => request.headers.get('authorization') === 'Bearer good',
    ...options,
  });
  const get = (path: string, headers: Record<string, string> = {}) =>
    handler(
      new Request(`http://test${path}`, { headers: { authorization: 'Bearer good', ...headers } }),
    );
  return { store, handler, get };
}

async function readUntil(body: ReadableStream<Uint8Array>, done: (text: string) => boolean) {
  const reader = body.getReader();
  const utf8 = new TextDecoder();
  let text = '';
  while (!done(text)) {
    const next = await reader.read();
    if (next.done) break;
    text += utf8.decode(next.value, { stream: true });
  }
  await reader.cancel();
  return text;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('sessionHandler', () => {
  it('requires authorize', () => {
    const options = { sessionId: () => 's' } as unknown as Parameters<typeof sessionHandler>[1];
    expect(() => sessionHandler(memoryStore(), options)).to.throw(TypeError, /authorize/);
  });

  it('an unauthorized request gets 401 or 403 and the same answer whether the session exists or not', async () => {
    const { store, handler } = setup();
    await store.append('real', [result('a')]);
    const answers: string[] = [];
    for (const path of ['/sessions/real', '/sessions/missing']) {
      // A browser's Request drops a Cookie header (a forbidden header name).
      const cookie = runtime === 'browser' ? { authorization: 'Basic eDp5' } : { cookie: 'x=1' };
      for (const headers of [{}, { authorization: 'Bearer bad' }, cookie]) {
        for (const accept of ['application/json', 'text/event-stream']) {
          const response = await handler(
            new Request(`http://test${path}`, { headers: { ...headers, accept } }),
          );
          answers.push(`${response.status} ${await response.text()}`);
        }
      }
    }
    const [realAnswers, missingAnswers] = [answers.slice(0, 6), answers.slice(6)];
    expect(realAnswers).to.deep.equal(missingAnswers);
    expect(realAnswers.map((answer) => answer.slice(0, 3))).to.deep.equal([
      '401',
      '401',
      '403',
      '403',
      '403',
      '403',
    ]);
    await store.close();
  });

  it('refuses invalid session ids (404) and methods other than GET (405)', async () => {
    const { get, handler, store } = setup();
    for (const id of ['..', '.x', '%2e%2e', 'a%2Fb']) {
      expect((await get(`/sessions/${id}`)).status, id).to.equal(404);
    }
    const post = await handler(
      new Request('http://test/sessions/s', {
        method: 'POST',
        headers: { authorization: 'Bearer good' },
      }),
    );
    expect(post.status).to.equal(405);
    expect(post.headers.get('allow')).to.equal('GET');
    await store.close();
  });

  it('serves pages as JSON, newest before `before`, limit defaulted and capped', async () => {
    const { get, store } = setup({ maxPageLimit: 150 });
    await store.append(
      's',
      Array.from({ length: 250 }, (_, i) => result(`c${i}`)),
    );
    const page = async (query: string) => {
      const response = await get(`/sessions/s${query}`);
      expect(response.status).to.equal(200);
      expect(response.headers.get('content-type')).to.match(/^application\/json/);
      return seqs(await response.json());
    };
    expect(await page('')).to.have.length(100);
    expect((await page('')).at(0)).to.equal(151);
    expect(await page('?before=11&limit=5')).to.deep.equal([6, 7, 8, 9, 10]);
    expect(await page('?limit=100000')).to.have.length(150);
    for (const bad of ['?limit=x', '?before=', '?limit=-1']) {
      expect((await get(`/sessions/s${bad}`)).status, bad).to.equal(400);
    }
    await store.close();
  });

  it('follows as SSE: id = seq and life, resume after Last-Event-ID, live attempts replayed', async () => {
    const { get, store } = setup();
    await store.append('s', [result('a'), result('b'), result('c')]);
    await store.live('s', [delta('x', '{"a"'), delta('x', ':1')]);
    const life = await store.life('s');
    for (const lastEventId of ['1', `1-${life}`]) {
      const response = await get('/sessions/s', {
        accept: 'text/event-stream',
        'last-event-id': lastEventId,
      });
      expect(response.status).to.equal(200);
      expect(response.headers.get('content-type')).to.match(/^text\/event-stream/);
      const body = response.body as ReadableStream<Uint8Array>;
      const text = await readUntil(body, (got) => got.split('\n\n').length > 4);
      expect(text.startsWith(`id: 2-${life}\ndata: {"type":"tool/result"`)).to.equal(true);
      expect(text).to.contain(`id: 3-${life}\n`);
      expect(text).not.to.contain('id: 1');
      expect(text.match(/stream\/tool-call-delta/g)).to.have.length(2);
    }
    await store.close();
  });

  it('answers 410 to a Last-Event-ID of an earlier life of the session id, and never resumes inside the new one', async () => {
    const { get, store } = setup();
    await store.append('s', [result('a'), result('b')]);
    const earlier = await store.life('s');
    await store.delete('s');
    await store.append('s', [result('new-1'), result('new-2'), result('new-3')]);
    const now = await store.life('s');
    expect(now).not.to.equal(earlier);
    const gone = await get('/sessions/s', {
      accept: 'text/event-stream',
      'last-event-id': `2-${earlier}`,
    });
    expect(gone.status).to.equal(410);
    // The same ID with the current life resumes after it.
    const resumed = await get('/sessions/s', {
      accept: 'text/event-stream',
      'last-event-id': `2-${now}`,
    });
    expect(resumed.status).to.equal(200);
    const body = resumed.body as ReadableStream<Uint8Array>;
    const text = await readUntil(body, (got) => got.includes('new-3'));
    expect(text.startsWith(`id: 3-${now}\n`)).to.equal(true);
    await store.close();
  });

  it('sends a heartbeat comment while nothing happens', async () => {
    const { get, store } = setup({ heartbeatMs: 30 });
    const response = await get('/sessions/quiet', { accept: 'text/event-stream' });
    const text = await readUntil(response.body as ReadableStream<Uint8Array>, (got) =>
      got.includes(': ping\n\n'),
    );
    expect(text).to.equal(': ping\n\n');
    await store.close();
  });

  it('ends a follower whose unread bytes pass maxBufferBytes; it resumes with Last-Event-ID and loses nothing', async () => {
    const { get, store, handler } = setup({ maxBufferBytes: 4096 });
    const response = await get('/sessions/s', { accept: 'text/event-stream' });
    const body = response.body as ReadableStream<Uint8Array>;
    // Nobody reads while 200 events of ~230 bytes are written: far past 4 KiB.
    for (let i = 0; i < 200; i++) {
      await store.append('s', [{ ...result(`c${i}`), output: 'x'.repeat(180) }]);
      await sleep(0);
    }
    let lastId = '';
    const received = await lastValueFrom(
      decodeSSE(body, { onEventId: (id) => (lastId = id) }).pipe(toArray()),
    );
    expect(received.length).to.be.above(0).and.below(199);
    const resumed = await get('/sessions/s', {
      accept: 'text/event-stream',
      'last-event-id': lastId,
    });
    const rest: CallfoldEvent[] = [];
    const reader = decodeSSE(resumed).subscribe((event) => rest.push(event));
    while (seqs(rest).at(-1) !== 200) await sleep(5);
    reader.unsubscribe();
    expect(seqs([...received, ...rest])).to.deep.equal(
      Array.from({ length: 200 }, (_, i) => i + 1),
    );
    // The first follower, and the second if its backlog alone passed the bound.
    expect(handler.metrics().followersCut).to.be.within(1, 2);
    await store.close();
  });

  it('metrics() counts the open followers and every byte handed to them', async () => {
    const { get, store, handler } = setup();
    await store.append('s', [result('a'), result('b'), result('c')]);
    expect(handler.metrics()).to.deep.equal({ followers: 0, bytesSent: 0, followersCut: 0 });
    const responses = [
      await get('/sessions/s', { accept: 'text/event-stream' }),
      await get('/sessions/s', { accept: 'text/event-stream' }),
    ];
    expect(handler.metrics().followers).to.equal(2);
    let bytes = 0;
    for (const response of responses) {
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      let text = '';
      while (!text.includes('"callId":"c"')) {
        const next = await reader.read();
        if (next.done) break;
        bytes += next.value.byteLength;
        text += new TextDecoder().decode(next.value);
      }
      await reader.cancel();
    }
    expect(handler.metrics()).to.deep.equal({ followers: 0, bytesSent: bytes, followersCut: 0 });
    await store.close();
  });

  it('close() ends each follower after a retry: line of at most closeRetryMs, and refuses new requests with 503', async () => {
    const { get, store, handler } = setup({ closeRetryMs: 400 });
    await store.append('s', [result('a')]);
    const response = await get('/sessions/s', { accept: 'text/event-stream' });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    let text = '';
    const read = async (until: () => boolean) => {
      while (!until()) {
        const next = await reader.read();
        if (next.done) return;
        text += new TextDecoder().decode(next.value);
      }
    };
    await read(() => text.includes('"callId":"a"'));
    const closed = handler.close();
    await read(() => false);
    await closed;
    const retry = Number(/\nretry: (\d+)\n\n$/.exec(text)?.[1]);
    expect(text.startsWith('id: 1-')).to.equal(true);
    expect(retry).to.be.within(200, 400);
    expect((await get('/sessions/s', { accept: 'text/event-stream' })).status).to.equal(503);
    expect(handler.metrics().followers).to.equal(0);
    expect(() =>
      sessionHandler(store, { sessionId: () => 's', authorize: () => true, closeRetryMs: 5000 }),
    ).to.throw(RangeError, /closeRetryMs/);
    await store.close();
  });
});
