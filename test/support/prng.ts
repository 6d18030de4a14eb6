/**
 * mulberry32, the seeded PRNG the tests derive fragment cuts, read schedules and sessions
 * from, so every failing case replays from its seed, and the benchmarks build byte-identical
 * inputs in every worker. (The data generators use the same generator in JavaScript:
 * scripts/seeded-random.mjs.) 32 bits of state: fine for fixtures, never for cryptography.
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

/** Picks one element of a non-empty list with `random` (a `prng`). */
export function pick<T>(random: () => number, items: readonly T[]): T {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error('pick() needs a non-empty list');
  return item;
}
