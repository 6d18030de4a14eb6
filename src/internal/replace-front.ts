/**
 * Replaces the first `removed` items of `list` with `added`, in place: the engine moves the
 * rest within the list's storage, where a new list would allocate one as large (a large
 * object, once a list passes ~16,000 items, that a long session paid per history page).
 */
export function replaceFront<T>(list: T[], removed: number, added: readonly T[]): void {
  if (added.length <= 4096) {
    list.splice(0, removed, ...added);
    return;
  }
  const rest = list.slice(removed);
  list.length = 0;
  for (const item of added) list.push(item);
  for (const item of rest) list.push(item);
}
