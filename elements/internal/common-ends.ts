/**
 * The lengths of the longest common prefix and suffix of two lists, by identity, not
 * overlapping (`prefix + suffix ≤` the shorter length): one comparison per element kept.
 * The elements' copy of the core's internal helper (src/groups/kept-ends.ts), which is too
 * small to be public API.
 */
export function commonEnds(
  a: readonly unknown[],
  b: readonly unknown[],
): { prefix: number; suffix: number } {
  const shorter = Math.min(a.length, b.length);
  let prefix = 0;
  while (prefix < shorter && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (suffix < shorter - prefix && a[a.length - 1 - suffix] === b[b.length - 1 - suffix]) {
    suffix++;
  }
  return { prefix, suffix };
}
