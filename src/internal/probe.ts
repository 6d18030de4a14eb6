/**
 * Work counters for the internal helpers, for tests and benchmarks that guard costs which
 * must not grow with the session.
 *
 * Not part of the public API (not re-exported from the package index), and absent from the
 * published build: every increment is guarded by `DEV_MODE` (src/internal/dev-mode.ts), which
 * `npm run build` strips. Each counter only grows; read it before and after the operation
 * under test.
 */
export const internalProbe = {
  /** Items a `FrontList` or `ChunkedItems` copied to make room, or to publish a snapshot. */
  moved: 0,
  /** Texts escaped as the inside of a JSON string (`jsonStringText`). */
  escapes: 0,
};
