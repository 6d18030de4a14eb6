/**
 * Work counters for groups, for tests and benchmarks that guard the detail's bounded cost.
 *
 * Not part of the public API (not re-exported from the package index), and absent from the
 * published build: every increment is guarded by `DEV_MODE` (src/internal/dev-mode.ts), which
 * `npm run build` strips. Each counter only grows; read it before and after the operation
 * under test.
 */
export const groupProbe = {
  /** Grapheme clusters visited through `graphemes()`. */
  segments: 0,
  /** Segmentation passes: calls of `graphemes()`. */
  passes: 0,
  /** Tool details computed (by the Builder or by a direct call). */
  details: 0,
  /** Nodes the Builder visited to place them in items and groups. */
  composed: 0,
  /** Entries a tools map copied (a new `ToolMap` base or overlay). */
  toolEntries: 0,
};
