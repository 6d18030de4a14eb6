import type { CallfoldEvent } from '../events/types.js';
import type { FanOutPacer, Wakeable } from './fan-out-pacer.js';

/** A follower reading a `SharedFeed`: where it has read up to, and how to hand it more. */
export interface FeedReader {
  /** The feed position up to which this reader has taken events. */
  readonly cursor: number;
  /** Takes what waits now (a listener gets its batch; a waiting pull resumes). */
  wakeNow(): void;
}

/**
 * The events a store hands to the followers of one session, kept once for all of them:
 * appending costs the same for 1 follower or 1,000 (one array push and one pacer call,
 * not one queue push and one wake-up per follower: at 2,000 stream events a second and
 * 1,000 followers that was 2 million queue pushes a second, and a fan-out that fell
 * behind held 1,000 growing queues for the garbage collector to copy).
 *
 * 1. Each reader has a cursor; it takes `slice(cursor)`: everything after it, in order.
 * 2. Readers at the same cursor get the same array object (the slice is made once per
 *    position), so the handler encodes and joins its bytes once for all of them.
 * 3. Events every reader has taken are dropped at each wake-up; with no reader, an
 *    append keeps nothing.
 * 4. With a pacer, an append schedules the feed (one wake-up of all its readers per
 *    window, in the pacer's slices: `wakeInSteps`); without one, every append wakes every
 *    reader at once.
 */
export class SharedFeed<R extends FeedReader = FeedReader> implements Wakeable {
  #events: CallfoldEvent[] = [];
  /** The position of `#events[0]`. */
  #base = 0;
  #slice: { from: number; to: number; events: readonly CallfoldEvent[] } | undefined;
  readonly #readers = new Set<R>();
  readonly #pacer: FanOutPacer | undefined;

  constructor(pacer?: FanOutPacer) {
    this.#pacer = pacer;
  }

  /** The position after the last event appended. */
  get end(): number {
    return this.#base + this.#events.length;
  }

  get readers(): ReadonlySet<R> {
    return this.#readers;
  }

  /** Starts `reader` at the current end (it takes what is appended from now on). */
  add(reader: R): void {
    this.#readers.add(reader);
  }

  delete(reader: R): void {
    this.#readers.delete(reader);
    if (this.#readers.size === 0) this.#drop(this.end);
  }

  append(events: readonly CallfoldEvent[]): void {
    if (events.length === 0) return;
    if (this.#readers.size === 0) {
      this.#base += events.length;
      return;
    }
    for (const event of events) this.#events.push(event);
    if (this.#pacer) this.#pacer.schedule(this);
    else this.wakeNow();
  }

  /** The events from position `from` to the end (the same array for the same positions). */
  slice(from: number): readonly CallfoldEvent[] {
    const to = this.end;
    const cached = this.#slice;
    if (cached && cached.from === from && cached.to === to) return cached.events;
    const events = this.#events.slice(Math.max(0, from - this.#base));
    this.#slice = { from, to, events };
    return events;
  }

  wakeNow(): void {
    let lowest = this.end;
    for (const reader of this.#readers) {
      reader.wakeNow();
      if (reader.cursor < lowest) lowest = reader.cursor;
    }
    this.#drop(lowest);
  }

  /**
   * Wakes the readers one per step (the pacer's slices: events appended between two steps
   * go to the readers woken after them). A reader added meanwhile waits for the next
   * wake-up; one removed is skipped. What every reader has taken is dropped at the end.
   */
  *wakeInSteps(): Generator<undefined, void> {
    const readers = [...this.#readers];
    for (const reader of readers) {
      if (!this.#readers.has(reader)) continue;
      reader.wakeNow();
      yield;
    }
    let lowest = this.end;
    for (const reader of this.#readers) if (reader.cursor < lowest) lowest = reader.cursor;
    this.#drop(lowest);
  }

  /** Drops the events before `position`: every reader has taken them. */
  #drop(position: number): void {
    const count = position - this.#base;
    if (count <= 0) return;
    this.#events = count >= this.#events.length ? [] : this.#events.slice(count);
    this.#base = position;
    this.#slice = undefined;
  }
}
