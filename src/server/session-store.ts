import type { CallfoldEvent, SessionEvent, StreamEvent } from '../events/types.js';
import type { UnnumberedEvent } from '../providers/session.js';

export type { UnnumberedEvent };

/** What `SessionStore.page` takes. */
export interface PageOptions {
  /** Only events whose `seq` is below this one; default: up to the end of the log. */
  readonly before?: number;
  /** At most this many events (the newest of those before `before`). */
  readonly limit: number;
}

/** What `SessionStore.follow` takes. */
export interface FollowOptions {
  /** The last `seq` the follower holds (0 or less: from the beginning). */
  readonly after: number;
  /** Ends the iteration (it returns) when aborted. */
  readonly signal?: AbortSignalLike;
  /**
   * The life the follower expects (`SessionStore.life`): if the session was deleted and
   * begun again before the follow takes its snapshot, the follow ends at once, empty.
   */
  readonly life?: string;
}

/**
 * A snapshot of what a store holds and has done; counters run from the store's creation.
 * Counts are this instance's (for `redisStore`, what this process tails and swept).
 */
export interface StoreMetrics {
  /** Sessions held (memory and file: in this process; Redis: tailed by this instance). */
  readonly sessions: number;
  /** Bytes of durable events held in memory (`memoryStore` only: JSON length). */
  readonly bytesHeld?: number;
  /** Follows open on this instance. */
  readonly followers: number;
  /** Live attempts (Redis: in the sessions this instance tails, as far as it has read). */
  readonly liveAttempts: number;
  /** Attempts settled by their lease running out (by this instance's sweeps). */
  readonly leasesExpired: number;
  /** Sessions removed by `ttlMs`, `maxSessions` or `maxBytes` (not by `delete`). */
  readonly evictions: number;
  /** Follows ended because the feed was trimmed past them (they resume from the log). */
  readonly feedTrims: number;
}

/** The part of an `AbortSignal` the stores use. */
export interface AbortSignalLike {
  readonly aborted: boolean;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

/** A snapshot of a handler's followers; counters run from the handler's creation. */
export interface HandlerMetrics {
  /** SSE responses open now. */
  readonly followers: number;
  /** Bytes handed to followers' connections. */
  readonly bytesSent: number;
  /** Followers whose response was ended for being slow (`maxBufferBytes`); they resume. */
  readonly followersCut: number;
}

/**
 * The durable log and the live attempts of many sessions, shared by every server instance
 * that uses the same backing store.
 *
 * Invariants every store keeps (test/server/store-conformance.ts checks them):
 * 1. `append` numbers events atomically: `seq` is strictly increasing per session across
 *    every caller and instance, starts at 1, and has no gap. It stamps `at` (ms since the
 *    Unix epoch, the appending instance's clock) and validates each event first; an invalid
 *    batch is rejected whole, with an `EventError`, and takes no number.
 * 2. `live` holds the stream events of each attempt until its `stream/settle`, which drops
 *    them and is passed on to followers. An attempt not written to or renewed for `leaseMs`
 *    is settled by the store for every follower (its producer died). Stream events of an
 *    attempt that was already settled are dropped, and `live` rejects naming the attempt.
 * 3. `follow` yields the durable events after `after` in seq order, then a replay of every
 *    live attempt's held events (attempts in start order), then both families as they are
 *    written. A follower never sees a durable event twice or a gap in seq, never a stream
 *    event of an attempt after its settle, and never a settle before the durable events
 *    appended before it.
 * 4. `append` and `live` calls of one producer are applied in call order, even if the
 *    producer does not await each one.
 * 5. A session has a life (`life`), given when its id is first used and new after it is
 *    deleted — by `delete`, or by `ttlMs`: no append, live write or follower for that long.
 *    A delete ends the session's followers; the next use of the id begins at seq 1.
 */
export interface SessionStore {
  /** How long a live attempt lives without a write or a renewal, in ms. */
  readonly leaseMs: number;
  /** Numbers, stamps and keeps durable events; resolves with them as numbered. */
  append(sessionId: string, events: readonly UnnumberedEvent[]): Promise<readonly SessionEvent[]>;
  /** Stream events of live attempts; a `stream/settle` drops that attempt's held events. */
  live(sessionId: string, events: readonly StreamEvent[]): Promise<void>;
  /** Extends the lease of the live attempts named (those already settled are ignored). */
  renew(sessionId: string, attemptIds: readonly string[]): Promise<void>;
  /** Durable events before `before` (default: the end), at most `limit`, ascending seq. */
  page(sessionId: string, options: PageOptions): Promise<readonly SessionEvent[]>;
  /** Durable events after `after`, then a replay of every live attempt, then both as they come. */
  follow(sessionId: string, options: FollowOptions): AsyncIterable<CallfoldEvent>;
  /** How long a session lives with no append, live write or follower, in ms; undefined: forever. */
  readonly ttlMs?: number | undefined;
  /** The session's current life token, given now if the session has none (see invariant 5). */
  life(sessionId: string): Promise<string>;
  /** Removes the session: its log, live attempts and life; its followers end. */
  delete(sessionId: string): Promise<void>;
  /** What the store holds and has done (see `StoreMetrics`). */
  metrics(): StoreMetrics;
  /** Stops the store's timers and connections; followers end. */
  close(): Promise<void>;
}

/**
 * A follow iteration that can hand out what is ready as one batch, so that the handler
 * writes one chunk per follower per tick. Stores built on `FollowerQueue` provide it; the
 * handler falls back to one event at a time for any other AsyncIterable.
 */
export interface BatchedFollow extends AsyncIterable<CallfoldEvent> {
  batches(): AsyncIterator<readonly CallfoldEvent[]>;
}

/** Whether `follow` hands out batches (see `BatchedFollow`). */
export function isBatchedFollow(value: AsyncIterable<CallfoldEvent>): value is BatchedFollow {
  return typeof (value as Partial<BatchedFollow>).batches === 'function';
}
