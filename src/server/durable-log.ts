import type { SessionEvent } from '../events/types.js';
import type { PageOptions } from './session-store.js';

/**
 * Where a one-process store keeps durable events (`memoryStore`: arrays; `fileStore`: JSONL
 * files). The store numbers events and calls `write` for one session at a time, in seq
 * order, so a log needs no locking of its own.
 */
export interface DurableLog {
  /** The last seq written for the session; 0 when it has none. */
  lastSeq(sessionId: string): Promise<number>;
  /** Keeps numbered events for good; resolves once they would survive a crash. */
  write(sessionId: string, events: readonly SessionEvent[]): Promise<void>;
  /** As `SessionStore.page`. */
  page(sessionId: string, options: PageOptions): Promise<readonly SessionEvent[]>;
  /** Events with `after < seq <= through`, ascending, at most `limit`. */
  range(
    sessionId: string,
    after: number,
    through: number,
    limit: number,
  ): Promise<readonly SessionEvent[]>;
  /** The session's life token: the one kept, or `fresh`, kept from now on. */
  life(sessionId: string, fresh: string): Promise<string>;
  /** Removes everything kept for the session, its life included. */
  delete(sessionId: string): Promise<void>;
  /**
   * The sessions kept, with when each was last written (ms since the Unix epoch): what a
   * retention sweep looks at besides the sessions this process has used. Optional: a log
   * held in this process's memory has none the store does not know.
   */
  stored?(): AsyncIterable<{ readonly sessionId: string; readonly writtenAt: number }>;
  /** Bytes of events held in memory (JSON length), for `maxBytes`; optional. */
  readonly bytesHeld?: number;
  close(): Promise<void>;
}

/** Index of the first event whose seq is above `seq` in a seq-ascending list. */
export function firstAfter(events: readonly SessionEvent[], seq: number): number {
  let low = 0;
  let high = events.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((events[mid] as SessionEvent).seq <= seq) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** Checks a page request: `limit` a whole number >= 0, `before` a number when present. */
export function checkPage(options: PageOptions): { before: number; limit: number } {
  const { before = Number.POSITIVE_INFINITY, limit } = options;
  if (!Number.isInteger(limit) || limit < 0) {
    throw new RangeError(`page: limit must be a whole number >= 0, got ${limit}`);
  }
  if (typeof before !== 'number' || Number.isNaN(before)) {
    throw new RangeError(`page: before must be a number, got ${before}`);
  }
  return { before, limit };
}
