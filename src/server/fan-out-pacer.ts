/** Something the pacer wakes: a follower waiting for its next batch, or a feed of many. */
export interface Wakeable {
  wakeNow(): void;
  /**
   * Optional: wakes in steps, one follower per `next()` (a feed of many followers); the
   * pacer runs a few steps per task (`sliceSize`). Without it, `wakeNow` counts as one step.
   */
  wakeInSteps?(): Iterator<unknown>;
}

/** What the stores' `fanOutMs` takes: a fixed window in ms, or `'auto'` (the default). */
export type FanOutMs = number | 'auto';

/** `'auto'`: the window is this many times the time the recent wake-ups took… */
export const autoRatio = 0.5;
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
/**
 * A wake-up wakes this many followers per task (the default `sliceSize`), then lets other
 * tasks run (the producer's events, the sockets' I/O) before the next slice; followers later
 * in the wake-up take what arrived meanwhile.
 */
export const defaultSliceSize = 64;

/** Time and timers, injectable so that tests can run the pacer on a clock they drive. */
export interface PacerClock {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  /**
   * Runs `callback` in a later task, after the I/O and timers that are ready (between the
   * slices of a wake-up). Default: `setTimeout(callback, 0)`.
   */
  defer?(callback: () => void): void;
}

const host = globalThis as {
  performance?: { now(): number };
  setImmediate?: (callback: () => void) => unknown;
};
const hostClock: PacerClock = {
  now: host.performance ? () => (host.performance as { now(): number }).now() : Date.now,
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as Parameters<typeof clearTimeout>[0]),
  // Node's setImmediate runs after the I/O that is ready, with no 1 ms timer clamp.
  defer: host.setImmediate
    ? (callback) => void (host.setImmediate as (callback: () => void) => unknown)(callback)
    : (callback) => void setTimeout(callback, 0),
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
 * 4. `'auto'` adapts to the machine: the window is half the time a wake-up takes (the
 *    shortest of the last five, each from its start to the timer after it), so the
 *    fan-out keeps about two thirds of a core busy at most, whatever the number of
 *    followers and the speed of the machine, and an event waits about one and a half
 *    wake-ups at most (6.) (at 1,000 followers on the 2-core bench machine: ~15 ms
 *    wake-ups, ~8 ms windows). Half, not one: with a window of a whole wake-up the p99 at
 *    1,000 followers was 87–106 ms against 67–84 ms (loaded A/B, bench/README).
 *    Wake-ups of at most 2 ms (tens of followers) get no window: they are written to at
 *    every event, as unpaced. The window is at most 100 ms.
 * 5. Only when to wake is paced: events wait in each follower's queue in order, and ends
 *    and errors are not delayed.
 * 6. A wake-up runs in slices of `sliceSize` followers (default 64), one task each, with
 *    the host's other tasks between them (`setImmediate` where there is one): the
 *    producer's events, which arrive meanwhile, go to the followers woken after them in
 *    the same wake-up instead of waiting for the next, and a wake-up of 1,000 followers
 *    does not hold the event loop for its whole length. An event then waits at most about
 *    the window plus one wake-up (before: plus two — a wake-up in progress held it back,
 *    then the next one wrote it to the last follower at its end).
 */
export class FanOutPacer {
  readonly windowMs: FanOutMs;
  /** Followers woken per task (`Infinity`: a whole wake-up in one task). */
  readonly sliceSize: number;
  readonly #clock: PacerClock;
  #due = new Set<Wakeable>();
  /** How long the last few wake-ups took, most recent last (`'auto'`). */
  readonly #took: number[] = [];
  #started = 0;
  #last = Number.NEGATIVE_INFINITY;
  #armed = false;
  #timer: unknown;
  #wakeUps = 0;
  #slices = 0;
  /** The wake-up in progress: what is left to wake, and the steps of the one being woken. */
  #waking: Wakeable[] = [];
  #next = 0;
  #steps: Iterator<unknown> | undefined;
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
    this.#waking = [...due];
    this.#next = 0;
    this.#slice();
  };
  /** Wakes up to `sliceSize` followers; the rest in a later task. */
  readonly #slice = () => {
    this.#slices++;
    if (this.#wake(this.sliceSize)) {
      const defer = this.#clock.defer ?? ((callback) => this.#clock.setTimeout(callback, 0));
      defer(this.#slice);
      return;
    }
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

  constructor(
    windowMs: FanOutMs,
    clock: PacerClock = hostClock,
    { sliceSize = defaultSliceSize }: { sliceSize?: number } = {},
  ) {
    this.windowMs = windowMs;
    this.sliceSize = sliceSize;
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

  /** How many tasks the wake-ups took (a wake-up of n followers: ceil(n / sliceSize), at least 1). */
  get slices(): number {
    return this.#slices;
  }

  /** Wakes up to `budget` steps of the wake-up in progress; whether any are left. */
  #wake(budget: number): boolean {
    let left = budget;
    while (left > 0) {
      const steps = this.#steps;
      if (steps) {
        if (!steps.next().done) {
          left--;
          continue;
        }
        this.#steps = undefined;
      }
      const next = this.#waking[this.#next];
      if (!next) break;
      this.#waking[this.#next++] = undefined as unknown as Wakeable;
      if (next.wakeInSteps) this.#steps = next.wakeInSteps();
      else {
        next.wakeNow();
        left--;
      }
    }
    if (this.#steps || this.#next < this.#waking.length) return true;
    this.#waking = [];
    this.#next = 0;
    return false;
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

  /** Wakes everything due now, and the rest of a wake-up in progress (the store is closing). */
  stop(): void {
    this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#armed = false;
    while (this.#wake(Number.POSITIVE_INFINITY)) {}
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
