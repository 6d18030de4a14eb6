/**
 * A copy equal to a JSON round trip: what is kept is what a client will read, and callers
 * may mutate theirs. Plain objects, arrays, strings, finite numbers and booleans are copied
 * directly — strings are shared, not re-encoded (a JSON round trip of the demo's 3,507
 * events took most of recordAttempt's time: the 512 KiB write went through it twice);
 * anything else (a class instance, `toJSON`, a non-finite number, `__proto__`, a very deep
 * value) takes the JSON round trip itself, so the result is the same.
 */
export function jsonCopy<T>(value: T): T {
  const copied = plainCopy(value, 0);
  return (copied === notPlain ? JSON.parse(JSON.stringify(value)) : copied) as T;
}

const notPlain: unique symbol = Symbol('not plain');

function plainCopy(value: unknown, depth: number): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? (value === 0 ? 0 : value) : notPlain;
    case 'object': {
      if (value === null) return null;
      if (depth > 200) return notPlain;
      if (Array.isArray(value)) {
        const out: unknown[] = new Array(value.length);
        for (let i = 0; i < value.length; i++) {
          const item = plainCopy(value[i], depth + 1);
          if (item === notPlain || item === undefined) return notPlain;
          out[i] = item;
        }
        return out;
      }
      const prototype = Object.getPrototypeOf(value);
      if (prototype !== Object.prototype && prototype !== null) return notPlain;
      const record = value as Record<string, unknown>;
      if (typeof record.toJSON === 'function') return notPlain;
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(record)) {
        if (key === '__proto__') return notPlain;
        const field = record[key];
        // JSON drops these fields.
        if (field === undefined || typeof field === 'function' || typeof field === 'symbol') {
          continue;
        }
        const item = plainCopy(field, depth + 1);
        if (item === notPlain) return notPlain;
        out[key] = item;
      }
      return out;
    }
    default:
      return notPlain;
  }
}
