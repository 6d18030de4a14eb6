/**
 * Freezes a plain value and everything in it, children first, so a frozen object never holds
 * a mutable child. Internal: not re-exported.
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
