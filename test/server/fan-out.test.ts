/**
 * The store's fan-out pacing (`fanOutMs`, FanOutPacer): followers are woken at most once per
 * window, so a burst of writes reaches each follower as a few chunks, in order, nothing lost.
 * Work is counted (chunks read per follower), never timed; the window is long enough that a
 * slow machine still fits the burst in one or two windows.
 */
import { expect } from 'chai';
import type { StreamEvent } from '../../src/events/types.js';
import { memoryStore } from '../../src/server/memory-store.js';
import { sessionHandler } from '../../src/server/session-handler.js';
import { describe, it } from '../harness.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const delta = (k: number, padding = 0): StreamEvent => ({
  type: 'stream/tool-call-delta',
  attemptId: 'a',
  block: 0,
  callId: 'a:0',
  args: `<${String(k).padStart(4, '0')}>${' '.repeat(padding)}`,
});

/** A follower reading the SSE body: every chunk kept as it was read. */
function reader(body: ReadableStream<Uint8Array>, messages: number) {
  const chunks: Uint8Array[] = [];
  const utf8 = new TextDecoder();
  let text = '';
  let read = 0;
  const stream = body.getReader();
  const done = (async () => {
    // The handler writes whole events, so a chunk's blank lines are its messages.
    while (read < messages) {
      const next = await stream.read();
      if (next.done) break;
      chunks.push(next.value);
      const part = utf8.decode(next.value, { stream: true });
      read += (part.match(/\n\n/g) ?? []).length;
      text += part;
    }
    await stream.cancel();
  })();
  return { chunks, done, text: () => text };
}

/** `writes` live writes, each its own store call with a macrotask between: one burst. */
async function burst(fanOutMs: number | 'auto', followers: number, writes: number, padding = 0) {
  const store = memoryStore({ fanOutMs });
  const handler = sessionHandler(store, { sessionId: () => 's', authorize: () => true });
  const readers = [];
  for (let i = 0; i < followers; i++) {
    const response = await handler(
      new Request('http://test/sessions/s', { headers: { accept: 'text/event-stream' } }),
    );
    readers.push(reader(response.body as ReadableStream<Uint8Array>, writes));
  }
  await sleep(20); // every follow registered
  for (let k = 0; k < writes; k++) {
    await store.live('s', [delta(k, padding)]);
    await sleep(0);
  }
  await Promise.all(readers.map((r) => r.done));
  await store.close();
  return readers;
}

const inOrder = (text: string, writes: number) =>
  [...text.matchAll(/<(\d{4})>/g)].map((match) => Number(match[1])).join() ===
  Array.from({ length: writes }, (_, k) => k).join();

describe('fan-out pacing (fanOutMs)', () => {
  it('a burst of 60 writes inside one window reaches each follower as a few chunks, in order (negative control: fanOutMs 0 gives about one chunk per write)', async () => {
    const writes = 60;
    const paced = await burst(1000, 3, writes);
    for (const r of paced) {
      expect(inOrder(r.text(), writes), 'every write, once, in order').to.equal(true);
      // The first write goes out at once (a quiet window before it), the rest together.
      expect(r.chunks.length).to.be.within(1, 4);
    }
    const unpaced = await burst(0, 3, writes);
    for (const r of unpaced) {
      expect(inOrder(r.text(), writes)).to.equal(true);
      expect(r.chunks.length, 'one wake-up per write without pacing').to.be.above(writes / 2);
    }
  });

  it('followers woken together share the bytes of their batch (encoded and joined once)', async () => {
    const writes = 30;
    const [first, ...others] = await burst(1000, 4, writes);
    const last = (first?.chunks ?? []).at(-1);
    expect(last?.byteLength ?? 0).to.be.above(0);
    for (const r of others) expect(r.chunks.at(-1)).to.equal(last);
  });

  it('followers woken together share the bytes of a batch over 64 KiB, a fan-out catching up (failed before: each follower joined its own copy)', async () => {
    const writes = 30;
    const [first, ...others] = await burst(1000, 4, writes, 4096);
    const last = (first?.chunks ?? []).at(-1);
    expect(last?.byteLength ?? 0).to.be.above(64 * 1024);
    for (const r of others) expect(r.chunks.at(-1)).to.equal(last);
  });

  it('an event after a quiet window goes out at once, ahead of the window (leading edge)', async () => {
    const store = memoryStore({ fanOutMs: 60_000 });
    const handler = sessionHandler(store, { sessionId: () => 's', authorize: () => true });
    const response = await handler(
      new Request('http://test/sessions/s', { headers: { accept: 'text/event-stream' } }),
    );
    const r = reader(response.body as ReadableStream<Uint8Array>, 1);
    await sleep(20);
    await store.live('s', [delta(7)]);
    // Would wait a minute if the first event of a quiet window waited for the window's end.
    await r.done;
    expect(r.text()).to.contain('<0007>');
    await store.close();
  });

  it("'auto' (the default) does not hold back the writes to a single follower", async () => {
    const writes = 60;
    const [only] = await burst('auto', 1, writes);
    expect(inOrder(only?.text() ?? '', writes)).to.equal(true);
    expect(only?.chunks.length).to.be.above(writes / 2);
  });

  // How much fewer depends on how long waking 1,000 followers takes on the machine (the
  // window follows it): fan-out-pacer.test.ts checks the rule itself on a driven clock.
  it("'auto' paces a thousand followers: each reads a burst of 60 writes as fewer chunks (negative control: fanOutMs 0)", async () => {
    const writes = 60;
    const paced = await burst('auto', 1000, writes);
    const chunks = paced.map((r) => r.chunks.length).sort((a, b) => a - b);
    expect(inOrder(paced[999]?.text() ?? '', writes)).to.equal(true);
    expect(chunks[500], 'median chunks per follower').to.be.below(writes / 2);
    const unpaced = await burst(0, 1000, writes);
    const control = unpaced.map((r) => r.chunks.length).sort((a, b) => a - b);
    expect(control[500]).to.be.above(writes / 2);
  });

  it('rejects a negative or non-numeric fanOutMs', () => {
    expect(() => memoryStore({ fanOutMs: -1 })).to.throw(RangeError, /fanOutMs/);
    expect(() => memoryStore({ fanOutMs: Number.NaN })).to.throw(RangeError, /fanOutMs/);
    expect(() => memoryStore({ fanOutMs: 'fast' as never })).to.throw(RangeError, /fanOutMs/);
  });
});
