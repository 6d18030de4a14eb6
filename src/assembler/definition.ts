import type { CallfoldEvent } from '../events/types.js';
import type { Emit, Match } from './match.js';

/**
 * A business rule that folds the events of one kind of lifecycle (one tool call, one
 * assistant response) into published nodes. A Definition is pure: it keeps no state of its
 * own; the Assembler keeps one State per Context (one key) and hands it back.
 *
 * - `match` reads only the event it is given (no Context lookup) and reports each Context it
 *   belongs to, and in which role, by calling `emit(key, role)`; calling nothing means no
 *   match. (It runs for every streamed delta, so reporting allocates nothing.)
 * - `start` creates State from the earliest start Match of a Context (`key` is the
 *   Context's, since one event may open several); `update` folds every
 *   later Match into it (it may mutate and return the same State). `at` is when the event
 *   happened, in ms since the Unix epoch: a durable event's own `at`, else when the
 *   Assembler received it; a replay hands the same times again.
 * - `build` returns the node to publish (undefined: nothing to show yet), returning
 *   `previous` itself when nothing observable changed, so consumers can compare by reference.
 *   It runs at publication, for Contexts that received Matches since the last publication.
 */
export interface Definition<State = unknown, Node = unknown> {
  /** Names the Definition in error reports. */
  readonly name: string;
  match(event: CallfoldEvent, emit: Emit): void;
  start(match: Match, at: number, key: string): State;
  update(state: State, match: Match, at: number): State;
  build(state: State, previous: Node | undefined): Node | undefined;
}
