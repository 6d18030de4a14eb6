/** Something the pacer wakes: a follower waiting for its next batch. */
export interface Wakeable {
  wakeNow(): void;
}

/** The default of the stores' `fanOutMs`. */
export const defaultFanOutMs = 20;

/**
 * Wakes the waiting followers of a store at most once per `windowMs`, all together.
 *
 * At 2,000 stream events a second, waking every follower for every event costs a promise
 * chain, a stream read and a socket write per event per follower (~2 million a second for
 * 1,000 followers: `npm run bench:server`). Woken at most once per window, a follower takes
 * everything that arrived meanwhile as one batch and the handler writes it as one chunk.
 *
 * 1. Leading edge: an event after a quiet window wakes its followers at once (on the next
 *    microtask, so that one store call's events go out together).
 * 2. Trailing edge: events within `windowMs` of the last wake-up wait for the window's end;
 *    the delay an event sees is at most `windowMs` plus the time the wake-up takes.
 * 3. The window counts from the end of a wake-up's work (the writes it caused, measured by
 *    a timer after them), not its start: when waking 1,000 followers takes longer than the
 *    window (a loaded machine), events still wait and go out together instead of each
 *    one waking everyone at once.
 * 4. Only when to wake is paced: events wait in each follower's queue in order, ends and
 *    errors are not delayed, and a follower that is busy writing takes what waits at once.
 */
export class FanOutPacer {
  readonly windowMs: number;
  #due = new Set<Wakeable>();
  #last = Number.NEGATIVE_INFINITY;
  #armed = false;
  #timer: ReturnType<typeof setTimeout> | undefined;
  readonly #flush = () => {
    this.#timer = undefined;
    const due = this.#due;
    if (due.size === 0) {
      this.#armed = false;
      return;
    }
    this.#due = new Set();
    for (const follower of due) follower.wakeNow();
    // Still armed: the window starts once the work of this wake-up is done.
    this.#timer = setTimeout(this.#rested, 0);
  };
  readonly #rested = () => {
    this.#last = Date.now();
    this.#timer = undefined;
    this.#armed = false;
    if (this.#due.size > 0) {
      this.#armed = true;
      this.#timer = setTimeout(this.#flush, this.windowMs);
    }
  };

  constructor(windowMs: number) {
    this.windowMs = windowMs;
  }

  /** Wakes `follower` with the others at the next allowed time. */
  schedule(follower: Wakeable): void {
    this.#due.add(follower);
    if (this.#armed) return;
    this.#armed = true;
    const wait = this.#last + this.windowMs - Date.now();
    if (wait <= 0) queueMicrotask(this.#flush);
    else this.#timer = setTimeout(this.#flush, wait);
  }

  /** Drops a follower that ended before its wake-up. */
  cancel(follower: Wakeable): void {
    this.#due.delete(follower);
  }

  /** Wakes everything due now (the store is closing). */
  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#armed = false;
    const due = this.#due;
    this.#due = new Set();
    for (const follower of due) follower.wakeNow();
  }
}

/** Checks a store's `fanOutMs` option: a number of ms >= 0 (0: no pacing). */
export function fanOutPacer(windowMs: number | undefined): FanOutPacer | undefined {
  const ms = windowMs ?? defaultFanOutMs;
  if (!(Number.isFinite(ms) && ms >= 0)) {
    throw new RangeError(`fanOutMs must be a number of ms >= 0, got ${ms}`);
  }
  return ms === 0 ? undefined : new FanOutPacer(ms);
}
