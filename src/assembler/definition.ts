import type { CallfoldEvent } from '../events/types.js';
import type { Match, MatchSpec } from './match.js';

/**
 * A business rule that folds the events of one kind of lifecycle (one tool call, one
 * assistant response) into published nodes. A Definition is pure: it keeps no state of its
 * own; the Assembler keeps one State per Context (one key) and hands it back.
 *
 * - `match` reads only the event it is given (no Context lookup) and says which Contexts it
 *   belongs to and in which role: one MatchSpec, a list of them, or null for none. (It runs
 *   for every event, every delta included, so a single spec saves an allocation.)
 * - `start` creates State from the earliest start Match of a Context; `update` folds every
 *   later Match into it (it may mutate and return the same State).
 * - `build` returns the node to publish (undefined: nothing to show yet), returning
 *   `previous` itself when nothing observable changed, so consumers can compare by reference.
 *   It runs at publication, for Contexts that received Matches since the last publication.
 */
export interface Definition<State = unknown, Node = unknown> {
  /** Names the Definition in error reports. */
  readonly name: string;
  match(event: CallfoldEvent): MatchSpec | readonly MatchSpec[] | null;
  start(match: Match): State;
  update(state: State, match: Match): State;
  build(state: State, previous: Node | undefined): Node | undefined;
}
