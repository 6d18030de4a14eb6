/** A run of consecutive elements of a list. */
export interface Run<T> {
  readonly items: readonly T[];
}

/** What `recut` replaced: `removed` runs from index `head` gave way to `added`. */
export interface Recut<R> {
  readonly head: number;
  readonly removed: readonly R[];
  readonly added: readonly R[];
}

/**
 * Re-cuts the runs of a list of `total` elements after the elements between its first
 * `prefix` and its last `suffix` were replaced by `replacement`: `runs` (in order, each of
 * at most `size` elements, concatenating to the old list) is changed in place so that it
 * concatenates to the new list.
 *
 * Invariants:
 * 1. Only the runs over the replaced stretch are cut again, from the first of them, into
 *    runs of `size` (the last of them possibly shorter); the others stay the same objects.
 *    A re-cut that starts inside a run keeps that run's first element first.
 * 2. Elements added right after a run shorter than `size` join it (it is cut again): a list
 *    that grows by appends keeps runs of `size`, not one run per append.
 * 3. The work is the distance from the nearer end of the list to the stretch, in runs, plus
 *    the elements of the runs cut again: appending or replacing the last element touches the
 *    last run or two, whatever the length of the list.
 */
export function recut<T, R extends Run<T>>(
  runs: R[],
  total: number,
  prefix: number,
  suffix: number,
  replacement: readonly T[],
  size: number,
  make: (items: T[], replaced: readonly R[]) => R,
): Recut<R> {
  const cut = total - suffix;
  // `head`: the runs wholly inside the prefix, counted from the nearer end.
  let head: number;
  let headStart: number;
  if (prefix <= total - prefix) {
    head = 0;
    headStart = 0;
    for (let length = runs[0]?.items.length ?? 0; head < runs.length; ) {
      if (headStart + length > prefix) break;
      headStart += length;
      head++;
      length = runs[head]?.items.length ?? 0;
    }
  } else {
    head = runs.length;
    headStart = total;
    while (head > 0 && headStart > prefix) {
      head--;
      headStart -= (runs[head] as R).items.length;
    }
  }
  if (head > 0 && headStart === prefix && replacement.length > 0) {
    const before = (runs[head - 1] as R).items.length;
    if (before < size) {
      head--;
      headStart -= before;
    }
  }
  // The runs from `head` up to the first one wholly inside the suffix are cut again.
  let tail = head;
  for (let start = headStart; tail < runs.length && start < cut; tail++) {
    start += (runs[tail] as R).items.length;
  }
  const removed = runs.slice(head, tail);
  const stretch: T[] = [];
  let at = headStart;
  for (const run of removed) {
    for (const element of run.items) {
      if (at === prefix) for (const x of replacement) stretch.push(x);
      if (at < prefix || at >= cut) stretch.push(element);
      at++;
    }
  }
  if (at <= prefix) for (const x of replacement) stretch.push(x);
  const added: R[] = [];
  for (let start = 0; start < stretch.length; start += size) {
    added.push(make(stretch.slice(start, start + size), removed));
  }
  replaceRange(runs, head, removed.length, added);
  return { head, removed, added };
}

/** `array.splice(start, deleteCount, ...insert)`, without an argument per inserted element. */
function replaceRange<R>(array: R[], start: number, deleteCount: number, insert: readonly R[]) {
  if (insert.length <= 1024) {
    array.splice(start, deleteCount, ...insert);
    return;
  }
  const rest = array.slice(start + deleteCount);
  array.length = start;
  for (const element of insert) array.push(element);
  for (const element of rest) array.push(element);
}
