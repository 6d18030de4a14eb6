/**
 * Free-form input (`input: 'text'`, e.g. an OpenAI custom tool's patch) shown through the
 * ordinary argument reader: the raw text becomes the JSON object `{"input":"…"}`, so rows and
 * groups read it as the string field `input` (`text`, `textPrefix`, `stringLength`) and it
 * streams, is measured and grouped like any other call.
 *
 * The encoding is per character, so encoding fragments one by one gives exactly the encoding
 * of their concatenation: the streamed reader and the authoritative text agree, and sealing
 * keeps the reader's index. Lone surrogates stay raw (JSON allows them inside strings, and the
 * reader never shows a high surrogate whose pair has not arrived), which is why this is not
 * `JSON.stringify`: it escapes a lone surrogate, and a pair split across two fragments would
 * then encode differently from the whole.
 */

/** The encoded text's opening, before the first fragment. */
export const inputOpening = '{"input":"';

/** The encoded text's closing, after the last fragment. */
export const inputClosing = '"}';

// biome-ignore lint/suspicious/noControlCharactersInRegex: C0 controls must be escaped in JSON strings.
const needsEscape = /["\\\u0000-\u001f]/g;

function escapeUnit(unit: string): string {
  if (unit === '"') return '\\"';
  if (unit === '\\') return '\\\\';
  return `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** One fragment of free-form text, as the inside of a JSON string. */
export function encodeInputFragment(fragment: string): string {
  return fragment.replace(needsEscape, escapeUnit);
}

/** The whole free-form text as the argument object text `{"input":"…"}`. */
export function encodeInput(text: string): string {
  return inputOpening + encodeInputFragment(text) + inputClosing;
}
