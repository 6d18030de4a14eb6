/**
 * Invisible and direction-changing characters made visible, as editors and code hosts do:
 * each becomes a `<U+XXXX>` marker. Tool text is untrusted, and without this
 * `invoice<U+202E>gpj.sh` draws as "invoicehs.jpg" and `/etc/pass<U+200B>wd` as
 * "/etc/passwd" (Trojan Source, CVE-2021-42574). Only what a row or group shows is
 * rewritten: events such as `tool-open-path` carry the real text.
 *
 * Marked: the bidirectional controls (U+061C, U+200E–U+200F, U+202A–U+202E, U+2066–U+2069),
 * zero-width and invisible characters (U+00AD, U+034F, U+115F–U+1160, U+17B4–U+17B5, U+180E,
 * U+200B–U+200D, U+2060–U+2064, U+3164, U+FEFF, U+FFA0), the tag characters
 * (U+E0000–U+E007F) and line/paragraph separators (U+2028–U+2029). A zero-width joiner
 * between two pictographs (an emoji sequence such as 👩‍💻) is kept.
 */
export function visibleText(text: string): string {
  if (!HIDDEN_TEST.test(text)) return text;
  return text.replace(HIDDEN, (char, offset: number) =>
    char === ZWJ && joinsEmoji(text, offset) ? char : marker(char),
  );
}

/** `visibleText` of an optional text. */
export function visibleOptional(text: string | undefined): string | undefined {
  return text === undefined ? undefined : visibleText(text);
}

const CLASS =
  '\\u00AD\\u034F\\u061C\\u115F\\u1160\\u17B4\\u17B5\\u180E\\u200B-\\u200F\\u2028-\\u202E\\u2060-\\u2064\\u2066-\\u2069\\u3164\\uFEFF\\uFFA0\\u{E0000}-\\u{E007F}';
const HIDDEN_TEST = new RegExp(`[${CLASS}]`, 'u');
const HIDDEN = new RegExp(`[${CLASS}]`, 'gu');
const ZWJ = '\u200D';
const PICTOGRAPH_BEFORE = /\p{Extended_Pictographic}[\u{FE0F}\u{1F3FB}-\u{1F3FF}]?$/u;
const PICTOGRAPH_AFTER = /^\p{Extended_Pictographic}/u;

function joinsEmoji(text: string, offset: number): boolean {
  return (
    PICTOGRAPH_BEFORE.test(text.slice(Math.max(0, offset - 4), offset)) &&
    PICTOGRAPH_AFTER.test(text.slice(offset + 1, offset + 3))
  );
}

function marker(char: string): string {
  const code = (char.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0');
  return `<U+${code}>`;
}
