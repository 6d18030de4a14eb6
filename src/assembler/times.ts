import { type CallfoldEvent, isStreamEvent, type SessionEvent } from '../events/types.js';
import type { Location, Match } from './match.js';

/**
 * When each event happened, without a number stored per event: a durable event's own `at`,
 * else when the Assembler received it. Stream events are placed at increasing Locations, so
 * their arrival times are kept as runs — a new entry only when the clock moved — and found by
 * Location; the few durable events without `at` are kept by event.
 *
 * Stream times are needed only while their attempt is live: `withdraw` drops the runs no
 * live attempt's event falls in, so a settled attempt keeps nothing here (its durable
 * events carry their own times).
 */
export class Times {
  #locations: Location[] = [];
  #times: number[] = [];
  /** The first Location of each live attempt: runs before the earliest are unused. */
  readonly #firsts = new Map<string, Location>();
  readonly #durable = new WeakMap<CallfoldEvent, number>();

  /** A stream event of `attemptId` placed at `location` arrived at `at`. */
  live(location: Location, at: number, attemptId: string): void {
    if (!this.#firsts.has(attemptId)) this.#firsts.set(attemptId, location);
    if (this.#times[this.#times.length - 1] === at) return;
    this.#locations.push(location);
    this.#times.push(at);
  }

  /** The stream events of `attemptId` are gone (settled or withdrawn): drop unused runs. */
  withdraw(attemptId: string): void {
    if (!this.#firsts.delete(attemptId)) return;
    if (this.#firsts.size === 0) {
      this.#locations = [];
      this.#times = [];
      return;
    }
    let earliest = Number.POSITIVE_INFINITY;
    for (const first of this.#firsts.values()) earliest = Math.min(earliest, first);
    // Keep the run that covers `earliest` and every run after it.
    const keep = Math.max(0, this.#run(earliest));
    if (keep === 0) return;
    this.#locations = this.#locations.slice(keep);
    this.#times = this.#times.slice(keep);
  }

  /** Every live attempt is withdrawn (a reconnection). */
  withdrawAll(): void {
    this.#firsts.clear();
    this.#locations = [];
    this.#times = [];
  }

  /** Stream runs held: what a long session must not grow (see the memory tests). */
  get runs(): number {
    return this.#locations.length;
  }

  durable(event: SessionEvent, at: number): void {
    if (event.at === undefined) this.#durable.set(event, at);
  }

  of(match: Match): number {
    const { event } = match;
    if (!isStreamEvent(event)) return event.at ?? this.#durable.get(event) ?? 0;
    return this.#times[Math.max(0, this.#run(match.location))] ?? 0;
  }

  /** The index of the last run starting at or before `location` (-1: none). */
  #run(location: Location): number {
    const locations = this.#locations;
    const last = locations.length - 1;
    if (last < 0 || (locations[0] as number) > location) return -1;
    if ((locations[last] as number) <= location) return last;
    let low = 0;
    let high = last;
    while (low < high) {
      const mid = (low + high + 1) >>> 1;
      if ((locations[mid] as number) <= location) low = mid;
      else high = mid - 1;
    }
    return low;
  }
}
