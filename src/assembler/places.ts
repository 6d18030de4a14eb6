import type { Location } from './match.js';

/**
 * Spacing of the places given at the live end (small, so places stay small integers, which
 * the engine keeps unboxed, for two million live events). Every live place is a multiple of STEP, so
 * the events of an older page or a late durable event always find room between two of them.
 */
const STEP = 2 ** 10;

/**
 * Gives every event its Location, and keeps the durable events' seqs → Locations so that
 * a durable event lands where its seq says, and a seq already held is recognised.
 *
 * Events pushed at the live end take increasing multiples of STEP. A page of older events
 * takes places spread evenly through the gaps its seqs fall in (below everything held for
 * the common case of an older page); a single late durable event takes a place just after
 * its seq predecessor. Places are never renumbered, so inserting a great many events one at
 * a time into one gap (beyond STEP) would run out of room between two doubles; pages
 * spread their events and do not.
 */
export class Places {
  /** Held durable seqs, ascending, and their Locations. */
  #seqs: number[] = [];
  #locations: Location[] = [];
  #top = 0;
  #bottom = 0;

  /** A place after everything held, for a stream event. */
  live(): Location {
    this.#top += STEP;
    return this.#top;
  }

  /** A place for a durable event pushed live; undefined when its seq is held. */
  durable(seq: number): Location | undefined {
    const last = this.#seqs[this.#seqs.length - 1];
    if (last === undefined || seq > last) {
      const location = this.live();
      this.#seqs.push(seq);
      this.#locations.push(location);
      return location;
    }
    const gap = this.#gap(seq);
    if (this.#seqs[gap] === seq) return undefined;
    const next = this.#locations[gap] as Location;
    const location =
      gap === 0
        ? (this.#below(next, 1)[0] as Location)
        : (this.#spread(gap, next, 1)[0] as Location);
    this.#seqs.splice(gap, 0, seq);
    this.#locations.splice(gap, 0, location);
    return location;
  }

  /**
   * Places for an older page: for each seq not held (the first of repeated ones), its
   * Location, in ascending seq order.
   */
  page(seqs: readonly number[]): { seq: number; location: Location }[] {
    const held = new Set(this.#seqs);
    const fresh = [...new Set(seqs)].filter((seq) => !held.has(seq)).sort((a, b) => a - b);
    const placed: { seq: number; location: Location }[] = [];
    let i = 0;
    while (i < fresh.length) {
      const gap = this.#gap(fresh[i] as number);
      let end = i + 1;
      const bound = this.#seqs[gap];
      while (end < fresh.length && (bound === undefined || (fresh[end] as number) < bound)) end++;
      const next = this.#locations[gap];
      const count = end - i;
      const locations = gap === 0 ? this.#below(next, count) : this.#spread(gap, next, count);
      for (let k = 0; k < count; k++) {
        placed.push({ seq: fresh[i + k] as number, location: locations[k] as Location });
      }
      i = end;
    }
    for (const { seq, location } of placed) {
      const gap = this.#gap(seq);
      this.#seqs.splice(gap, 0, seq);
      this.#locations.splice(gap, 0, location);
    }
    return placed;
  }

  /** Index of the first held seq ≥ `seq`. */
  #gap(seq: number): number {
    const seqs = this.#seqs;
    let low = 0;
    let high = seqs.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if ((seqs[mid] as number) < seq) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  /** `count` places below everything held (and below `next`, the first durable place). */
  #below(next: Location | undefined, count: number): Location[] {
    const floor = Math.min(this.#bottom, next ?? this.#bottom);
    const start = (Math.ceil(floor / STEP) - count - 1) * STEP;
    this.#bottom = start;
    return Array.from({ length: count }, (_, k) => start + k * STEP);
  }

  /**
   * `count` places after the held durable place before `gap`, spread evenly up to the next
   * durable place, or up to the next live place when none is above.
   */
  #spread(gap: number, next: Location | undefined, count: number): Location[] {
    const previous = this.#locations[gap - 1] as Location;
    const upper = next ?? (Math.floor(previous / STEP) + 1) * STEP;
    const width = (upper - previous) / (count + 1);
    // A single late event goes just after its predecessor, leaving room for the ones after.
    const step = count === 1 ? Math.min(1, width) : width;
    return Array.from({ length: count }, (_, k) => previous + step * (k + 1));
  }
}
