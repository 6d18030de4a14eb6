// mulberry32: a small 32-bit PRNG for the generators of recorded data (a fixed seed fixes
// every byte they write). bench/support/prng.ts is the same generator for TypeScript.
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
