/**
 * A non-null object that is not an array: what untrusted JSON (a provider chunk, an event,
 * tool arguments) must be before its fields are read. Internal: not re-exported.
 * (The elements keep their own copy, `elements/internal/is-record.ts`: they may import only
 * the public API.)
 */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
