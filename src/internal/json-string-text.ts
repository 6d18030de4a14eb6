import { DEV_MODE } from './dev-mode.js';
import { internalProbe } from './probe.js';

// biome-ignore lint/suspicious/noControlCharactersInRegex: C0 controls must be escaped in JSON strings.
const needsEscape = /["\\\u0000-\u001f\ud800-\udfff]/;

/**
 * Decoded text written as the inside of a JSON string, as `JSON.stringify` writes it: `"`,
 * `\` and C0 controls escaped, and lone surrogates too (`\ud800`), so a surrogate pair split
 * between two texts written one by one is escaped apart, where the two joined would keep the
 * pair as it is. Internal: not re-exported.
 */
export function jsonStringText(text: string): string {
  if (DEV_MODE) internalProbe.escapes++;
  return needsEscape.test(text) ? JSON.stringify(text).slice(1, -1) : text;
}
