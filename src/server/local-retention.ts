import type { DurableLog } from './durable-log.js';
import { type StoreClock, unrefTimer } from './store-clock.js';

/** How many sessions and bytes a store holding its log in memory keeps at most. */
export interface LocalStoreBounds {
  readonly maxSessions: number;
  readonly maxBytes: number;
  /** Bytes the log holds for one session (what removing it frees). */
  bytesOf(sessionId: string): number;
}

/** What retention reads of a session the store holds. */
export interface RetainedSession {
  readonly feed: { readonly readers: { readonly size: number } };
  readonly attempts: { readonly size: number };
  /** When it was last written to or had a follower leave (`clock.now()`). */
  readonly touched: number;
}

export interface LocalRetentionOptions<S extends RetainedSession> {
  /** The store's sessions, least recently used first. */
  readonly sessions: ReadonlyMap<string, S>;
  /** Deletions under way. */
  readonly removing: ReadonlyMap<string, Promise<void>>;
  readonly log: DurableLog;
  readonly clock: StoreClock;
  readonly ttlMs: number | undefined;
  readonly bounds: LocalStoreBounds | undefined;
  /** Deletes a session (the store's `delete`). */
  remove(sessionId: string): Promise<void>;
}

/**
 * What removes the sessions of a one-process store that nobody uses: `ttlMs` (a sweep every
 * ttlMs / 4, at most every minute; the log's stored sessions included, by when they were
 * written) and the bounds (`maxSessions`, `maxBytes`: least recently used first). A session
 * with a follower or a live attempt is never removed here.
 */
export class LocalRetention<S extends RetainedSession = RetainedSession> {
  /** Sessions removed by ttlMs or a bound. */
  evictions = 0;
  readonly #options: LocalRetentionOptions<S>;
  #timer: unknown;
  #closed = false;

  constructor(options: LocalRetentionOptions<S>) {
    this.#options = options;
    this.#arm();
  }

  /** Whether a session may be removed by retention or a bound: nobody follows or streams it. */
  #idle(state: RetainedSession): boolean {
    return state.feed.readers.size === 0 && state.attempts.size === 0;
  }

  /** Past `maxSessions` or `maxBytes`: evicts the least recently used idle sessions. */
  bound(current: RetainedSession): void {
    const bounds = this.#options.bounds;
    if (!bounds) return;
    let bytes = this.#options.log.bytesHeld ?? 0;
    let sessions = this.#options.sessions.size;
    if (sessions <= bounds.maxSessions && bytes <= bounds.maxBytes) return;
    for (const [sessionId, state] of this.#options.sessions) {
      if (sessions <= bounds.maxSessions && bytes <= bounds.maxBytes) return;
      if (state === current || !this.#idle(state)) continue;
      bytes -= bounds.bytesOf(sessionId);
      sessions--;
      this.evictions++;
      this.#options.remove(sessionId).catch((error: unknown) => {
        console.warn('callfold: evicting a session failed', error);
      });
    }
  }

  #arm(): void {
    const ttlMs = this.#options.ttlMs;
    if (ttlMs === undefined || this.#closed) return;
    this.#timer = this.#options.clock.setTimeout(
      () => this.#retain(ttlMs).finally(() => this.#arm()),
      Math.min(ttlMs / 4, 60_000),
    );
    unrefTimer(this.#timer);
  }

  /** Deletes the sessions idle for `ttlMs`: those this process holds, then the log's others. */
  async #retain(ttlMs: number): Promise<void> {
    const now = this.#options.clock.now();
    const removals: Promise<void>[] = [];
    for (const [sessionId, state] of this.#options.sessions) {
      if (!this.#idle(state) || now - state.touched < ttlMs) continue;
      this.evictions++;
      removals.push(this.#options.remove(sessionId));
    }
    if (this.#options.log.stored) {
      for await (const { sessionId, writtenAt } of this.#options.log.stored()) {
        if (this.#closed) break;
        if (this.#options.sessions.has(sessionId) || this.#options.removing.has(sessionId))
          continue;
        if (now - writtenAt < ttlMs) continue;
        this.evictions++;
        removals.push(this.#options.remove(sessionId));
      }
    }
    const failed = (await Promise.allSettled(removals)).find((r) => r.status === 'rejected');
    if (failed) console.warn('callfold: removing an expired session failed', failed.reason);
  }

  close(): void {
    this.#closed = true;
    this.#options.clock.clearTimeout(this.#timer);
  }
}
