import { isDurableEvent, type SessionEvent, type StreamEvent } from '../events/types.js';
import { appendAll } from '../internal/append-all.js';
import { checkPage, type DurableLog } from './durable-log.js';
import { type FanOutMs, type FanOutPacer, fanOutPacer } from './fan-out-pacer.js';
import { FollowerQueue } from './follower-queue.js';
import { jsonCopy } from './json-copy.js';
import { LocalRetention, type LocalStoreBounds } from './local-retention.js';
import { assertSessionId } from './session-id.js';
import { newLife } from './session-life.js';
import type {
  BatchedFollow,
  FollowOptions,
  PageOptions,
  SessionStore,
  StoreMetrics,
  UnnumberedEvent,
} from './session-store.js';
import { SharedFeed } from './shared-feed.js';
import { type StoreClock, systemClock } from './store-clock.js';
import { checkDurableBatch, checkStreamBatch, settledError } from './validate-batch.js';

/** Options of the one-process stores. */
export interface LocalStoreOptions {
  /** A live attempt not written to or renewed for this long is settled. Default 30 000 ms. */
  readonly leaseMs?: number;
  /** How often expired leases are looked for while attempts are live. Default: leaseMs / 4, at most 1 s. */
  readonly sweepMs?: number;
  /**
   * Followers are woken at most once per window, each taking everything that arrived
   * meanwhile as one chunk (see `FanOutPacer`): an event waits at most the window plus the
   * wake-up, and a busy session costs each follower tens of writes a second, not thousands.
   * An event after a quiet window goes out at once. A number: a fixed window in ms (0: every
   * write wakes every follower). `'auto'` (default): the window is half the time a wake-up
   * takes (the shortest of the last five), none while wake-ups take at most 2 ms, at most
   * 100 ms — no delay for a few followers, ~8 ms for 1,000 on a 2-core machine; the
   * fan-out keeps about two thirds of a core busy at most. A wake-up wakes 64 followers per task,
   * the host's other tasks between them: what arrives meanwhile goes to those not yet woken.
   */
  readonly fanOutMs?: FanOutMs;
  /**
   * A session with no append, live write or follower for this long is deleted (its next use
   * begins a new life). Looked for every ttlMs / 4, at most every minute. Default: never.
   */
  readonly ttlMs?: number;
  /** Leases and retention run on this clock (tests drive one). Default: the system clock. */
  readonly clock?: StoreClock;
}

interface Attempt {
  readonly events: StreamEvent[];
  deadline: number;
}

interface SessionState {
  lastSeq: number | undefined;
  /** Every append and live call of the session runs after the previous one: call order. */
  chain: Promise<unknown>;
  readonly attempts: Map<string, Attempt>;
  /** Attempts settled lately, so that a late event cannot bring one back (bounded). */
  readonly settled: Set<string>;
  /** What the session's followers have yet to take, kept once for all of them. */
  readonly feed: SharedFeed<FollowerQueue>;
  /** The session's life token, once read or given. */
  life: string | undefined;
  /** When it was last written to or had a follower leave (`clock.now()`). */
  touched: number;
  /** Deleted: what still runs on its chain finishes before the log is removed. */
  removed: boolean;
}

const settledKept = 4096;
const backlogChunk = 1000;

/**
 * The store of one process: durable events in a `DurableLog`, live attempts, leases and
 * followers in memory. `memoryStore` and `fileStore` are this engine over their logs.
 *
 * Sessions are kept in least recently used order (a write or a follower leaving moves one to
 * the end), which is the order `ttlMs` and the bounds remove them in; one with a follower or
 * a live attempt is never removed but by `delete`.
 */
export type { LocalStoreBounds };

export class LocalStore implements SessionStore {
  readonly leaseMs: number;
  readonly ttlMs: number | undefined;
  readonly #sweepMs: number;
  readonly #log: DurableLog;
  readonly #clock: StoreClock;
  readonly #retention: LocalRetention;
  readonly #sessions = new Map<string, SessionState>();
  /** Deletions under way: a new life of the id starts after its deletion. */
  readonly #removing = new Map<string, Promise<void>>();
  #sweep: unknown;
  #closed = false;
  readonly #pacer: FanOutPacer | undefined;
  #followers = 0;
  #leasesExpired = 0;

  constructor(log: DurableLog, options: LocalStoreOptions = {}, bounds?: LocalStoreBounds) {
    this.#log = log;
    this.#clock = options.clock ?? systemClock;
    this.#pacer = fanOutPacer(options.fanOutMs);
    this.leaseMs = positive(options.leaseMs ?? 30_000, 'leaseMs');
    this.#sweepMs = positive(options.sweepMs ?? Math.min(1000, this.leaseMs / 4), 'sweepMs');
    this.ttlMs = options.ttlMs === undefined ? undefined : positive(options.ttlMs, 'ttlMs');
    if (bounds) {
      positive(bounds.maxSessions, 'maxSessions');
      positive(bounds.maxBytes, 'maxBytes');
    }
    this.#retention = new LocalRetention({
      sessions: this.#sessions,
      removing: this.#removing,
      log,
      clock: this.#clock,
      ttlMs: this.ttlMs,
      bounds,
      remove: (sessionId) => this.#remove(sessionId),
    });
  }

  #session(sessionId: string): SessionState {
    assertSessionId(sessionId);
    if (this.#closed) throw new Error('session store is closed');
    let state = this.#sessions.get(sessionId);
    if (!state) {
      const removing = this.#removing.get(sessionId);
      state = {
        lastSeq: undefined,
        chain: removing ? removing.catch(() => {}) : Promise.resolve(),
        attempts: new Map(),
        settled: new Set(),
        feed: new SharedFeed(this.#pacer),
        life: undefined,
        touched: this.#clock.now(),
        removed: false,
      };
      this.#sessions.set(sessionId, state);
      this.#retention.bound(state);
    }
    return state;
  }

  /** The session was used now: it moves to the end of the least-recently-used order. */
  #touch(sessionId: string, state: SessionState): void {
    if (state.removed) return;
    state.touched = this.#clock.now();
    this.#sessions.delete(sessionId);
    this.#sessions.set(sessionId, state);
  }

  /** Runs `task` after every earlier append and live call of the session. */
  #enqueue<T>(state: SessionState, task: () => Promise<T> | T): Promise<T> {
    const run = state.chain.then(task);
    state.chain = run.catch(() => {});
    return run;
  }

  async #lastSeq(sessionId: string, state: SessionState): Promise<number> {
    state.lastSeq ??= await this.#log.lastSeq(sessionId);
    return state.lastSeq;
  }

  async #life(sessionId: string, state: SessionState): Promise<string> {
    state.life ??= await this.#log.life(sessionId, newLife());
    return state.life;
  }

  append(sessionId: string, events: readonly UnnumberedEvent[]): Promise<readonly SessionEvent[]> {
    let state: SessionState;
    try {
      state = this.#session(sessionId);
      checkDurableBatch(events);
    } catch (error) {
      return Promise.reject(error);
    }
    this.#touch(sessionId, state);
    return this.#enqueue(state, async () => {
      if (events.length === 0) return [];
      await this.#life(sessionId, state);
      const last = await this.#lastSeq(sessionId, state);
      const at = Date.now();
      const numbered = events.map(
        (event, index) => jsonCopy({ ...event, seq: last + 1 + index, at }) as SessionEvent,
      );
      await this.#log.write(sessionId, numbered);
      state.lastSeq = last + numbered.length;
      state.feed.append(numbered);
      this.#retention.bound(state);
      return numbered;
    });
  }

  live(sessionId: string, events: readonly StreamEvent[]): Promise<void> {
    let state: SessionState;
    let copies: StreamEvent[];
    try {
      state = this.#session(sessionId);
      checkStreamBatch(events);
      copies = events.map(jsonCopy);
    } catch (error) {
      return Promise.reject(error);
    }
    this.#touch(sessionId, state);
    return this.#enqueue(state, () => {
      const refused = new Set<string>();
      const accepted: StreamEvent[] = [];
      const now = this.#clock.now();
      for (const event of copies) {
        if (state.settled.has(event.attemptId) && event.type !== 'stream/settle') {
          refused.add(event.attemptId);
          continue;
        }
        if (event.type === 'stream/settle') {
          if (state.settled.has(event.attemptId)) continue;
          this.#settled(state, event.attemptId);
        } else {
          let attempt = state.attempts.get(event.attemptId);
          if (!attempt) {
            attempt = { events: [], deadline: 0 };
            state.attempts.set(event.attemptId, attempt);
          }
          attempt.events.push(event);
          attempt.deadline = now + this.leaseMs;
        }
        accepted.push(event);
      }
      state.feed.append(accepted);
      this.#armSweep();
      if (refused.size > 0) throw settledError(refused);
    });
  }

  #settled(state: SessionState, attemptId: string): void {
    state.attempts.delete(attemptId);
    state.settled.add(attemptId);
    if (state.settled.size > settledKept) {
      const oldest = state.settled.values().next().value as string;
      state.settled.delete(oldest);
    }
  }

  async renew(sessionId: string, attemptIds: readonly string[]): Promise<void> {
    const state = this.#session(sessionId);
    const deadline = this.#clock.now() + this.leaseMs;
    for (const id of attemptIds) {
      const attempt = state.attempts.get(id);
      if (attempt) attempt.deadline = deadline;
    }
  }

  async page(sessionId: string, options: PageOptions): Promise<readonly SessionEvent[]> {
    assertSessionId(sessionId);
    const checked = checkPage(options);
    await this.#removing.get(sessionId);
    return this.#log.page(sessionId, checked);
  }

  life(sessionId: string): Promise<string> {
    let state: SessionState;
    try {
      state = this.#session(sessionId);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.#enqueue(state, () => this.#life(sessionId, state));
  }

  follow(sessionId: string, options: FollowOptions): BatchedFollow {
    const state = this.#session(sessionId);
    const after = Number.isFinite(options.after) ? options.after : 0;
    let queue: FollowerQueue;
    const start = async () => {
      // Registered first: what is appended while the backlog is read waits in the queue.
      const head = await this.#enqueue(state, async () => {
        const life = await this.#life(sessionId, state);
        if (state.removed || (options.life !== undefined && options.life !== life)) {
          return undefined;
        }
        const last = await this.#lastSeq(sessionId, state);
        queue.read(state.feed);
        state.feed.add(queue);
        return last;
      });
      // Deleted (or begun again) before the snapshot: there is nothing of that life to follow.
      if (head === undefined) return queue.end();
      const backlog: SessionEvent[] = [];
      for (let from = after; from < head; ) {
        const chunk = await this.#log.range(sessionId, from, head, backlogChunk);
        if (chunk.length === 0) break;
        appendAll(backlog, chunk);
        from = (chunk[chunk.length - 1] as SessionEvent).seq;
      }
      // The replay shows the attempts as they are now, so stream events queued meanwhile
      // (and settles of attempts gone since) are dropped; durable ones all come after head.
      const appended = queue.takeAll().filter(isDurableEvent);
      const replay: StreamEvent[] = [];
      for (const attempt of state.attempts.values()) appendAll(replay, attempt.events);
      queue.pushAll([...backlog, ...appended, ...replay]);
    };
    this.#followers++;
    queue = new FollowerQueue(
      () => {
        this.#followers--;
        state.feed.delete(queue);
        this.#touch(sessionId, state);
      },
      options.signal,
      start,
      this.#pacer,
    );
    return queue;
  }

  delete(sessionId: string): Promise<void> {
    try {
      assertSessionId(sessionId);
      if (this.#closed) throw new Error('session store is closed');
    } catch (error) {
      return Promise.reject(error);
    }
    return this.#remove(sessionId);
  }

  /**
   * Removes the session now for every new call (they begin its next life, after this
   * deletion), ends its followers, and removes its log once what was queued on it has run.
   */
  #remove(sessionId: string): Promise<void> {
    const state = this.#sessions.get(sessionId);
    const earlier = this.#removing.get(sessionId);
    if (state) {
      this.#sessions.delete(sessionId);
      state.removed = true;
      state.attempts.clear();
      for (const follower of state.feed.readers) follower.end();
    }
    const done = (async () => {
      await earlier?.catch(() => {});
      await state?.chain;
      await this.#log.delete(sessionId);
    })();
    this.#removing.set(sessionId, done);
    const forget = () => {
      if (this.#removing.get(sessionId) === done) this.#removing.delete(sessionId);
    };
    done.then(forget, forget);
    return done;
  }

  #armSweep(): void {
    if (this.#sweep !== undefined || this.#closed) return;
    this.#sweep = this.#clock.setTimeout(() => {
      this.#sweep = undefined;
      return this.#expire();
    }, this.#sweepMs);
  }

  #expire(): Promise<unknown> {
    const now = this.#clock.now();
    let live = false;
    const expired: [sessionId: string, attemptId: string][] = [];
    for (const [sessionId, state] of this.#sessions) {
      for (const [attemptId, attempt] of state.attempts) {
        if (attempt.deadline > now) live = true;
        else expired.push([sessionId, attemptId]);
      }
    }
    // Through live() (after the loop: a write moves its session in the map), so that it is
    // ordered after what the producer already wrote.
    this.#leasesExpired += expired.length;
    const settles = expired.map(([sessionId, attemptId]) =>
      this.live(sessionId, [{ type: 'stream/settle', attemptId }]).catch(() => {}),
    );
    if (live) this.#armSweep();
    return Promise.all(settles);
  }

  metrics(): StoreMetrics {
    let liveAttempts = 0;
    for (const state of this.#sessions.values()) liveAttempts += state.attempts.size;
    const bytesHeld = this.#log.bytesHeld;
    return {
      sessions: this.#sessions.size,
      ...(bytesHeld === undefined ? {} : { bytesHeld }),
      followers: this.#followers,
      liveAttempts,
      leasesExpired: this.#leasesExpired,
      evictions: this.#retention.evictions,
      feedTrims: 0,
    };
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#clock.clearTimeout(this.#sweep);
    this.#retention.close();
    for (const state of this.#sessions.values()) {
      for (const follower of state.feed.readers) follower.end();
    }
    this.#pacer?.stop();
    await Promise.all([...this.#sessions.values()].map((state) => state.chain));
    await Promise.allSettled(this.#removing.values());
    await this.#log.close();
  }
}

function positive(value: number, name: string): number {
  if (!(Number.isFinite(value) && value > 0)) {
    throw new RangeError(`${name} must be a positive number, got ${value}`);
  }
  return value;
}
