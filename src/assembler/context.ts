import type { Definition } from './definition.js';
import { compareMatches, type Match } from './match.js';

/**
 * One lifecycle of one Definition (one key, e.g. one callId): the Matches it holds in log
 * order, the State folded from them and the node last built from that State.
 */
export class Context<State = unknown, Node = unknown> {
  readonly definition: Definition<State, Node>;
  readonly key: string;
  /** In log order. */
  matches: Match[] = [];
  state: State | undefined = undefined;
  /** The Match that opened the Context; undefined while no start has arrived. */
  opened: Match | undefined = undefined;
  node: Node | undefined = undefined;
  /** Queued for the next publication (the Assembler's list holds it once). */
  dirty = false;
  /** The attempt whose stream Matches this Context was last recorded under. */
  liveAttempt: string | undefined = undefined;
  /** In the Assembler's order of open Contexts (see NodeAssembler `#order`). */
  ordered = false;
  /** Opened (or moved) before everything ordered since the last publication. */
  front = false;
  /** In `#order`, and its opening moved (or it lost it) since the last publication. */
  moved = false;
  /** The publication whose re-listed tail held it (see NodeAssembler `#tail`). */
  tail = 0;
  /** How many publications came before it was put at the end of the order (NodeAssembler `#place`). */
  placed = -1;
  /** The node's number in the list last composed, valid while `slotEpoch` is the Assembler's. */
  slot = 0;
  slotEpoch = 0;

  constructor(definition: Definition<State, Node>, key: string) {
    this.definition = definition;
    this.key = key;
  }

  /**
   * Takes a Match. One placed after every Match held is folded at once (returns true); an
   * earlier one is inserted in order and the caller must `replay()` (returns false).
   */
  take(match: Match, at: number): boolean {
    const { matches } = this;
    const last = matches[matches.length - 1];
    if (last === undefined || compareMatches(last, match) < 0) {
      matches.push(match);
      this.fold(match, at);
      return true;
    }
    let low = 0;
    let high = matches.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (compareMatches(matches[mid] as Match, match) < 0) low = mid + 1;
      else high = mid;
    }
    matches.splice(low, 0, match);
    return false;
  }

  /** Recomputes the State from the Matches held: the earliest start opens, the rest update. */
  replay(timeOf: (match: Match) => number): void {
    this.state = undefined;
    this.opened = undefined;
    for (const match of this.matches) this.fold(match, timeOf(match));
  }

  private fold(match: Match, at: number): void {
    if (this.state !== undefined) {
      this.state = this.definition.update(this.state, match, at);
    } else if (match.role === 'start') {
      this.state = this.definition.start(match, at, this.key);
      this.opened = match;
    }
  }
}
