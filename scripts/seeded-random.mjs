// mulberry32: a small 32-bit PRNG for the generators of recorded data (a fixed seed fixes
// every byte they write). test/support/prng.ts (tests and benchmarks) is the same generator in TypeScript.
/**
 * @param {number} seed
 * @returns {() => number} numbers in [0, 1)
 */
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A seeded source with the helpers the generators share: `random()` in [0, 1), `between`
 * (inclusive integers), `pick` (one element of a list), `id` (a prefix and `length`
 * alphanumerics). `reseed` restarts the sequence from another seed, so a generator can give
 * each part its own seed and stay byte-identical when another part changes.
 * @param {number} seed
 */
export function seeded(seed) {
  let next = prng(seed);
  const random = () => next();
  /** @type {(low: number, high: number) => number} */
  const between = (low, high) => low + Math.floor(random() * (high - low + 1));
  /**
   * @template T
   * @param {ArrayLike<T>} list not empty
   * @returns {T}
   */
  const pick = (list) => /** @type {T} */ (list[Math.floor(random() * list.length)]);
  /** @type {(prefix: string, length: number) => string} */
  const id = (prefix, length) => {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
    let out = prefix;
    for (let i = 0; i < length; i++) out += pick(alphabet);
    return out;
  };
  /** @param {number} other */
  const reseed = (other) => {
    next = prng(other);
  };
  return { random, between, pick, id, reseed };
}
