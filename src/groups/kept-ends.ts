/**
 * What a Builder's `items` array keeps of the one the same Builder published just before it:
 * its first `prefix` and last `suffix` items are the same objects, in the same order
 * (`prefix + suffix` at most the shorter length). Undefined when `next` was not published
 * right after `previous` by one Builder (compare them by identity instead: `commonEnds`).
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
  const entry = entries.get(next);
  const base = entries.get(previous);
  if (entry?.kept === undefined || base === undefined || entry.kept.base !== base.serial) {
    return undefined;
  }
  return { prefix: entry.kept.prefix, suffix: entry.kept.suffix };
}

interface Entry {
  readonly serial: number;
  readonly kept:
    | { readonly base: number; readonly prefix: number; readonly suffix: number }
    | undefined;
}

const entries = new WeakMap<readonly unknown[], Entry>();
let nextSerial = 1;

/**
 * Records that `next` keeps the first `prefix` and last `suffix` items of `previous` (the
 * Builder, which knows which items it replaced). Internal: not re-exported.
 */
export function recordKeptEnds(
  next: readonly unknown[],
  previous: readonly unknown[],
  prefix: number,
  suffix: number,
): void {
  let base = entries.get(previous);
  if (base === undefined) {
    base = { serial: nextSerial++, kept: undefined };
    entries.set(previous, base);
  }
  entries.set(next, { serial: nextSerial++, kept: { base: base.serial, prefix, suffix } });
}

/**
 * The lengths of the longest common prefix and suffix of two lists, by identity, not
 * overlapping (`prefix + suffix ≤` the shorter length): one identity comparison per item
 * kept, and at most two more. What a view falls back to where `keptEnds` answers undefined (lists one Builder did
 * not publish one after the other, e.g. after skipping a publication).
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
