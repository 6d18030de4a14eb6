/**
 * mulberry32, the seeded PRNG the tests derive fragment cuts, read schedules and sessions
 * from, so every failing case replays from its seed. (The benchmarks and the data generators
 * use the same generator: bench/support/prng.ts, scripts/seeded-random.mjs.)
 */
export function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
