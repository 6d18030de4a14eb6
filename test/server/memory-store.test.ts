import { memoryStore } from '../../src/server/memory-store.js';
import { storeConformance } from './store-conformance.js';

storeConformance('memoryStore', async ({ leaseMs }) => {
  const store = memoryStore(leaseMs === undefined ? {} : { leaseMs, sweepMs: 50 });
  return { store, dispose: () => store.close() };
});
