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

/** `Date.now` and the host's timers. */
export const systemClock: StoreClock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as Parameters<typeof clearTimeout>[0]),
};

/**
 * Lets a timer of `clock` not keep the process alive (Node and Deno's `unref`), for the
 * timers a store runs for as long as it exists (retention), unlike a lease that is due.
 */
export function unrefTimer(handle: unknown): void {
  (handle as { unref?: () => void } | undefined)?.unref?.();
}
