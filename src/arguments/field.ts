/** The JSON type of an argument value, known from its first character. */
export type ArgumentKind = 'string' | 'number' | 'boolean' | 'null' | 'object' | 'array';

/**
 * Decoding progress over a string value: `pos` is the raw offset reached, `units` the
 * decoded UTF-16 units before it and `last` the last decoded unit (-1 before any).
 * A text cursor also keeps the decoded text (`text.length === units`).
 */
export interface Cursor {
  pos: number;
  units: number;
  last: number;
  text: string | null;
}

/** One top-level value of the argument object, found by the boundary scanner. */
export interface Field {
  readonly key: string;
  /** Global offset of the value's first character. */
  readonly start: number;
  /** Global offset just past the value's last character; -1 while the value is open. */
  end: number;
  /** undefined when the value starts with a character no JSON value starts with. */
  readonly kind: ArgumentKind | undefined;
  /** For a string: offset of its first backslash seen so far, -1 if none. */
  firstEscape: number;
  /** A content error found in this value by indexing or by a read. */
  error: Error | null;
  /** Native decoding of the complete value, once read. */
  parsed: { readonly value: unknown } | null;
  length: Cursor | null;
  text: Cursor | null;
}

export function kindOf(code: number): ArgumentKind | undefined {
  switch (code) {
    case 0x22:
      return 'string';
    case 0x7b:
      return 'object';
    case 0x5b:
      return 'array';
    case 0x74:
    case 0x66:
      return 'boolean';
    case 0x6e:
      return 'null';
    default:
      return code === 0x2d || (code >= 0x30 && code <= 0x39) ? 'number' : undefined;
  }
}

export function kindOfValue(value: unknown): ArgumentKind | undefined {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  switch (typeof value) {
    case 'string':
    case 'number':
    case 'boolean':
    case 'object':
      return typeof value as ArgumentKind;
    default:
      return undefined;
  }
}

/** A native parse error, placed: which key, and where its value starts in the whole text. */
export function valueError(field: Field, error: unknown): SyntaxError {
  const reason = error instanceof Error ? error.message : String(error);
  return new SyntaxError(`Invalid value of "${field.key}" (at position ${field.start}): ${reason}`);
}
