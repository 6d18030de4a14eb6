/**
 * Whether two arrays hold the same elements (`===`) in the same order: a published list that
 * did not change is kept, so that subscribers comparing by identity see no change.
 * Internal: not re-exported.
 */
export function sameElements<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
