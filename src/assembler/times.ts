import { type CallfoldEvent, isStreamEvent, type SessionEvent } from '../events/types.js';
import type { Location, Match } from './match.js';

/**
 * When each event happened, without a number stored per event: a durable event's own `at`,
 * else when the Assembler received it. Stream events are placed at increasing Locations, so
 * their arrival times are kept as runs — a new entry only when the clock moved — and found by
 * Location; the few durable events without `at` are kept by event.
 */
export class Times {
  #locations: Location[] = [];
  #times: number[] = [];
  readonly #durable = new WeakMap<CallfoldEvent, number>();

  /** A stream event placed at `location` arrived at `at`. */
  live(location: Location, at: number): void {
    if (this.#times[this.#times.length - 1] === at) return;
    this.#locations.push(location);
    this.#times.push(at);
  }

  durable(event: SessionEvent, at: number): void {
    if (event.at === undefined) this.#durable.set(event, at);
  }

  of(match: Match): number {
    const { event } = match;
    if (!isStreamEvent(event)) return event.at ?? this.#durable.get(event) ?? 0;
    const locations = this.#locations;
    const last = locations.length - 1;
    if (last >= 0 && (locations[last] as number) <= match.location)
      return this.#times[last] as number;
    let low = 0;
    let high = locations.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >>> 1;
      if ((locations[mid] as number) <= match.location) low = mid;
      else high = mid - 1;
    }
    return this.#times[low] ?? 0;
  }
}
