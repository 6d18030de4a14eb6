import { cutPrefix } from '../internal/cut-prefix.js';
import { graphemes, joinDetached } from './graphemes.js';

/** Grapheme clusters a detail shows before "…". */
export const DETAIL_CLUSTERS = 160;
/** The first decoded prefix a detail reads, in UTF-16 units. */
export const DETAIL_PREFIX = 512;
/**
 * The longest prefix a detail grows to, which bounds the work for pathological text. A text
 * whose first 65,536 units still leave the answer open (whitespace, or clusters hundreds of
 * units long, all the way) shows what they hold followed by "…", or counts as empty when they
 * hold only whitespace.
 */
export const DETAIL_PREFIX_LIMIT = 65_536;

const ELLIPSIS = '…';
/** Whitespace and control characters: each run becomes one space. */
const SPACE = /[\s\p{Cc}]+/gu;

/** At most `units` UTF-16 units of a text from its start; undefined when there is no text. */
export type PrefixReader = (units: number) => string | undefined;

/**
 * How much of the text a prefix is: all of it (so far), a part the answer may need more of,
 * or a part past which no more is read.
 */
enum Reach {
  Whole,
  Cut,
  Capped,
}

/** The prefix collapsed: runs of whitespace as one space, none leading, none trailing unless cut. */
function collapse(prefix: string, reach: Reach): string {
  let text = prefix.replace(SPACE, ' ');
  if (text.startsWith(' ')) text = text.slice(1);
  if (reach !== Reach.Cut && text.endsWith(' ')) text = text.slice(0, -1);
  return text;
}

/**
 * The detail a prefix decides, or undefined when a longer prefix is needed: '' for no text.
 *
 * Grapheme boundaries depend on what precedes them and on the next character only, so in a
 * cut prefix every cluster but the last is final. The first 160 clusters are settled once a
 * 161st has started; the detail is cut ("…") unless that 161st is a trailing space, which
 * more whitespace or the end of the text may still remove. A text of at most 160 units has at
 * most 160 clusters: it is never segmented. One pass visits at most 161 clusters.
 *
 * The string handed to the segmenter is itself bounded, not only the iteration: in Node 20
 * (V8 11) each step of an Intl.Segmenter iterator costs time proportional to the length of
 * the whole string, so segmenting a 10 MiB field up to its 161st cluster takes seconds.
 */
function decide(prefix: string, reach: Reach): string | undefined {
  const text = collapse(prefix, reach);
  if (text.length <= DETAIL_CLUSTERS) {
    if (reach === Reach.Cut) return undefined;
    if (reach === Reach.Capped && text.length > 0) return joinDetached([text, ELLIPSIS]);
    return joinDetached([text]);
  }
  const parts: string[] = [];
  for (const { segment, index } of graphemes(text)) {
    if (parts.length === DETAIL_CLUSTERS) {
      if (reach === Reach.Cut && segment === ' ' && index + 1 === text.length) return undefined;
      parts.push(ELLIPSIS);
      return parts.join('');
    }
    parts.push(segment);
  }
  if (reach === Reach.Cut) return undefined;
  if (reach === Reach.Capped) parts.push(ELLIPSIS);
  return joinDetached(parts);
}

/**
 * The detail of a text read by prefixes: a 512-unit prefix, doubled while whitespace or
 * multi-unit clusters leave the answer undecided, up to DETAIL_PREFIX_LIMIT. Undefined when
 * there is no text or it collapses to nothing.
 */
export function detailOfPrefixes(read: PrefixReader): string | undefined {
  for (let units = DETAIL_PREFIX; ; units *= 2) {
    const prefix = read(units);
    if (prefix === undefined) return undefined;
    // A prefix one unit short may have stopped before a surrogate pair: count it as cut.
    const cut = prefix.length >= units - 1;
    const reach = !cut ? Reach.Whole : units >= DETAIL_PREFIX_LIMIT ? Reach.Capped : Reach.Cut;
    const detail = decide(prefix, reach);
    if (detail !== undefined) return detail === '' ? undefined : detail;
  }
}

/** Prefixes of a string already in memory, never ending inside a surrogate pair. */
export function prefixesOf(text: string): PrefixReader {
  return (units) => cutPrefix(text, units, false);
}

/**
 * The one-line form of any text, as a group detail shows it: whitespace and control
 * characters collapsed to single spaces and trimmed, at most 160 grapheme clusters, then "…"
 * when cut. Reads at most the prefix the answer needs; the result shares no storage with
 * `text`.
 */
export function detailText(text: string): string {
  return detailOfPrefixes(prefixesOf(text)) ?? '';
}
