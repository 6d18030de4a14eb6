/**
 * Work counters for PartialArguments, for tests and benchmarks that guard laziness.
 *
 * Not part of the public API (not re-exported from the package index), and absent from the
 * published build: every increment is guarded by `DEV_MODE` (src/internal/dev-mode.ts), which
 * `npm run build` strips. Each counter only grows; read it before and after the operation
 * under test.
 */
export const argumentProbe = {
  /** Characters the boundary scanner has indexed. */
  scanned: 0,
  /** Raw characters a string cursor has walked (for a length, a text or a prefix). */
  decoded: 0,
  /** Raw characters of a string whose length is being read, counted by the scanner as it passes. */
  counted: 0,
  /** Native JSON.parse calls on a value range or a whole text. */
  parsed: 0,
  /** Characters of an authoritative text compared with the fragments received (`seal`, `absorb`). */
  compared: 0,
  /** Fragments an ArgumentSource copied into a chunk joined with others (`join`). */
  joined: 0,
};
