/**
 * Work counters for the Assembler, for tests and benchmarks that guard costs which must not
 * grow with the session.
 *
 * Not part of the public API (not re-exported from the package index), and absent from the
 * published build: every increment is guarded by `DEV_MODE` (src/internal/dev-mode.ts), which
 * `npm run build` strips. Each counter only grows; read it before and after the operation
 * under test.
 */
export const assemblerProbe = {
  /** Anchors a binary search of `Places` visited to place a durable event between two held ones. */
  anchors: 0,
  /** Durable seqs `Places` looked up or added to what it holds. */
  seqs: 0,
  /** Contexts put in log order by a publication (sorted, or merged at the front). */
  ordered: 0,
  /** Contexts visited to list every node afresh for `compose`. */
  listed: 0,
  /** Events taken at the live end (by `push`, or by `assemble()` from an adapter), after validation. */
  received: 0,
  /** Events validated (`parseEvent`) on their way in: by `push`, `prepend` or `assemble()`. */
  validated: 0,
  /** Microtasks queued by the clock of `push` to forget its reading at the end of the task. */
  clockTasks: 0,
  /** Continuations an adapter wrote to `assemble()`'s direct path (none while it holds a run). */
  continuations: 0,
};
