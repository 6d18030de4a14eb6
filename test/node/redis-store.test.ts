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
