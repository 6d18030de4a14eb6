/**
 * The time a store keeps leases and retention by. Tests pass one they drive (advance it by
 * hand, and await the work its timers start); hosts leave the default, the system clock.
 */
export interface StoreClock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
  /**
   * Calls `callback` after `ms`. A driven clock may await what the callback returns (the
   * work the timer started), so a test can read the result right after advancing.
   */
  setTimeout(callback: () => unknown, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** `Date.now` and the host's timers; timers do not keep a Node process alive. */
export const systemClock: StoreClock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => {
    const handle = setTimeout(callback, ms) as { unref?: () => void };
    handle.unref?.();
    return handle;
  },
  clearTimeout: (handle) => clearTimeout(handle as Parameters<typeof clearTimeout>[0]),
};
