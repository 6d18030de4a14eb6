/** Defensive readers for provider chunks: a chunk is untrusted JSON, any field may be missing. */
import { isRecord } from '../internal/is-record.js';

export { isRecord };

/** `record[key]` when it is an object, else undefined. */
export function field(
  record: Record<string, unknown>,
  key: string,
): Record<string, unknown> | undefined {
  const value = record[key];
  return isRecord(value) ? value : undefined;
}

/** `value` when it is an array, else an empty one. */
export function list(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}

/** `value` when it is a non-empty string, else undefined. */
export function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
