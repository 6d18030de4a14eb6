/**
 * `JSON.stringify(value)` that never overflows the stack: the native writer, and where it
 * fails, the same text written without recursion (see `jsonTextWithoutRecursion`). V8's
 * JSON.stringify recurses and overflows near 5,000 levels, while `JSON.parse` builds far
 * deeper values from a few kilobytes of untrusted text; callfold writes untrusted values
 * with this.
 *
 * Throws a `TypeError` for a cyclic value or a BigInt (without a `toJSON`), as
 * JSON.stringify does, with a message of its own. Internal: not part of the public API.
 */
export function jsonText(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return jsonTextWithoutRecursion(value);
  }
}

/**
 * JSON.stringify's text for any value it accepts (`toJSON`, boxed primitives, `undefined`
 * and functions dropped from objects and written as `null` in arrays, non-finite numbers as
 * `null`), at any depth, with an explicit stack. A `TypeError` for a cycle or a BigInt; an
 * exception from a getter, a `toJSON` or a Proxy trap is passed on.
 */
export function jsonTextWithoutRecursion(value: unknown): string | undefined {
  const first = write({ '': value }, '');
  if (!(first instanceof Frame)) return first;
  const ancestors = new Set<object>([first.value]);
  const stack: Frame[] = [first];
  for (;;) {
    const frame = stack[stack.length - 1] as Frame;
    if (frame.index < frame.count) {
      const key = frame.keys ? (frame.keys[frame.index] as string) : String(frame.index);
      frame.index++;
      const text = write(frame.value, key);
      if (text instanceof Frame) {
        if (ancestors.has(text.value)) throw new TypeError('cannot write a cyclic value as JSON');
        ancestors.add(text.value);
        text.key = key;
        stack.push(text);
      } else {
        frame.add(key, text);
      }
      continue;
    }
    stack.pop();
    ancestors.delete(frame.value);
    const text = frame.close();
    const parent = stack[stack.length - 1];
    if (parent === undefined) return text;
    parent.add(frame.key, text);
  }
}

/** An object or array being written: its keys (null for an array) and the parts so far. */
class Frame {
  readonly value: object;
  readonly keys: readonly string[] | null;
  readonly count: number;
  index = 0;
  key = '';
  readonly #parts: string[] = [];

  constructor(value: object) {
    this.value = value;
    if (Array.isArray(value)) {
      this.keys = null;
      this.count = value.length;
    } else {
      this.keys = Object.keys(value);
      this.count = this.keys.length;
    }
  }

  add(key: string, text: string | undefined): void {
    if (this.keys === null) this.#parts.push(text ?? 'null');
    else if (text !== undefined) this.#parts.push(`${JSON.stringify(key)}:${text}`);
  }

  close(): string {
    const body = this.#parts.join(',');
    return this.keys === null ? `[${body}]` : `{${body}}`;
  }
}

/** The text of `holder[key]` when it is a primitive (undefined: left out), else its Frame. */
function write(holder: object, key: string): string | undefined | Frame {
  let value: unknown = (holder as Record<string, unknown>)[key];
  if ((typeof value === 'object' && value !== null) || typeof value === 'bigint') {
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') value = toJSON.call(value, key);
  }
  if (value instanceof Number) value = Number(value);
  else if (value instanceof String) value = String(value);
  else if (value instanceof Boolean || value instanceof BigInt) value = value.valueOf();
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      throw new TypeError('cannot write a BigInt as JSON');
    case 'object':
      return value === null ? 'null' : new Frame(value);
    default:
      return undefined;
  }
}
