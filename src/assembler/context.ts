import { Ordered } from './context-order.js';
import type { Definition } from './definition.js';
import { compareMatches, type Match } from './match.js';

/**
 * One lifecycle of one Definition (one key, e.g. one callId): the Matches it holds in log
 * order, the State folded from them and the node last built from that State. The marks of
 * the order and the node listing are its base class's (`Ordered`).
 */
export class Context<State = unknown, Node = unknown> extends Ordered<Node> {
  readonly definition: Definition<State, Node>;
  readonly key: string;
  /** Its Definition's place in the NodeAssembler's list: breaks ties of one opening event. */
  readonly rank: number;
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

  constructor(definition: Definition<State, Node>, key: string, rank: number) {
    super();
    this.definition = definition;
    this.key = key;
    this.rank = rank;
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
