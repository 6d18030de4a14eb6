/**
 * The values of a call's argument JSON text where they sit in the text: what an encoder needs
 * to send the arguments value by value (Vertex AI's `partialArgs`) at the times the recorded
 * text arrived. The text may be cut (a response its token limit stopped): the values before
 * the cut are read, and a string the cut fell inside is `open`.
 */

/** One value of the arguments, at a JSON path (`$.a.b[0]`). */
export interface Leaf {
  readonly path: string;
  /** A string's content (between its quotes), or a scalar or empty container's whole text. */
  readonly kind: 'string' | 'scalar' | 'object' | 'array';
  readonly start: number;
  /** Where it ends in the text (exclusive); a string's closing quote is at `end`. */
  readonly end: number;
  /** A string the text was cut inside. */
  readonly open: boolean;
}

const identifier = /^[A-Za-z_][A-Za-z0-9_]*$/;
const scalar = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null/y;

/** The leaves of `text` in text order; stops where the text is cut or is not JSON. */
export function leavesOf(text: string): Leaf[] {
  const leaves: Leaf[] = [];
  let i = 0;
  const space = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i] as string)) i++;
  };
  /** Reads a string at `i` (its opening quote); returns its content's end, or -1 when cut. */
  const string = (): number => {
    i++;
    while (i < text.length) {
      const c = text[i];
      if (c === '\\') i += 2;
      else if (c === '"') return i++;
      else i++;
    }
    return -1;
  };
  const value = (path: string): boolean => {
    space();
    const c = text[i];
    if (c === undefined) return false;
    if (c === '"') {
      const start = i + 1;
      const end = string();
      leaves.push({
        path,
        kind: 'string',
        start,
        end: end === -1 ? text.length : end,
        open: end === -1,
      });
      return end !== -1;
    }
    if (c === '{' || c === '[') {
      const start = i++;
      space();
      const close = c === '{' ? '}' : ']';
      if (text[i] === close) {
        leaves.push({ path, kind: c === '{' ? 'object' : 'array', start, end: ++i, open: false });
        return true;
      }
      for (let n = 0; ; n++) {
        let member = `${path}[${n}]`;
        if (c === '{') {
          space();
          if (text[i] !== '"') return false;
          const keyStart = i + 1;
          const keyEnd = string();
          if (keyEnd === -1) return false;
          const key = JSON.parse(text.slice(keyStart - 1, keyEnd + 1)) as string;
          member = identifier.test(key) ? `${path}.${key}` : `${path}['${key}']`;
          space();
          if (text[i++] !== ':') return false;
        }
        if (!value(member)) return false;
        space();
        if (text[i] === ',') i++;
        else if (text[i] === close) return ++i > 0;
        else return false;
      }
    }
    scalar.lastIndex = i;
    const match = scalar.exec(text);
    if (!match || i + match[0].length >= text.length) return false;
    leaves.push({ path, kind: 'scalar', start: i, end: i + match[0].length, open: false });
    i += match[0].length;
    return true;
  };
  value('$');
  return leaves;
}

/**
 * Where to cut a string's raw content at `at` so no escape sequence is split: `at`, or the
 * start of the escape it falls inside. `from` is a cut made before (no escape spans it).
 */
export function safeCut(raw: string, from: number, at: number): number {
  let i = from;
  while (i < at) {
    if (raw[i] !== '\\') {
      i++;
      continue;
    }
    const length = raw[i + 1] === 'u' ? 6 : 2;
    if (i + length > at) return i;
    i += length;
  }
  return at;
}

/** The text of a string's raw content (escapes read), for a piece cut by `safeCut`. */
export function decoded(raw: string): string {
  return JSON.parse(`"${raw}"`) as string;
}
