import { after, before, describe, it } from 'node:test';
import { expect } from 'chai';
import { isDurableEvent } from '../../src/events/types.js';
import { redisStore } from '../../src/server/redis/redis-store.js';
import { storeConformance } from '../server/store-conformance.js';
import { type RunningRedis, startRedis } from './support/redis-server.js';

let redis: RunningRedis;
let stores = 0;
before(async () => {
  redis = await startRedis();
});
after(async () => {
  await redis?.stop();
});

storeConformance('redisStore', async ({ leaseMs }) => {
  // A fresh prefix per test: the stores of one run never see each other's keys.
  const prefix = `t${++stores}:`;
  const store = await redisStore(
    leaseMs === undefined
      ? { url: redis.url, prefix }
      : { url: redis.url, prefix, leaseMs, sweepMs: 50 },
  );
  return { store, dispose: () => store.close() };
});

describe('redisStore: a tail that falls behind the feed trim', () => {
  it('ends its followers with a clear error and they resume from the log, losing nothing (failed before: the follower silently got only the untrimmed tail)', async () => {
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
      while (received.length < 1) await new Promise((resolve) => setTimeout(resolve, 5));
      const results = Array.from({ length: 3000 }, (_, i) => ({
        type: 'tool/result' as const,
        callId: `c${i}`,
        output: i,
      }));
      await store.append('s', results);
      await store.append('s', [{ type: 'turn/end', turnId: 't1' }]);
      await Promise.race([
        follower,
        new Promise((_, reject) => setTimeout(() => reject(new Error('follower stalled')), 10_000)),
      ]).finally(() => {
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
  it('takes no reply meant for the tail before it: followers joining as others leave, under steady appends, end without error and in order (failed before: "fell behind the feed trim" with no trim)', async () => {
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
