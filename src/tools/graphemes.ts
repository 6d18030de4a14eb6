import { DEV_MODE } from '../internal/dev-mode.js';
import { groupProbe } from './probe.js';

let segmenter: Intl.Segmenter | undefined;

/**
 * The extended grapheme clusters (UAX #29) of `text`, lazily, in order. Each one visited
 * is counted by the dev-mode probe (`./probe.ts`). Stop iterating to stop the work.
 */
export function* graphemes(text: string): Generator<Intl.SegmentData, void, undefined> {
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  if (DEV_MODE) groupProbe.passes++;
  for (const data of segmenter.segment(text)) {
    if (DEV_MODE) groupProbe.segments++;
    yield data;
  }
}

/**
 * `parts` joined into a string that shares no storage with them. V8 makes a substring of 13
 * or more units a slice that keeps its whole parent alive, and `join` hands back a lone
 * non-empty part as it is; joining two non-empty parts always allocates a flat copy.
 */
export function joinDetached(parts: readonly string[]): string {
  if (parts.length !== 1) return parts.join('');
  const text = parts[0] as string;
  return text.length < 2 ? text : [text.slice(0, 1), text.slice(1)].join('');
}
