import { sameElements } from '../internal/same-elements.js';

/**
 * Memoizes a list by element identity: returns the list it returned last when `next` holds
 * the same objects in the same order, otherwise `next`, frozen. With structurally shared
 * nodes, "same elements" is exactly "nothing selected changed", so a list selector followed
 * by `distinctUntilChanged()` emits only when a selected node did.
 */
export function stableList<T>(): (next: T[]) => readonly T[] {
  let last: readonly T[] | undefined;
  return (next) => {
    if (last && sameElements(last, next)) return last;
    last = Object.freeze(next);
    return last;
  };
}
