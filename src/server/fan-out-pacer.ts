/** Something the pacer wakes: a follower waiting for its next batch. */
export interface Wakeable {
  wakeNow(): void;
}

/** What the stores' `fanOutMs` takes: a fixed window in ms, or `'auto'` (the default). */
export type FanOutMs = number | 'auto';

/** `'auto'`: the window grows by this much per follower the last wake-up reached… */
export const autoMsPerFollower = 0.02;
/** …up to this. */
export const autoMaxMs = 20;

/**
 * Wakes the waiting followers of a store at most once per window, all together.
 *
 * At 2,000 stream events a second, waking every follower for every event costs a promise
 * chain, a stream read and a socket write per event per follower (~2 million a second for
 * 1,000 followers: `npm run bench:server`). Woken at most once per window, a follower takes
 * everything that arrived meanwhile as one batch and the handler writes it as one chunk.
 *
 * 1. Leading edge: an event after a quiet window wakes its followers at once (on the next
 *    microtask, so that one store call's events go out together).
 * 2. Trailing edge: events within a window of the last wake-up wait for the window's end;
 *    the delay an event sees is at most the window plus the time the wake-up takes.
 *    The window is `windowMs`, or with `'auto'` 0.02 ms per follower the last wake-up
 *    reached, at most 20 ms: one follower is written to at every write (as unpaced), 100
 *    followers every 2 ms, 1,000 every 20 ms — the wake-ups then take about as long as
 *    the pauses between them, whatever the number of followers.
 * 3. The window counts from the end of a wake-up's work (the writes it caused, measured by
 *    a timer after them), not its start: when waking 1,000 followers takes longer than the
 *    window (a loaded machine), events still wait and go out together instead of each
 *    one waking everyone at once.
 * 4. Only when to wake is paced: events wait in each follower's queue in order, ends and
 *    errors are not delayed, and a follower that is busy writing takes what waits at once.
 */
export class FanOutPacer {
  readonly windowMs: FanOutMs;
  #due = new Set<Wakeable>();
  #woken = 0;
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
    this.#woken = due.size;
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
      const wait = this.#window();
      if (wait <= 0) queueMicrotask(this.#flush);
      else this.#timer = setTimeout(this.#flush, wait);
    }
  };

  constructor(windowMs: FanOutMs) {
    this.windowMs = windowMs;
  }

  #window(): number {
    if (this.windowMs !== 'auto') return this.windowMs;
    return Math.min(autoMaxMs, this.#woken * autoMsPerFollower);
  }

  /** Wakes `follower` with the others at the next allowed time. */
  schedule(follower: Wakeable): void {
    this.#due.add(follower);
    if (this.#armed) return;
    this.#armed = true;
    const wait = this.#last + this.#window() - Date.now();
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

/** Checks a store's `fanOutMs` option: `'auto'` (default) or a number of ms >= 0 (0: no pacing). */
export function fanOutPacer(windowMs: FanOutMs | undefined): FanOutPacer | undefined {
  const ms = windowMs ?? 'auto';
  if (ms !== 'auto' && !(typeof ms === 'number' && Number.isFinite(ms) && ms >= 0)) {
    throw new RangeError(`fanOutMs must be 'auto' or a number of ms >= 0, got ${String(ms)}`);
  }
  return ms === 0 ? undefined : new FanOutPacer(ms);
}
