/** Something the pacer wakes: a follower waiting for its next batch. */
export interface Wakeable {
  wakeNow(): void;
}

/** What the stores' `fanOutMs` takes: a fixed window in ms, or `'auto'` (the default). */
export type FanOutMs = number | 'auto';

/** `'auto'`: the window is this many times the time the recent wake-ups took… */
export const autoRatio = 1;
/** …none while they take at most this (a few followers: no delay)… */
export const autoFloorMs = 2;
/** …and at most this. */
export const autoMaxMs = 100;
/**
 * `'auto'` takes the shortest of this many recent wake-ups: a wake-up is timed on the wall
 * clock, which also counts the time the process waited for a CPU (a loaded machine); the
 * shortest is the nearest to the work itself, and a single slow one does not widen the
 * window.
 */
export const autoRecent = 5;

/** Time and timers, injectable so that tests can run the pacer on a clock they drive. */
export interface PacerClock {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const host = globalThis as { performance?: { now(): number } };
const hostClock: PacerClock = {
  now: host.performance ? () => (host.performance as { now(): number }).now() : Date.now,
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as Parameters<typeof clearTimeout>[0]),
};

/**
 * Wakes the waiting followers of a store at most once per window, all together.
 *
 * At 2,000 stream events a second, waking every follower for every event costs a stream
 * read and a socket write per event per follower (~2 million a second for 1,000
 * followers: `npm run bench:server`). Woken at most once per window, a follower takes
 * everything that arrived meanwhile as one batch and the handler writes it as one chunk.
 *
 * 1. Leading edge: an event after a quiet window wakes its followers at once (on the next
 *    microtask, so that one store call's events go out together).
 * 2. Trailing edge: events within a window of the last wake-up wait for the window's end;
 *    the delay an event sees is at most the window plus the time the wake-up takes.
 * 3. The window counts from the end of a wake-up's work: from when the host runs a timer
 *    after it, so that the socket writes it caused (which Node sends after the current
 *    task) are counted. When waking 1,000 followers takes longer than expected (a loaded
 *    machine), events still wait and go out together instead of each waking everyone.
 * 4. `'auto'` adapts to the machine: the window equals the time a wake-up takes (the
 *    shortest of the last five, each from its start to the timer after it), so the
 *    fan-out keeps about half of a core busy at most, whatever the number of followers
 *    and the speed of the machine, and an event waits about two wake-ups at most (at
 *    1,000 followers on the 2-core bench machine: ~15 ms wake-ups, ~15 ms windows).
 *    Wake-ups of at most 2 ms (tens of followers) get no window: they are written to at
 *    every event, as unpaced. The window is at most 100 ms.
 * 5. Only when to wake is paced: events wait in each follower's queue in order, and ends
 *    and errors are not delayed.
 */
export class FanOutPacer {
  readonly windowMs: FanOutMs;
  readonly #clock: PacerClock;
  #due = new Set<Wakeable>();
  /** How long the last few wake-ups took, most recent last (`'auto'`). */
  readonly #took: number[] = [];
  #started = 0;
  #last = Number.NEGATIVE_INFINITY;
  #armed = false;
  #timer: unknown;
  #wakeUps = 0;
  readonly #flush = () => {
    this.#timer = undefined;
    const due = this.#due;
    if (due.size === 0) {
      this.#armed = false;
      return;
    }
    this.#due = new Set();
    this.#wakeUps++;
    this.#started = this.#clock.now();
    for (const follower of due) follower.wakeNow();
    // Still armed: the window starts once the work of this wake-up is done.
    this.#timer = this.#clock.setTimeout(this.#rested, 0);
  };
  readonly #rested = () => {
    this.#last = this.#clock.now();
    this.#took.push(this.#last - this.#started);
    if (this.#took.length > autoRecent) this.#took.shift();
    this.#timer = undefined;
    this.#armed = false;
    if (this.#due.size > 0) {
      this.#armed = true;
      const wait = this.window;
      if (wait <= 0) queueMicrotask(this.#flush);
      else this.#timer = this.#clock.setTimeout(this.#flush, wait);
    }
  };

  constructor(windowMs: FanOutMs, clock: PacerClock = hostClock) {
    this.windowMs = windowMs;
    this.#clock = clock;
  }

  /** The window now, in ms: the fixed one, or what `'auto'` makes of the recent wake-ups. */
  get window(): number {
    if (this.windowMs !== 'auto') return this.windowMs;
    const took = this.#took.length === 0 ? 0 : Math.min(...this.#took);
    return took <= autoFloorMs ? 0 : Math.min(autoMaxMs, took * autoRatio);
  }

  /** How many times followers were woken (all due ones together counting once). */
  get wakeUps(): number {
    return this.#wakeUps;
  }

  /** Wakes `follower` with the others at the next allowed time. */
  schedule(follower: Wakeable): void {
    this.#due.add(follower);
    if (this.#armed) return;
    this.#armed = true;
    const wait = this.#last + this.window - this.#clock.now();
    if (wait <= 0) queueMicrotask(this.#flush);
    else this.#timer = this.#clock.setTimeout(this.#flush, wait);
  }

  /** Drops a follower that ended before its wake-up. */
  cancel(follower: Wakeable): void {
    this.#due.delete(follower);
  }

  /** Wakes everything due now (the store is closing). */
  stop(): void {
    this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#armed = false;
    const due = this.#due;
    this.#due = new Set();
    for (const follower of due) follower.wakeNow();
  }
}

/** Checks a store's `fanOutMs` option: `'auto'` (default) or a number of ms >= 0 (0: no pacing). */
export function fanOutPacer(windowMs: FanOutMs | undefined): FanOutPacer | undefined {
  const ms = windowMs ?? 'auto';
  if (ms !== 'auto' && !(typeof ms === 'number' && Number.isFinite(ms) && ms >= 0)) {
    throw new RangeError(`fanOutMs must be 'auto' or a number of ms >= 0, got ${String(ms)}`);
  }
  return ms === 0 ? undefined : new FanOutPacer(ms);
}
