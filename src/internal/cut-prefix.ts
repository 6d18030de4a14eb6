import { isHighSurrogate, isLowSurrogate } from './surrogates.js';

/**
 * The first `units` code units of a text, never ending in a high surrogate whose low half is
 * cut off. `more` says the text may continue past its end with units not known yet (a value
 * still streaming), so a high surrogate at its very end is held back too. The argument
 * reader's prefixes and the group details' prefixes both cut here. Internal: not re-exported.
 */
export function cutPrefix(text: string, units: number, more: boolean): string {
  if (text.length <= units) {
    return more && isHighSurrogate(text.charCodeAt(text.length - 1)) ? text.slice(0, -1) : text;
  }
  const cut = text.slice(0, units);
  const split =
    isHighSurrogate(cut.charCodeAt(units - 1)) && isLowSurrogate(text.charCodeAt(units));
  return split ? cut.slice(0, -1) : cut;
}
