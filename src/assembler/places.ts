import { DEV_MODE } from '../internal/dev-mode.js';
import type { Location } from './match.js';
import { assemblerProbe } from './probe.js';

/**
 * Spacing of the places given at either end (small, so places stay small integers, which the
 * engine keeps unboxed, for two million events). Every end place is a multiple of STEP, so
 * the half-way place above each one is free for the late durable events that follow it.
 */
const STEP = 2 ** 10;

/**
 * Gives every event its Location, and keeps the durable seqs held so that a durable event
 * lands where its seq says and a seq already held is recognised.
 *
 * 1. Events at the live end (stream events, and durable events above every held seq) take
 *    increasing multiples of STEP; durable events below every held seq (an older page) take
 *    decreasing multiples of STEP below everything held. These are the anchors.
 * 2. A durable event whose seq falls between two anchors (a late event, a page that fills a
 *    gap) takes the place half a STEP above the anchor below it, shared with every other event
 *    of that gap: such events are ordered by seq (see `Location`), so the order is exact for
 *    any arrival order and no place is ever renumbered or subdivided.
 * 3. Cost: a durable event is placed in O(log anchors) (a binary search), a page of k events
 *    in O(k log k + k log anchors); held seqs are one Set, anchors two arrays that only grow
 *    at their ends. Nothing is proportional to what is already held.
 */
export class Places {
  /** Every durable seq held. */
  readonly #held = new Set<number>();
  /** Anchors placed below (descending seq: index 0 is the first placed, the highest). */
  readonly #lowSeqs: number[] = [];
  readonly #lowLocations: Location[] = [];
  /** Anchors placed at the live end (ascending seq). */
  readonly #highSeqs: number[] = [];
  readonly #highLocations: Location[] = [];
  #top = 0;
  #bottom = 0;

  /** A place after everything held, for a stream event. */
  live(): Location {
    this.#top += STEP;
    return this.#top;
  }

  /** A place for a durable event pushed live; undefined when its seq is held. */
  durable(seq: number): Location | undefined {
    if (DEV_MODE) assemblerProbe.seqs++;
    if (this.#held.has(seq)) return undefined;
    this.#held.add(seq);
    const highest = this.#highest();
    if (highest === undefined || seq > highest) return this.#above(seq);
    if (seq < (this.#lowest() as number)) return this.#below(seq);
    return this.#between(seq);
  }

  /**
   * Places for an older page: for each seq not held (the first of repeated ones), its
   * Location, in ascending seq order.
   */
  page(seqs: readonly number[]): { seq: number; location: Location }[] {
    const fresh: number[] = [];
    if (DEV_MODE) assemblerProbe.seqs += seqs.length;
    for (const seq of seqs) {
      if (this.#held.has(seq)) continue;
      this.#held.add(seq);
      fresh.push(seq);
    }
    fresh.sort((a, b) => a - b);
    const lowest = this.#lowest();
    const highest = this.#highest();
    const locations: Location[] = new Array(fresh.length);
    // Below everything held (all of the page when nothing is): the highest first, so that
    // each takes the next place down.
    let end = fresh.length;
    if (lowest !== undefined && highest !== undefined) {
      let i = fresh.length - 1;
      while (i >= 0 && (fresh[i] as number) > highest) i--;
      end = i + 1;
      for (let k = end; k < fresh.length; k++) locations[k] = this.#above(fresh[k] as number);
      while (i >= 0 && (fresh[i] as number) > lowest) {
        locations[i] = this.#between(fresh[i] as number);
        i--;
      }
      end = i + 1;
    }
    for (let k = end - 1; k >= 0; k--) locations[k] = this.#below(fresh[k] as number);
    return fresh.map((seq, k) => ({ seq, location: locations[k] as Location }));
  }

  #highest(): number | undefined {
    const high = this.#highSeqs;
    return high.length > 0 ? high[high.length - 1] : this.#lowSeqs[0];
  }

  #lowest(): number | undefined {
    const low = this.#lowSeqs;
    return low.length > 0 ? low[low.length - 1] : this.#highSeqs[0];
  }

  #above(seq: number): Location {
    const location = this.live();
    this.#highSeqs.push(seq);
    this.#highLocations.push(location);
    return location;
  }

  #below(seq: number): Location {
    this.#bottom -= STEP;
    this.#lowSeqs.push(seq);
    this.#lowLocations.push(this.#bottom);
    return this.#bottom;
  }

  /** Half a STEP above the anchor with the greatest seq below `seq` (one exists: see `durable`). */
  #between(seq: number): Location {
    // Anchors in ascending seq: low anchors reversed, then high anchors.
    const low = this.#lowSeqs;
    const lowCount = low.length;
    const seqAt = (i: number): number =>
      i < lowCount ? (low[lowCount - 1 - i] as number) : (this.#highSeqs[i - lowCount] as number);
    let from = 0;
    let to = lowCount + this.#highSeqs.length;
    // The first anchor whose seq is ≥ seq; the one before it is the anchor below.
    while (from < to) {
      const mid = (from + to) >>> 1;
      if (DEV_MODE) assemblerProbe.anchors++;
      if (seqAt(mid) < seq) from = mid + 1;
      else to = mid;
    }
    const i = from - 1;
    const anchor =
      i < lowCount
        ? (this.#lowLocations[lowCount - 1 - i] as Location)
        : (this.#highLocations[i - lowCount] as Location);
    return anchor + STEP / 2;
  }
}
