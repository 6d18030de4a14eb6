/**
 * What a Builder's `items` array keeps of the one the same Builder published before it: its
 * first `prefix` and last `suffix` items are the same objects, in the same order (`prefix +
 * suffix` at most the shorter length). `previous` is the `items` of the last publication whose
 * `items` had been read when `next`'s was published (a Grouping of more than 256 items makes
 * its `items` array when first read, so a view that skips publications still learns the ends
 * across them; a shorter array is made at once and counts as read), or of the publication
 * just before. Undefined otherwise (compare them by identity instead:
 * `commonEnds`).
 *
 * A view of a long session uses it to find the stretch that changed without comparing every
 * item (`<tool-timeline>` re-renders only the chunks over it): O(1).
 *
 * The ends are what the Builder knows it kept, not necessarily the longest common ones: an
 * item it regrouped may be equal to the one it replaced. The record names lists by serial
 * number and never holds them, so it keeps no published array alive.
 *
 * @example
 * const ends = keptEnds(shown.items, next.items);
 * // re-render next.items.slice(ends.prefix, next.items.length - ends.suffix) only
 */
export function keptEnds(
  previous: readonly unknown[],
  next: readonly unknown[],
): { readonly prefix: number; readonly suffix: number } | undefined {
  const base = entries.get(previous);
  if (base === undefined) return undefined;
  const kept = entries.get(next)?.kept.find((k) => k.base === base.serial);
  return kept && { prefix: kept.prefix, suffix: kept.suffix };
}

/** That a list keeps the first `prefix` and last `suffix` items of the list numbered `base`. */
export interface Kept {
  readonly base: number;
  readonly prefix: number;
  readonly suffix: number;
}

/** A list's serial number (`listSerial`) and what it keeps of the lists it names. */
export interface KeptRecord {
  readonly serial: number;
  readonly kept: readonly Kept[];
}

const entries = new WeakMap<readonly unknown[], KeptRecord>();
let nextSerial = 1;

/** A serial number for a list that `recordKeptEnds` may record later (as `next` or as a base). */
export function listSerial(): number {
  return nextSerial++;
}

/**
 * Records `next`'s serial number and the ends it keeps of the lists they name (the Builder,
 * which knows which items it replaced). Internal: not re-exported.
 */
export function recordKeptEnds(next: readonly unknown[], record: KeptRecord): void {
  entries.set(next, record);
}

/**
 * The lengths of the longest common prefix and suffix of two lists, by identity, not
 * overlapping (`prefix + suffix ≤` the shorter length): one identity comparison per item
 * kept, and at most two more. What a view falls back to where `keptEnds` answers undefined (lists one Builder did
 * not publish one after the other, e.g. after skipping a publication whose items someone
 * else read).
 *
 * @example
 * const { prefix, suffix } = keptEnds(shown.items, next.items) ?? commonEnds(shown.items, next.items);
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
