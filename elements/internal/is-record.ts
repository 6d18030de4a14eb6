/**
 * A non-null object that is not an array: what a tool's untrusted arguments or output must
 * be before their fields are read. The elements' own copy of `src/internal/is-record.ts`:
 * elements import only the public API (`src/index.ts`), and a three-line guard is not worth
 * making public. Helpers shared by several elements live here, in `elements/internal/`, one
 * per file.
 */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
