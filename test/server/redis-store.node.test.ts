import { after, before, describe, it } from 'node:test';
import { expect } from 'chai';
import { Redis } from 'ioredis';
import { type CallfoldEvent, isDurableEvent, type StreamEvent } from '../../src/events/types.js';
import { defaultSliceSize } from '../../src/server/fan-out-pacer.js';
import { redisStore } from '../../src/server/redis/redis-store.js';
import { sessionHandler } from '../../src/server/session-handler.js';
import type { BatchedFollow, SessionStore } from '../../src/server/session-store.js';
import { decodeSSE } from '../../src/wire/sse.js';
import { waitFor } from '../support/wait-for.js';
import { collect, follower, seqs, storeConformance } from './store-conformance.js';
import { type RunningRedis, startRedis } from './support/redis-server.js';
import { elapseKeys } from './support/redis-ttl.js';

let redis: RunningRedis;
let stores = 0;
before(async () => {
  redis = await startRedis();
});
after(async () => {
  await redis?.stop();
});

storeConformance('redisStore', async ({ leaseMs, ttlMs, clock }) => {
  // A fresh prefix per test: the stores of one run never see each other's keys.
  const prefix = `t${++stores}:`;
  const store = await redisStore({
    url: redis.url,
    prefix,
    ...(leaseMs === undefined ? {} : { leaseMs, sweepMs: 50 }),
    ...(ttlMs === undefined ? {} : { ttlMs }),
    ...(clock === undefined ? {} : { clock }),
  });
  const admin = new Redis(redis.url);
  return {
    store,
    // Time passes for Redis's TTLs as for the store's clock (support/redis-ttl.ts).
    elapse: (ms: number) => elapseKeys(admin, () => admin.keys(`${prefix}*`), clock, ms),
    async dispose() {
      admin.disconnect();
      await store.close();
    },
  };
});

describe('redisStore: a tail that falls behind the feed trim', () => {
  // Failed before: the follower silently got only the untrimmed tail.
  it('ends its followers with a clear error and they resume from the log, losing nothing', async () => {
    // A feed of ~100 entries: one append of 3,000 events (one atomic script) trims
    // everything the tail had not read yet.
    const store = await redisStore({ url: redis.url, prefix: `trim${++stores}:`, feedMax: 100 });
    try {
      await store.append('s', [{ type: 'turn/start', turnId: 't1' }]);
      const received: number[] = [];
      const errors: unknown[] = [];
      const controller = new AbortController();
      let after = 0;
      let done = false;
      const follower = (async () => {
        // What followSession does: follow, and resume after the last seq on an error.
        while (!done) {
          try {
            for await (const event of store.follow('s', { after, signal: controller.signal })) {
              if (isDurableEvent(event)) {
                received.push(event.seq);
                after = event.seq;
              }
              if (after === 3002) done = true;
              if (done) break;
            }
          } catch (error) {
            errors.push(error);
          }
        }
      })();
      await waitFor(() => received.length > 0, 'the first event');
      const results = Array.from({ length: 3000 }, (_, i) => ({
        type: 'tool/result' as const,
        callId: `c${i}`,
        output: i,
      }));
      await store.append('s', results);
      await store.append('s', [{ type: 'turn/end', turnId: 't1' }]);
      await follower.finally(() => {
        done = true;
        controller.abort();
      });
      expect(received).to.deep.equal(Array.from({ length: 3002 }, (_, i) => i + 1));
      expect(errors).to.have.length.greaterThan(0);
      expect(String(errors[0])).to.match(/fell behind the feed trim/);
    } finally {
      await store.close();
    }
  });
});

describe('redisStore: a tail re-created while a read is in flight', () => {
  // Failed before: "fell behind the feed trim" with no trim.
  it('takes no reply meant for the tail before it: followers joining and leaving under steady appends end without error, in order', async () => {
    // The last follower leaving deletes the tail; the next one makes a new tail whose cursor is
    // the feed's tip at its snapshot. A blocking read sent with the old tail's cursor can still
    // answer after that: its entries start before the new cursor. Before, the new tail took
    // them as a gap and ended its followers with a trim error although nothing was trimmed.
    const store = await redisStore({ url: redis.url, prefix: `recreate${++stores}:` });
    let appending = true;
    try {
      await store.append('s', [{ type: 'turn/start', turnId: 't1' }]);
      let latest = 1;
      const appender = (async () => {
        for (let i = 0; appending; i++) {
          const [appended] = await store.append('s', [
            { type: 'tool/result', callId: `c${i}`, output: i },
          ]);
          latest = appended?.seq ?? latest;
        }
      })();
      const errors: unknown[] = [];
      for (let round = 0; round < 200; round++) {
        const controller = new AbortController();
        const seqs: number[] = [];
        // Leave at the first event appended after the follow began: it came through the
        // tail's read, and another read is in flight when the tail goes away.
        const live = latest + 1;
        try {
          for await (const event of store.follow('s', { after: 0, signal: controller.signal })) {
            if (isDurableEvent(event)) seqs.push(event.seq);
            if ((seqs.at(-1) ?? 0) > live) break;
          }
        } catch (error) {
          errors.push(error);
        }
        controller.abort();
        expect(seqs, 'each follower gets the log in order').to.deep.equal(
          Array.from({ length: seqs.length }, (_, i) => i + 1),
        );
      }
      appending = false;
      await appender;
      expect(errors.map(String)).to.deep.equal([]);
    } finally {
      appending = false;
      await store.close();
    }
  });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const delta = (attemptId: string, k: number): StreamEvent => ({
  type: 'stream/tool-call-delta',
  attemptId,
  block: 0,
  callId: `${attemptId}:0`,
  name: 'Write',
  args: `<${k}>`,
});
const args = (events: readonly CallfoldEvent[], attemptId: string) =>
  events
    .flatMap((event) =>
      event.type === 'stream/tool-call-delta' && event.attemptId === attemptId ? [event.args] : [],
    )
    .join('');
const expectedArgs = (count: number) => Array.from({ length: count }, (_, k) => `<${k}>`).join('');

/** How many times the Redis server ran `command` (INFO commandstats), all clients together. */
async function calls(admin: Redis, command: string): Promise<number> {
  const info = await admin.info('commandstats');
  return Number(new RegExp(`cmdstat_${command}:calls=(\\d+)`).exec(info)?.[1] ?? 0);
}

/**
 * `followers` followers of one session on one store, each pulling batches; `writes` live
 * writes, each its own call. Returns the arrays each follower was handed after its first
 * batch (its backlog), and the XREAD and EVALSHA calls the Redis server ran meanwhile.
 */
async function fanOut(followers: number, writes: number) {
  const store = await redisStore({ url: redis.url, prefix: `fan${++stores}:` });
  const admin = new Redis(redis.url);
  try {
    await store.append('s', [{ type: 'turn/start', turnId: 't1' }]);
    // ioredis sends a script's first run on a connection as EVAL, the later ones as EVALSHA.
    const scripts = async () => (await calls(admin, 'evalsha')) + (await calls(admin, 'eval'));
    const scriptsBefore = await scripts();
    const handed: (readonly CallfoldEvent[])[][] = [];
    const reading: Promise<void>[] = [];
    for (let i = 0; i < followers; i++) {
      const batches = (store.follow('s', { after: 0 }) as BatchedFollow).batches();
      const got: (readonly CallfoldEvent[])[] = [];
      handed.push(got);
      reading.push(
        (async () => {
          for (;;) {
            const next = await batches.next();
            if (next.done) return;
            got.push(next.value);
            if (next.value.at(-1)?.type === 'stream/settle') break;
          }
          await batches.return?.();
        })(),
      );
    }
    // Every follower has its backlog (seq 1): all of them read the feed from here.
    await waitFor(() => handed.every((got) => got.length > 0), 'every backlog');
    const joinScripts = (await scripts()) - scriptsBefore;
    const readsBefore = await calls(admin, 'xread');
    for (let k = 0; k < writes; k++) {
      await store.live('s', [delta('a', k)]);
      await sleep(5);
    }
    await store.live('s', [{ type: 'stream/settle', attemptId: 'a' }]);
    await Promise.all(reading);
    const reads = (await calls(admin, 'xread')) - readsBefore;
    for (const got of handed) expect(args(got.flat(), 'a')).to.equal(expectedArgs(writes));
    return { live: handed.map((got) => got.slice(1)), reads, joinScripts };
  } finally {
    admin.disconnect();
    await store.close();
  }
}

describe('redisStore: one feed per session per instance', () => {
  // Failed before: every follower was handed an array of its own per read, 100 followers × 30 writes ≈ 3,000 arrays.
  it('followers at the same position are handed the same array, and one XREAD per read serves them all (control: the per-follower snapshot scripts do grow with followers)', async () => {
    const writes = 30;
    const one = await fanOut(1, writes);
    const many = await fanOut(100, writes);
    const arrays = new Set(many.live.flat());
    // One array per read of the tail and slice of a wake-up, whatever the number of
    // followers: a wake-up wakes them defaultSliceSize at a time (FanOutPacer), and a read
    // that lands between two slices goes, newer array, to the followers woken after it.
    const slices = Math.ceil(100 / defaultSliceSize);
    expect(arrays.size, 'distinct arrays handed to 100 followers').to.be.at.most(
      many.reads * slices,
    );
    expect(arrays.size).to.be.at.least(1);
    // Each follower was handed arrays for every write; all shared.
    const handedOut = many.live.reduce((sum, got) => sum + got.length, 0);
    expect(handedOut).to.be.at.least((100 / slices) * arrays.size * 0.9);
    // One blocking read of the session's feed per instance, not one per follower: the reads
    // follow the writes (about one each), for 1 follower as for 100.
    expect(one.reads).to.be.within(1, writes + 5);
    expect(many.reads).to.be.within(1, writes + 5);
    // The counter sees per-follower work: each join runs its own snapshot script.
    expect(one.joinScripts).to.be.below(10);
    expect(many.joinScripts).to.be.at.least(100);
  });

  // Failed before: stream events the tail read during its snapshot and backlog were dropped.
  it('a follower joining an instance that already tails the session, while an attempt streams, gets every delta once, after its replay', async () => {
    const prefix = `join${++stores}:`;
    const store = await redisStore({ url: redis.url, prefix });
    // The producer writes through another instance.
    const producer = await redisStore({ url: redis.url, prefix });
    try {
      // A long backlog: a join reads it in chunks while the tail goes on reading the feed.
      const results = Array.from({ length: 3000 }, (_, i) => ({
        type: 'tool/result' as const,
        callId: `c${i}`,
        output: i,
      }));
      await producer.append('s', results);
      const settled = (events: readonly CallfoldEvent[]) =>
        events.some((event) => event.type === 'stream/settle');
      // The instance tails the session before the joins: this follower keeps it reading.
      const first = collect(store.follow('s', { after: 3000 }), settled, 30_000);
      await producer.live('s', [delta('a', 0)]);
      const writes = 300;
      const joiners: Promise<CallfoldEvent[]>[] = [];
      for (let k = 1; k < writes; k++) {
        await producer.live('s', [delta('a', k)]);
        if (k % 40 === 20) joiners.push(collect(store.follow('s', { after: 0 }), settled, 30_000));
        await sleep(2);
      }
      await producer.live('s', [{ type: 'stream/settle', attemptId: 'a' }]);
      expect(args(await first, 'a')).to.equal(expectedArgs(writes));
      for (const joined of await Promise.all(joiners)) {
        expect(seqs(joined)).to.deep.equal(Array.from({ length: 3000 }, (_, i) => i + 1));
        expect(args(joined, 'a'), 'replay then the live tail, no gap, no repeat').to.equal(
          expectedArgs(writes),
        );
      }
    } finally {
      await producer.close();
      await store.close();
    }
  });

  it('a follower past maxBufferBytes is ended alone: the others reading the same feed get every event', async () => {
    const store = await redisStore({ url: redis.url, prefix: `slow${++stores}:` });
    const serve = (maxBufferBytes: number) =>
      sessionHandler(store, { sessionId: () => 's', authorize: () => true, maxBufferBytes });
    const follow = (handler: ReturnType<typeof serve>) =>
      handler(
        new Request('http://test/sessions/s', { headers: { accept: 'text/event-stream' } }),
      ).then((response) => response.body as ReadableStream<Uint8Array>);
    try {
      const slow = await follow(serve(4096));
      const fast = await Promise.all([follow(serve(1 << 20)), follow(serve(1 << 20))]);
      const received = fast.map(() => [] as CallfoldEvent[]);
      fast.forEach((body, i) => {
        decodeSSE(body)
          .forEach((event) => {
            received[i]?.push(event);
          })
          .catch(() => {});
      });
      // Nobody reads `slow` while 200 events of ~230 bytes are written: far past 4 KiB. Each
      // follow starts after 0, so one registered late reads the same events from the backlog.
      for (let i = 0; i < 200; i++) {
        await store.append('s', [
          { type: 'tool/result', callId: `c${i}`, output: 'x'.repeat(180) },
        ]);
        await sleep(1);
      }
      await waitFor(
        () => received.every((events) => seqs(events).at(-1) === 200),
        'every event on the fast followers',
      );
      for (const events of received) {
        expect(seqs(events)).to.deep.equal(Array.from({ length: 200 }, (_, i) => i + 1));
      }
      // The slow follower's response ended (it resumes with Last-Event-ID): it held some.
      const ended: CallfoldEvent[] = [];
      await decodeSSE(slow).forEach((event) => {
        ended.push(event);
      });
      expect(seqs(ended).length).to.be.above(0).and.below(200);
      expect(seqs(ended)).to.deep.equal(Array.from({ length: ended.length }, (_, i) => i + 1));
    } finally {
      await store.close();
    }
  });

  it('once its last follower leaves, the instance stops reading the session (negative control: with a follower it reads at each write)', async () => {
    const store: SessionStore = await redisStore({ url: redis.url, prefix: `idle${++stores}:` });
    const admin = new Redis(redis.url);
    // Ten appends, each (while followed) once the follower has the one before: every append
    // then finds the read returned and costs one of its own, on any machine.
    const writeAndCount = async (delivered?: () => number) => {
      const before = await calls(admin, 'xread');
      for (let i = 0; i < 10; i++) {
        const [event] = await store.append('s', [
          { type: 'tool/result', callId: `c${i}`, output: i },
        ]);
        if (delivered) await waitFor(() => delivered() >= (event?.seq ?? 0), `seq ${event?.seq}`);
      }
      return (await calls(admin, 'xread')) - before;
    };
    try {
      const controller = new AbortController();
      const following = follower(
        store.follow('s', { after: 0, signal: controller.signal }),
        () => false,
      );
      const last = () => seqs(following.events).at(-1) ?? 0;
      expect(await writeAndCount(last), 'reads while followed').to.be.at.least(5);
      // Leaving unblocks the read at once; that read is the one that may still count.
      controller.abort();
      await following.finished.catch(() => []);
      expect(await writeAndCount(), 'reads after the last follower left').to.be.at.most(1);
    } finally {
      admin.disconnect();
      await store.close();
    }
  });
});

describe('redisStore: delete across instances', () => {
  it("a delete on one instance ends another instance's followers, and the id's new life is followed from seq 1", async () => {
    const prefix = `del${++stores}:`;
    const one = await redisStore({ url: redis.url, prefix });
    const two = await redisStore({ url: redis.url, prefix });
    try {
      const result = (callId: string) => ({ type: 'tool/result' as const, callId, output: '' });
      await one.append('s', [result('a'), result('b')]);
      const earlier = await two.life('s');
      const reading = follower(two.follow('s', { after: 0 }), () => false);
      await waitFor(() => reading.events.length >= 2, 'the backlog on the second instance');
      await one.delete('s');
      // Ended by the mark the delete left in the feed: `done` never says so.
      expect(seqs(await reading.finished)).to.deep.equal([1, 2]);
      const again = follower(two.follow('s', { after: 0 }), (got) => seqs(got).includes(2));
      expect(await two.life('s')).not.to.equal(earlier);
      await one.append('s', [result('c'), result('d')]);
      expect(seqs(await again.finished)).to.deep.equal([1, 2]);
      expect(two.metrics()).to.deep.include({ followers: 0, sessions: 0 });
    } finally {
      await one.close();
      await two.close();
    }
  });
});

describe("redisStore: durability 'replicated'", () => {
  it('rejects an append no replica confirmed, saying it is on the master only (control: acknowledged resolves)', async () => {
    // This server has no replica: WAIT 1 returns 0 once its timeout passes.
    const prefix = `durable${++stores}:`;
    const replicated = await redisStore({
      url: redis.url,
      prefix,
      durability: 'replicated',
      replicaTimeoutMs: 20,
    });
    const acknowledged = await redisStore({ url: redis.url, prefix });
    try {
      const result = (callId: string) => ({ type: 'tool/result' as const, callId, output: '' });
      let error: unknown;
      await replicated.append('s', [result('a'), result('b')]).catch((caught: unknown) => {
        error = caught;
      });
      expect(String(error)).to.match(
        /seq 1–2\) is on the master but no replica confirmed it within 20 ms/,
      );
      // It is on the master, as the error says; the next append follows it.
      const [next] = await acknowledged.append('s', [result('c')]);
      expect(next?.seq).to.equal(3);
    } finally {
      await replicated.close();
      await acknowledged.close();
    }
  });
});

describe('redisStore: leases per session', () => {
  it('an attempt whose lease ran out while nobody followed the session is settled by the next follow, not replayed (control: within its lease it is)', async () => {
    const prefix = `lease${++stores}:`;
    // A sweep that never comes while the test runs: only the session's own scripts settle.
    const store = await redisStore({ url: redis.url, prefix, leaseMs: 300, sweepMs: 3_600_000 });
    const admin = new Redis(redis.url);
    const delta = (attemptId: string) => ({
      type: 'stream/tool-call-delta' as const,
      attemptId,
      block: 0,
      callId: `${attemptId}:0`,
      name: 'Write',
      args: '{',
    });
    /** Whether the lease of `attemptId` has run out by Redis's clock, which the scripts read. */
    const expired = async (attemptId: string) => {
      const deadline = Number(await admin.zscore(`${prefix}{s}:leases`, attemptId));
      const [seconds = '0', micros = '0'] = (await admin.time()).map(String);
      return Number(seconds) * 1000 + Number(micros) / 1000 > deadline;
    };
    try {
      let id = '';
      for (let attempt = 0; ; attempt++) {
        id = `dead${attempt}`;
        await store.live('s', [delta(id)]);
        const replayed = await collect(store.follow('s', { after: 0 }), (got) =>
          got.some((event) => 'attemptId' in event && event.attemptId === id),
        );
        // A host that stalled past the lease before the follow breaks the control's premise:
        // started over with another attempt.
        if (attempt < 20 && (await expired(id).catch(() => true))) continue;
        expect(replayed, 'within its lease').to.deep.equal([delta(id)]);
        break;
      }
      await waitFor(() => expired(id), 'the lease to run out');
      await store.append('s', [{ type: 'tool/result', callId: 'r', output: '' }]);
      const after = await collect(store.follow('s', { after: 0 }), (got) => got.length >= 1);
      expect(after.map((event) => event.type)).to.deep.equal(['tool/result']);
      expect(await admin.exists(`${prefix}{s}:a:${id}`)).to.equal(0);
      expect(store.metrics().leasesExpired).to.be.at.least(1);
    } finally {
      admin.disconnect();
      await store.close();
    }
  });
});
