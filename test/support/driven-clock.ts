import type { StoreClock } from '../../src/server/store-clock.js';

interface Timer {
  readonly at: number;
  readonly order: number;
  readonly callback: () => unknown;
}

/**
 * A `StoreClock` the test moves by hand: `advance` runs the timers that fall due in time
 * order, each at its own time, and awaits the work each one returns, so that what the timers
 * did (a sweep, a renewal) is done when `advance` resolves. No real time passes.
 */
export class DrivenClock implements StoreClock {
  #now: number;
  #order = 0;
  readonly #timers = new Set<Timer>();

  constructor(start = Date.now()) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  setTimeout(callback: () => unknown, ms: number): unknown {
    const timer = { at: this.#now + Math.max(0, ms), order: this.#order++, callback };
    this.#timers.add(timer);
    return timer;
  }

  clearTimeout(handle: unknown): void {
    this.#timers.delete(handle as Timer);
  }

  /** Moves the clock `ms` forward, running (and awaiting) each timer due on the way. */
  async advance(ms: number): Promise<void> {
    const end = this.#now + ms;
    for (;;) {
      let next: Timer | undefined;
      for (const timer of this.#timers) {
        if (timer.at > end) continue;
        if (!next || timer.at < next.at || (timer.at === next.at && timer.order < next.order)) {
          next = timer;
        }
      }
      if (!next) break;
      this.#timers.delete(next);
      this.#now = Math.max(this.#now, next.at);
      await next.callback();
    }
    this.#now = end;
  }
}
