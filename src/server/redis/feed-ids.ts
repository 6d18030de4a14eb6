/** Feed entry IDs and fields of `redisStore` (see scripts.ts for the layout). */
import type { CallfoldEvent } from '../../events/types.js';

export type Entry = [id: string, fields: string[]];
export type ReadReply = [key: string, entries: Entry[]][] | null;

/**
 * Whether feed entry `id` comes right after `previous`. Every feed ID is `<seq>-<n>`: a
 * durable event is `<seq>-0` and the stream events written after it `<seq>-1`, `<seq>-2`…,
 * all numbered inside the scripts, so the feed has no hole unless MAXLEN trimmed it.
 */
export function follows(id: string, previous: string): boolean {
  const [seq = 0, n = 0] = id.split('-').map(Number);
  const [lastSeq = 0, lastN = 0] = previous.split('-').map(Number);
  return (seq === lastSeq && n === lastN + 1) || (seq === lastSeq + 1 && n === 0);
}

/** Stream IDs `ms-seq` compared as numbers (both parts are below 2^53 here). */
export function after(id: string, than: string): boolean {
  const [a = 0, b = 0] = id.split('-').map(Number);
  const [c = 0, d = 0] = than.split('-').map(Number);
  return a > c || (a === c && b > d);
}

export function eventOf(fields: readonly string[]): CallfoldEvent {
  const index = fields.indexOf('e');
  return JSON.parse(fields[index + 1] ?? 'null') as CallfoldEvent;
}

/** Whether a feed entry is the mark a delete leaves (field `d`, see retention.ts). */
export function isDeletionMark(fields: readonly string[]): boolean {
  return fields[0] === 'd';
}
