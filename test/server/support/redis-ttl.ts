import type { Cluster, Redis } from 'ioredis';
import type { DrivenClock } from '../../support/driven-clock.js';

/**
 * Time passing for Redis as it passes for a store on a driven clock: Redis expires keys by its
 * own wall clock, so every key of the store loses `ms` of its TTL, in twelve steps (at least
 * 50 ms each), the store's clock (its renewals) moving along step by step.
 */
export async function elapseKeys(
  admin: Redis | Cluster,
  keys: () => Promise<readonly string[]>,
  clock: DrivenClock | undefined,
  ms: number,
): Promise<void> {
  const size = Math.max(50, Math.ceil(ms / 12));
  for (let passed = 0; passed < ms; passed += size) {
    const step = Math.min(size, ms - passed);
    await clock?.advance(step);
    for (const key of await keys()) {
      const left = await admin.pttl(key);
      if (left >= 0) await admin.pexpire(key, left - step);
    }
  }
}
