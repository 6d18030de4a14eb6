/**
 * A list read by index, as a compose step reads the nodes it is lent: an array is one, and so
 * is the NodeAssembler's own list, which grows at the front without moving (`FrontList`).
 * `at(index)` is defined for 0 ≤ index < length.
 */
export interface ReadList<T> {
  readonly length: number;
  at(index: number): T | undefined;
}

/**
 * How a list of nodes differs from the last one given to the same reader, in three steps
 * applied in this order:
 *
 * 1. The front: the first `removed` nodes of the last list were replaced by the first `added`
 *    nodes of this one (an older history page: Contexts opened before everything published,
 *    and those whose opening moved among them).
 * 2. The end: the last `dropped` nodes of the last list by the last `appended` nodes of this
 *    one (a call or a response starting at the live end, an attempt settling: Contexts
 *    opened after everything published, and those near the end whose opening moved).
 *    Omitted counts are 0.
 * 3. Replaced: the nodes at the indexes `replaced` of this list (each ≥ `added` and
 *    < length − `appended`) are new nodes of the same Contexts (same kind and key).
 *
 * Every other node is the last list's, in the same order. `NodeAssembler` gives it to its
 * compose step as `NodeChanges` (every count given); the groups `Builder` reads it.
 */
export interface ListChanges {
  readonly removed: number;
  readonly added: number;
  readonly dropped?: number;
  readonly appended?: number;
  readonly replaced: readonly number[];
}
