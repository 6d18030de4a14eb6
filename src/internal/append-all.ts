/**
 * Appends `items` to `target` one by one. `target.push(...items)` passes every item as an
 * argument on the stack, which throws `RangeError` from about 120,000 items in V8: a batch
 * that large (a history import, a live attempt of a multi-MiB write held for replay, a run of
 * tools a publication regroups) must not fail for its size. Internal: not re-exported.
 */
export function appendAll<T>(target: T[], items: readonly T[]): void {
  for (let i = 0; i < items.length; i++) target.push(items[i] as T);
}
