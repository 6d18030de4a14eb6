import type { CallfoldEvent } from '../events/types.js';

/**
 * How an event takes part in a lifecycle. Every `start` is a candidate: the earliest start in
 * the current log opens the Context, and every later Match, another start included, is an
 * update. Updates before the first start wait, unfolded, until a start precedes them.
 */
export type Role = 'start' | 'update';

/** How a Definition's `match()` reports one Match: which Context (by key) and in what role. */
export type Emit = (key: string, role: Role) => void;

/**
 * An event's place in the log. Events pushed at the live end take increasing places; a
 * prepended history page takes places below everything held. Durable events that fall
 * between two held ones (a late event, a page that fills a gap) share the place just above
 * the held one below them and are ordered among themselves by `seq`: the log order is
 * `location`, then `seq` (see `compareMatches`), exact for any arrival order. Places are never
 * renumbered.
 */
export type Location = number;

/**
 * One event in one role, created once by the Assembler and shared by every Definition and
 * Context that matched the event in that role, and by every replay of those Contexts.
 * Immutable by contract (readonly): one is made per streamed delta, so it is not frozen.
 */
export interface Match<E extends CallfoldEvent = CallfoldEvent> {
  readonly event: E;
  readonly role: Role;
  readonly location: Location;
}

/**
 * Log order of two Matches: negative when `a` comes first. By location, then, for durable
 * events that share a place (see `Location`), by seq; zero for two roles of one event.
 */
export function compareMatches(a: Match, b: Match): number {
  return a.location - b.location || seqOf(a.event) - seqOf(b.event);
}

function seqOf(event: CallfoldEvent): number {
  return 'seq' in event ? event.seq : 0;
}
