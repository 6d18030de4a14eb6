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
 * An event's place in the log: a number ordering every event the Assembler holds. Events
 * pushed at the live end take increasing places; a prepended history page takes places below
 * everything held. Places are never renumbered.
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
