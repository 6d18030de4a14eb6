import { after, before } from 'node:test';
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
