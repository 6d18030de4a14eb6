import { isDurableEvent, type SessionEvent, type StreamEvent } from '../events/types.js';
import { appendAll } from '../internal/append-all.js';
import { checkPage, type DurableLog } from './durable-log.js';
import { type FanOutMs, type FanOutPacer, fanOutPacer } from './fan-out-pacer.js';
import { FollowerQueue } from './follower-queue.js';
import { assertSessionId } from './session-id.js';
import type {
  BatchedFollow,
  FollowOptions,
  PageOptions,
  SessionStore,
  UnnumberedEvent,
} from './session-store.js';
import { SharedFeed } from './shared-feed.js';
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
}

const settledKept = 4096;
const backlogChunk = 1000;

/**
 * A copy equal to a JSON round trip: what is kept is what a client will read, and callers
 * may mutate theirs. Plain objects, arrays, strings, finite numbers and booleans are copied
 * directly — strings are shared, not re-encoded (a JSON round trip of the demo's 3,507
 * events took most of recordAttempt's time: the 512 KiB write went through it twice);
 * anything else (a class instance, `toJSON`, a non-finite number, `__proto__`, a very deep
 * value) takes the JSON round trip itself, so the result is the same.
 */
function jsonCopy<T>(value: T): T {
  const copied = plainCopy(value, 0);
  return (copied === notPlain ? JSON.parse(JSON.stringify(value)) : copied) as T;
}

const notPlain: unique symbol = Symbol('not plain');

function plainCopy(value: unknown, depth: number): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? (value === 0 ? 0 : value) : notPlain;
    case 'object': {
      if (value === null) return null;
      if (depth > 200) return notPlain;
      if (Array.isArray(value)) {
        const out: unknown[] = new Array(value.length);
        for (let i = 0; i < value.length; i++) {
          const item = plainCopy(value[i], depth + 1);
          if (item === notPlain || item === undefined) return notPlain;
          out[i] = item;
        }
        return out;
      }
      const prototype = Object.getPrototypeOf(value);
      if (prototype !== Object.prototype && prototype !== null) return notPlain;
      const record = value as Record<string, unknown>;
      if (typeof record.toJSON === 'function') return notPlain;
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(record)) {
        if (key === '__proto__') return notPlain;
        const field = record[key];
        // JSON drops these fields.
        if (field === undefined || typeof field === 'function' || typeof field === 'symbol') {
          continue;
        }
        const item = plainCopy(field, depth + 1);
        if (item === notPlain) return notPlain;
        out[key] = item;
      }
      return out;
    }
    default:
      return notPlain;
  }
}

/**
 * The store of one process: durable events in a `DurableLog`, live attempts, leases and
 * followers in memory. `memoryStore` and `fileStore` are this engine over their logs.
 */
export class LocalStore implements SessionStore {
  readonly leaseMs: number;
  readonly #sweepMs: number;
  readonly #log: DurableLog;
  readonly #sessions = new Map<string, SessionState>();
  #sweep: ReturnType<typeof setTimeout> | undefined;
  #closed = false;
  readonly #pacer: FanOutPacer | undefined;

  constructor(log: DurableLog, options: LocalStoreOptions = {}) {
    this.#log = log;
    this.#pacer = fanOutPacer(options.fanOutMs);
    this.leaseMs = positive(options.leaseMs ?? 30_000, 'leaseMs');
    this.#sweepMs = positive(options.sweepMs ?? Math.min(1000, this.leaseMs / 4), 'sweepMs');
  }

  #session(sessionId: string): SessionState {
    assertSessionId(sessionId);
    if (this.#closed) throw new Error('session store is closed');
    let state = this.#sessions.get(sessionId);
    if (!state) {
      state = {
        lastSeq: undefined,
        chain: Promise.resolve(),
        attempts: new Map(),
        settled: new Set(),
        feed: new SharedFeed(this.#pacer),
      };
      this.#sessions.set(sessionId, state);
    }
    return state;
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

  append(sessionId: string, events: readonly UnnumberedEvent[]): Promise<readonly SessionEvent[]> {
    let state: SessionState;
    try {
      state = this.#session(sessionId);
      checkDurableBatch(events);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.#enqueue(state, async () => {
      if (events.length === 0) return [];
      const last = await this.#lastSeq(sessionId, state);
      const at = Date.now();
      const numbered = events.map(
        (event, index) => jsonCopy({ ...event, seq: last + 1 + index, at }) as SessionEvent,
      );
      await this.#log.write(sessionId, numbered);
      state.lastSeq = last + numbered.length;
      state.feed.append(numbered);
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
    return this.#enqueue(state, () => {
      const refused = new Set<string>();
      const accepted: StreamEvent[] = [];
      const now = Date.now();
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
    const deadline = Date.now() + this.leaseMs;
    for (const id of attemptIds) {
      const attempt = state.attempts.get(id);
      if (attempt) attempt.deadline = deadline;
    }
  }

  async page(sessionId: string, options: PageOptions): Promise<readonly SessionEvent[]> {
    assertSessionId(sessionId);
    return this.#log.page(sessionId, checkPage(options));
  }

  follow(sessionId: string, options: FollowOptions): BatchedFollow {
    const state = this.#session(sessionId);
    const after = Number.isFinite(options.after) ? options.after : 0;
    let queue: FollowerQueue;
    const start = async () => {
      // Registered first: what is appended while the backlog is read waits in the queue.
      const head = await this.#enqueue(state, async () => {
        const last = await this.#lastSeq(sessionId, state);
        queue.read(state.feed);
        state.feed.add(queue);
        return last;
      });
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
    queue = new FollowerQueue(() => state.feed.delete(queue), options.signal, start, this.#pacer);
    return queue;
  }

  #armSweep(): void {
    if (this.#sweep !== undefined || this.#closed) return;
    this.#sweep = setTimeout(() => {
      this.#sweep = undefined;
      this.#expire();
    }, this.#sweepMs);
  }

  #expire(): void {
    const now = Date.now();
    let live = false;
    for (const [sessionId, state] of this.#sessions) {
      for (const [attemptId, attempt] of state.attempts) {
        if (attempt.deadline > now) {
          live = true;
          continue;
        }
        // Through live(), so that it is ordered after what the producer already wrote.
        this.live(sessionId, [{ type: 'stream/settle', attemptId }]).catch(() => {});
      }
    }
    if (live) this.#armSweep();
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearTimeout(this.#sweep);
    for (const state of this.#sessions.values()) {
      for (const follower of state.feed.readers) follower.end();
    }
    this.#pacer?.stop();
    await Promise.all([...this.#sessions.values()].map((state) => state.chain));
    await this.#log.close();
  }
}

function positive(value: number, name: string): number {
  if (!(Number.isFinite(value) && value > 0)) {
    throw new RangeError(`${name} must be a positive number of ms, got ${value}`);
  }
  return value;
}
