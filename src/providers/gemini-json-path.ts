/** The JSON paths of Vertex AI's streamed function-call arguments (`$.recipe.steps[0]`). */

/** The most path segments a value may sit under (`$.a.b[0].c` is 4). */
export const MAX_PATH_DEPTH = 64;
/** The longest `jsonPath` read, in characters. */
export const MAX_PATH_LENGTH = 4096;

/** An object key, or an array index. */
export type Segment = string | number;

/**
 * `$.a.b[0]['c d']` as segments; a trailing `[]` (an empty array's path) sets `array`.
 * Returns why when the path is malformed or out of bounds.
 */
export function parsePath(path: string): { segments: Segment[]; array: boolean } | string {
  if (path.length > MAX_PATH_LENGTH) return 'jsonPath too long';
  if (path.charCodeAt(0) !== 36 /* $ */) return 'jsonPath does not start with $';
  const segments: Segment[] = [];
  let array = false;
  let i = 1;
  while (i < path.length) {
    if (segments.length >= MAX_PATH_DEPTH) return 'jsonPath too deep';
    const c = path[i];
    if (c === '.') {
      let end = i + 1;
      while (end < path.length && path[end] !== '.' && path[end] !== '[') end++;
      if (end === i + 1) return 'empty key in jsonPath';
      segments.push(path.slice(i + 1, end));
      i = end;
    } else if (c === '[') {
      const q = path[i + 1];
      if (q === "'" || q === '"') {
        const end = path.indexOf(`${q}]`, i + 2);
        if (end === -1) return 'unclosed key in jsonPath';
        segments.push(path.slice(i + 2, end));
        i = end + 2;
      } else if (q === ']' && i + 2 === path.length) {
        array = true;
        i += 2;
      } else {
        const end = path.indexOf(']', i + 1);
        const digits = end === -1 ? '' : path.slice(i + 1, end);
        if (!/^\d{1,9}$/.test(digits)) return 'bad index in jsonPath';
        segments.push(Number(digits));
        i = end + 1;
      }
    } else {
      return 'unexpected character in jsonPath';
    }
  }
  if (segments.length === 0) return 'jsonPath names no key';
  if (typeof segments[0] === 'number') return 'jsonPath indexes the arguments object';
  return { segments, array };
}
