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
import { waitFor } from '../support/wait-for.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const delta = (k: number, padding = 0): StreamEvent => ({
  type: 'stream/tool-call-delta',
  attemptId: 'a',
  block: 0,
  callId: 'a:0',
  args: `<${String(k).padStart(4, '0')}>${' '.repeat(padding)}`,
});

/**
 * A follower reading the SSE body: every chunk kept as it was read. Its first message is the
 * marker that shows it follows (`ready`); the chunks and text kept start after it.
 */
function reader(body: ReadableStream<Uint8Array>, messages: number) {
  const chunks: Uint8Array[] = [];
  const utf8 = new TextDecoder();
  let text = '';
  let read = 0;
  let ready = false;
  const stream = body.getReader();
  const done = (async () => {
    // The handler writes whole events, so a chunk's blank lines are its messages.
    while (read < messages + 1) {
      const next = await stream.read();
      if (next.done) break;
      const part = utf8.decode(next.value, { stream: true });
      read += (part.match(/\n\n/g) ?? []).length;
      if (ready) {
        chunks.push(next.value);
        text += part;
      }
      ready = true;
    }
    await stream.cancel();
  })();
  return { chunks, done, text: () => text, ready: () => ready };
}

/**
 * `writes` live writes, each its own store call with a macrotask between: one burst, once
 * every follower has read a first marker event (so each follows before the burst starts).
 */
async function burst(fanOutMs: number | 'auto', followers: number, writes: number, padding = 0) {
  const store = memoryStore({ fanOutMs });
  const handler = sessionHandler(store, { sessionId: () => 's', authorize: () => true });
  const readers: ReturnType<typeof reader>[] = [];
  for (let i = 0; i < followers; i++) {
    const response = await handler(
      new Request('http://test/sessions/s', { headers: { accept: 'text/event-stream' } }),
    );
    readers.push(reader(response.body as ReadableStream<Uint8Array>, writes));
  }
  await store.live('s', [
    { type: 'stream/tool-call-delta', attemptId: 'marker', block: 0, callId: 'marker:0', args: '' },
  ]);
  await waitFor(() => readers.every((r) => r.ready()), 'every follower reading');
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

  // Failed before: each follower joined its own copy.
  it('followers woken together share the bytes of a batch over 64 KiB, a fan-out catching up', async () => {
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
    const stream = (response.body as ReadableStream<Uint8Array>).getReader();
    const first = stream.read();
    await store.live('s', [delta(7)]);
    // Would wait a minute if the first event of a quiet window waited for the window's end.
    // (A follow that began after the write has it in its replay, which is not held either.)
    expect(new TextDecoder().decode((await first).value)).to.contain('<0007>');
    await stream.cancel();
    await store.close();
  });

  // How many chunks carry them is the scheduler's to decide (a quiet clean-clone run saw 30
  // of 60, with another test page busy): that 'auto' gives a single follower no window is
  // checked on a driven clock in fan-out-pacer.test.ts ("short wake-ups … get no window").
  it("'auto' (the default) delivers every write to a single follower once and in order", async () => {
    const writes = 60;
    const [only] = await burst('auto', 1, writes);
    expect(inOrder(only?.text() ?? '', writes)).to.equal(true);
  });

  // How much fewer depends on how long waking 1,000 followers takes on the machine (the
  // window follows it), so no count is asserted here: fan-out-pacer.test.ts checks the rule
  // itself on a driven clock, with its negative controls.
  it("'auto' delivers a burst to a thousand followers, every write once and in order, in no more chunks than without pacing", async () => {
    const writes = 60;
    const median = (readers: { chunks: unknown[] }[]) =>
      readers.map((r) => r.chunks.length).sort((a, b) => a - b)[500] ?? 0;
    const paced = await burst('auto', 1000, writes);
    for (const r of paced) expect(inOrder(r.text(), writes)).to.equal(true);
    const unpaced = await burst(0, 1000, writes);
    expect(median(paced), 'median chunks per follower').to.be.at.most(median(unpaced));
  });

  it('rejects a negative or non-numeric fanOutMs', () => {
    expect(() => memoryStore({ fanOutMs: -1 })).to.throw(RangeError, /fanOutMs/);
    expect(() => memoryStore({ fanOutMs: Number.NaN })).to.throw(RangeError, /fanOutMs/);
    expect(() => memoryStore({ fanOutMs: 'fast' as never })).to.throw(RangeError, /fanOutMs/);
  });
});
