import type { Redis } from 'ioredis';
import type { CallfoldEvent, SessionEvent, StreamEvent } from '../../events/types.js';
import { appendAll } from '../../internal/append-all.js';
import { checkPage } from '../durable-log.js';
import { type FanOutMs, type FanOutPacer, fanOutPacer } from '../fan-out-pacer.js';
import { FollowerQueue } from '../follower-queue.js';
import { assertSessionId } from '../session-id.js';
import { newLife } from '../session-life.js';
import type {
  BatchedFollow,
  FollowOptions,
  PageOptions,
  SessionStore,
  StoreMetrics,
  UnnumberedEvent,
} from '../session-store.js';
import { SharedFeed } from '../shared-feed.js';
import { type StoreClock, systemClock } from '../store-clock.js';
import { checkDurableBatch, checkStreamBatch, settledError } from '../validate-batch.js';
import { after, type Entry, eventOf, follows, isDeletionMark, type ReadReply } from './feed-ids.js';
import { deleteScript, lifeScript } from './retention.js';
import { appendScript, liveScript, renewScript, snapshotScript, sweepScript } from './scripts.js';
import { SessionKeeper } from './session-keeper.js';

export type RedisStoreOptions = ({ readonly url: string } | { readonly client: Redis }) & {
  /** Prefix of every key. Default `callfold:`. */
  readonly prefix?: string;
  /** A live attempt not written to or renewed for this long is settled. Default 30 000 ms. */
  readonly leaseMs?: number;
  /** How often this instance looks for expired leases. Default: leaseMs / 4, at most 1 s. */
  readonly sweepMs?: number;
  /** Entries each session's feed keeps for tailing followers (approximate). Default 100 000. */
  readonly feedMax?: number;
  /** How long one blocking read waits before it is reissued. Default 5000 ms. */
  readonly blockMs?: number;
  /**
   * A session's followers on this instance are woken at most once per window, all together,
   * as `memoryStore`'s (see `LocalStoreOptions.fanOutMs`): `'auto'` (default) or ms (0: at
   * every read).
   */
  readonly fanOutMs?: FanOutMs;
  /**
   * A session with no append, live write or follower for this long expires: `PEXPIRE` on
   * every key of the session, renewed by each write and, for the sessions it has followers
   * of, by each instance every ttlMs / 3. Default: never.
   */
  readonly ttlMs?: number;
  /** The clock of the follower renewals (tests drive one). Default: the system clock. */
  readonly clock?: StoreClock;
};

/**
 * A follower between its first read and its place on the tail's feed: it has registered (so
 * nothing the tail reads from then on escapes it) and takes its snapshot, backlog and replay.
 */
interface Joiner {
  readonly queue: FollowerQueue;
  /** The feed ID at its snapshot, once taken: entries up to it are in its backlog and replay. */
  startId: string | undefined;
  /** What the tail read before `startId` was known, with the feed IDs. */
  readonly early: { id: string; event: CallfoldEvent }[];
}

/** What one instance holds for a session it has followers of. */
interface Tail {
  /** The last feed ID this instance's read took (undefined until the first snapshot). */
  cursor: string | undefined;
  /** The events read, kept once for every follower past its start (their `FollowerQueue`s). */
  readonly feed: SharedFeed<FollowerQueue>;
  /** Followers still taking their start; they move to `feed` once the tail has read their snapshot. */
  readonly joining: Set<Joiner>;
  /** The session's life at the first snapshot: a later one that differs finds this tail stale. */
  life: string | undefined;
}

/**
 * The store of many instances: one Redis holds each session's durable log, its live
 * attempts and their leases, and a feed every instance tails. See `redisStore`.
 */
class RedisStore implements SessionStore {
  readonly leaseMs: number;
  readonly ttlMs: number | undefined;
  readonly #keeper: SessionKeeper;
  #followers = 0;
  #leasesExpired = 0;
  #liveAttempts = 0;
  #feedTrims = 0;
  readonly #redis: Redis;
  readonly #reader: Redis;
  readonly #owned: boolean;
  readonly #prefix: string;
  readonly #feedMax: number;
  readonly #blockMs: number;
  readonly #scripts = new Map<string, string>();
  readonly #tails = new Map<string, Tail>();
  readonly #pacer: FanOutPacer | undefined;
  readonly #sweep: ReturnType<typeof setInterval>;
  #readerId: number | undefined;
  #reading = false;
  #blocked = false;
  #wake: (() => void) | undefined;
  #closed = false;

  constructor(redis: Redis, owned: boolean, options: RedisStoreOptions) {
    this.#redis = redis;
    this.#owned = owned;
    this.#reader = redis.duplicate();
    this.#reader.on('ready', () => {
      this.#readerId = undefined;
    });
    this.#reader.on('error', () => {});
    this.#prefix = options.prefix ?? 'callfold:';
    this.leaseMs = options.leaseMs ?? 30_000;
    this.#feedMax = options.feedMax ?? 100_000;
    this.#blockMs = options.blockMs ?? 5000;
    this.#pacer = fanOutPacer(options.fanOutMs);
    const sweepMs = options.sweepMs ?? Math.min(1000, this.leaseMs / 4);
    if (!(this.leaseMs > 0 && sweepMs > 0)) throw new RangeError('leaseMs and sweepMs must be > 0');
    this.ttlMs = options.ttlMs;
    this.#keeper = new SessionKeeper(
      options.ttlMs,
      options.clock ?? systemClock,
      (lua, keys, args) => this.#script(lua, keys, args),
      () =>
        [...this.#tails].flatMap(([sessionId, tail]) =>
          tail.life === undefined
            ? []
            : [
                {
                  base: this.#base(sessionId),
                  life: tail.life,
                  stale: () => this.#endTail(sessionId, tail),
                },
              ],
        ),
    );
    this.#sweep = setInterval(() => {
      const leases = `${this.#prefix}leases`;
      this.#script(sweepScript, [leases], [this.#prefix, this.#feedMax, 500, this.#ttl])
        .then(async (expired) => {
          this.#leasesExpired += Number(expired);
          this.#liveAttempts = Number(await this.#redis.call('ZCARD', leases));
        })
        .catch(() => {});
    }, sweepMs);
    this.#sweep.unref();
  }

  /** `ttlMs` as the scripts take it (0: no expiry). */
  get #ttl(): number {
    return this.ttlMs ?? 0;
  }

  #base(sessionId: string): string {
    assertSessionId(sessionId);
    return `${this.#prefix}{${sessionId}}`;
  }

  async #script(lua: string, keys: readonly string[], args: readonly (string | number)[]) {
    let sha = this.#scripts.get(lua);
    if (!sha) {
      sha = (await this.#redis.call('SCRIPT', 'LOAD', lua)) as string;
      this.#scripts.set(lua, sha);
    }
    try {
      return await this.#redis.call('EVALSHA', sha, keys.length, ...keys, ...args);
    } catch (error) {
      if (!String(error).includes('NOSCRIPT')) throw error;
      return this.#redis.call('EVAL', lua, keys.length, ...keys, ...args);
    }
  }

  async append(
    sessionId: string,
    events: readonly UnnumberedEvent[],
  ): Promise<readonly SessionEvent[]> {
    const base = this.#base(sessionId);
    checkDurableBatch(events);
    if (events.length === 0) return [];
    const at = Date.now();
    const bodies = events.map((event) => {
      const { seq: _seq, ...rest } = event as UnnumberedEvent & { seq?: number };
      return JSON.stringify({ ...rest, at });
    });
    const first = Number(
      await this.#script(
        appendScript,
        [`${base}:seq`, `${base}:log`, `${base}:feed`],
        [this.#feedMax, this.#ttl, base, newLife(), ...bodies],
      ),
    );
    return bodies.map((body, i) => ({ seq: first + i, ...JSON.parse(body) }) as SessionEvent);
  }

  async live(sessionId: string, events: readonly StreamEvent[]): Promise<void> {
    const base = this.#base(sessionId);
    checkStreamBatch(events);
    if (events.length === 0) return;
    const args: string[] = [];
    for (const event of events) {
      args.push(event.attemptId, event.type === 'stream/settle' ? 's' : 'e', JSON.stringify(event));
    }
    const refused = (await this.#script(
      liveScript,
      [`${this.#prefix}leases`],
      [base, sessionId, this.#feedMax, this.leaseMs, this.#ttl, newLife(), ...args],
    )) as string[];
    if (refused.length > 0) throw settledError(new Set(refused));
  }

  async renew(sessionId: string, attemptIds: readonly string[]): Promise<void> {
    const base = this.#base(sessionId);
    if (attemptIds.length === 0) return;
    await this.#script(
      renewScript,
      [`${this.#prefix}leases`],
      [sessionId, this.leaseMs, base, this.#ttl, ...attemptIds],
    );
  }

  async life(sessionId: string): Promise<string> {
    const base = this.#base(sessionId);
    return String(await this.#script(lifeScript, [], [base, newLife(), this.#ttl]));
  }

  async delete(sessionId: string): Promise<void> {
    const base = this.#base(sessionId);
    await this.#script(deleteScript, [`${this.#prefix}leases`], [base, sessionId, this.#feedMax]);
    // This instance's followers end now; other instances' when their tail reads the mark.
    const tail = this.#tails.get(sessionId);
    if (tail) this.#endTail(sessionId, tail);
  }

  /** The session was deleted: its followers end (they resume, and are told, see `life`). */
  #endTail(sessionId: string, tail: Tail): void {
    if (this.#tails.get(sessionId) === tail) {
      this.#tails.delete(sessionId);
      this.#interrupt();
    }
    for (const joiner of tail.joining) joiner.queue.end();
    for (const follower of tail.feed.readers) follower.end();
  }

  metrics(): StoreMetrics {
    return {
      sessions: this.#tails.size,
      followers: this.#followers,
      liveAttempts: this.#liveAttempts,
      leasesExpired: this.#leasesExpired,
      evictions: 0,
      feedTrims: this.#feedTrims,
    };
  }

  async page(sessionId: string, options: PageOptions): Promise<readonly SessionEvent[]> {
    const base = this.#base(sessionId);
    const { before, limit } = checkPage(options);
    const last = Math.ceil(before) - 1;
    if (limit === 0 || last < 1) return [];
    const end = Number.isFinite(last) ? `${last}-0` : '+';
    const entries = (await this.#redis.call(
      'XREVRANGE',
      `${base}:log`,
      end,
      '-',
      'COUNT',
      limit,
    )) as Entry[];
    return entries.reverse().map(([, fields]) => eventOf(fields) as SessionEvent);
  }

  async #range(base: string, from: number, through: number, limit: number) {
    const entries = (await this.#redis.call(
      'XRANGE',
      `${base}:log`,
      `${Math.max(1, Math.floor(from) + 1)}-0`,
      `${through}-0`,
      'COUNT',
      limit,
    )) as Entry[];
    return entries.map(([, fields]) => eventOf(fields) as SessionEvent);
  }

  follow(sessionId: string, options: FollowOptions): BatchedFollow {
    const base = this.#base(sessionId);
    if (this.#closed) throw new Error('session store is closed');
    const from = Number.isFinite(options.after) ? options.after : 0;
    let tail: Tail | undefined;
    let joiner: Joiner | undefined;
    const start = async (queue: FollowerQueue) => {
      tail = this.#tails.get(sessionId);
      if (!tail) {
        tail = {
          cursor: undefined,
          feed: new SharedFeed(this.#pacer),
          joining: new Set(),
          life: undefined,
        };
        this.#tails.set(sessionId, tail);
      }
      const joined = tail;
      // Registered before the snapshot: entries the tail reads meanwhile wait in `early`.
      joiner = { queue, startId: undefined, early: [] };
      joined.joining.add(joiner);
      const [lastSeq = '0', tip = '0-0', life = '', ...held] = (await this.#script(
        snapshotScript,
        [`${base}:seq`, `${base}:feed`, `${base}:attempts`],
        [base, newLife(), this.#ttl],
      )) as string[];
      // The session was deleted and begun again since this tail's first snapshot (its
      // followers missed the mark), or since the caller read its life: nothing to join.
      if (joined.life !== undefined && joined.life !== life) this.#endTail(sessionId, joined);
      joined.life ??= life;
      if (options.life !== undefined && options.life !== life) queue.end();
      if (queue.ended) return;
      if (joined.cursor === undefined) {
        joined.cursor = tip;
        this.#interrupt();
      }
      const backlog: SessionEvent[] = [];
      for (let seq = from; seq < Number(lastSeq); ) {
        const chunk = await this.#range(base, seq, Number(lastSeq), 1000);
        if (chunk.length === 0) break;
        appendAll(backlog, chunk);
        seq = (chunk.at(-1) as SessionEvent).seq;
      }
      // Ended meanwhile (closed, cancelled, or its tail fell behind the trim): nothing to join.
      if (queue.ended) return;
      // The backlog runs through the snapshot's last seq and the replay holds the attempts as
      // at the snapshot; every feed entry after `tip` (durable or not) comes after them.
      joiner.startId = tip;
      const replay = held.map((json) => JSON.parse(json) as CallfoldEvent);
      const fresh = joiner.early.filter(({ id }) => after(id, tip)).map(({ event }) => event);
      joiner.early.length = 0;
      queue.pushAll([...backlog, ...replay, ...fresh]);
      // The tail has read up to the snapshot: the follower reads the feed from here on.
      // Otherwise `#deliver` moves it there once the tail's read passes `tip`.
      if (!after(tip, joined.cursor ?? tip)) this.#joinFeed(joined, joiner);
      this.#read();
    };
    this.#followers++;
    return new FollowerQueue(
      () => {
        this.#followers--;
        if (!tail) return;
        if (joiner) tail.joining.delete(joiner);
        if (joiner) tail.feed.delete(joiner.queue);
        if (tail.joining.size > 0 || tail.feed.readers.size > 0) return;
        if (this.#tails.get(sessionId) === tail) {
          this.#tails.delete(sessionId);
          this.#interrupt();
        }
      },
      options.signal,
      start,
      this.#pacer,
    );
  }

  /** `joiner` has everything up to the tail's cursor: it takes what the tail appends next. */
  #joinFeed(tail: Tail, joiner: Joiner): void {
    tail.joining.delete(joiner);
    joiner.queue.read(tail.feed);
    tail.feed.add(joiner.queue);
  }

  /** Makes the blocking read start over with the current set of tailed sessions. */
  #interrupt(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
    if (this.#blocked && this.#readerId !== undefined) {
      this.#redis.call('CLIENT', 'UNBLOCK', this.#readerId).catch(() => {});
    }
  }

  /** The one reading loop of this instance: a blocking XREAD over every tailed session's feed. */
  #read(): void {
    if (this.#reading || this.#closed) return;
    this.#reading = true;
    void (async () => {
      while (!this.#closed) {
        const tailed = [...this.#tails].filter(([, tail]) => tail.cursor !== undefined);
        if (tailed.length === 0) {
          if (this.#tails.size === 0) break;
          await new Promise<void>((resolve) => {
            this.#wake = resolve;
          });
          continue;
        }
        this.#readerId ??= (await this.#reader.call('CLIENT', 'ID').catch(() => undefined)) as
          | number
          | undefined;
        // The tails this read is for: one deleted and made again meanwhile (its last follower
        // left, a new one came) starts from its own snapshot, so this reply is not for it.
        const asked = new Map(tailed);
        let reply: ReadReply;
        try {
          this.#blocked = true;
          reply = (await this.#reader.call(
            'XREAD',
            'COUNT',
            1000,
            'BLOCK',
            this.#blockMs,
            'STREAMS',
            ...tailed.map(([sessionId]) => `${this.#prefix}{${sessionId}}:feed`),
            ...tailed.map(([, tail]) => tail.cursor as string),
          )) as ReadReply;
        } catch {
          if (this.#closed) break;
          await new Promise((resolve) => setTimeout(resolve, 100));
          continue;
        } finally {
          this.#blocked = false;
        }
        for (const [key, entries] of reply ?? []) {
          const sessionId = key.slice(this.#prefix.length + 1, key.length - ':feed'.length - 1);
          const tail = this.#tails.get(sessionId);
          if (!tail || tail !== asked.get(sessionId) || entries.length === 0) continue;
          const first = (entries[0] as Entry)[0];
          // An empty feed at the snapshot ('0-0'): any first entry is fine.
          if (tail.cursor !== undefined && tail.cursor !== '0-0' && !follows(first, tail.cursor)) {
            this.#behindTrim(sessionId, tail, first);
            continue;
          }
          const mark = entries.findIndex(([, fields]) => isDeletionMark(fields));
          if (mark === -1) {
            this.#deliver(tail, entries);
            continue;
          }
          if (mark > 0) this.#deliver(tail, entries.slice(0, mark));
          this.#endTail(sessionId, tail);
        }
      }
      this.#reading = false;
    })();
  }

  /**
   * The feed was trimmed (`feedMax`) past what this instance's tail had read: entries were
   * lost to it. Its followers end with an error — the handler ends their responses and
   * clients resume with Last-Event-ID, from the durable log (never trimmed) and a fresh
   * replay of the live attempts — rather than going on with a silent gap.
   */
  #behindTrim(sessionId: string, tail: Tail, first: string): void {
    this.#tails.delete(sessionId);
    this.#feedTrims++;
    const error = new Error(
      `redisStore: the follow of session ${sessionId} fell behind the feed trim (read up to ` +
        `${tail.cursor}, the feed now starts at ${first}; feedMax ${this.#feedMax}): resume ` +
        'with Last-Event-ID',
    );
    for (const joiner of tail.joining) joiner.queue.end(error);
    for (const follower of tail.feed.readers) follower.end(error);
  }

  /**
   * One read's entries for a session: parsed once, appended once to the session's feed
   * (one wake-up of all its followers per pacer window, however many there are). A
   * follower still joining takes from them only the entries after its snapshot.
   */
  #deliver(tail: Tail, entries: readonly Entry[]): void {
    const events = entries.map(([, fields]) => eventOf(fields));
    tail.cursor = (entries.at(-1) as Entry)[0];
    let joined: Joiner[] | undefined;
    for (const joiner of tail.joining) {
      const { startId } = joiner;
      if (startId === undefined) {
        for (let i = 0; i < entries.length; i++) {
          joiner.early.push({ id: (entries[i] as Entry)[0], event: events[i] as CallfoldEvent });
        }
        continue;
      }
      if (after(startId, tail.cursor)) continue;
      let first = 0;
      while (first < entries.length && !after((entries[first] as Entry)[0], startId)) first++;
      joiner.queue.pushAll(events.slice(first));
      (joined ??= []).push(joiner);
    }
    tail.feed.append(events);
    for (const joiner of joined ?? []) this.#joinFeed(tail, joiner);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#sweep);
    this.#keeper.close();
    for (const tail of this.#tails.values()) {
      for (const joiner of tail.joining) joiner.queue.end();
      for (const follower of tail.feed.readers) follower.end();
    }
    this.#tails.clear();
    this.#pacer?.stop();
    this.#interrupt();
    this.#reader.disconnect();
    if (this.#owned) await this.#redis.quit().catch(() => {});
  }
}

/**
 * A store for many server instances on one Redis (≥ 6.2; Redis Streams), through the
 * `ioredis` client (an optional peer dependency: `npm install ioredis`).
 *
 * 1. `append` numbers in a Lua script (INCR, then XADD with the seq as the entry ID), so
 *    seqs are strictly increasing and gap-free across every instance.
 * 2. Live attempts are held in Redis until their settle, with a lease each; every instance
 *    sweeps expired leases (atomically: one settles, the others find nothing), so an
 *    attempt whose producer died is withdrawn for every follower within leaseMs + sweepMs.
 * 3. Followers on one instance share one blocking XREAD over the feeds of the sessions
 *    they follow (one read for every session and follower of the instance). Each event is
 *    parsed once per instance and kept once per session in a `SharedFeed`, as the memory
 *    and file stores do: a read costs one append and one paced wake-up of the session's
 *    followers (`fanOutMs`), not a queue push and a wake-up per follower, and followers at
 *    the same position are handed the same batch (encoded once by the handler).
 * 4. A follower registers before its snapshot (the last seq, the feed's last ID and the
 *    held attempts, read at once): it gets the log up to that seq, the replay, then every
 *    feed entry after that ID, durable or not, in feed order — what the tail read during
 *    its snapshot and backlog included — and then reads the shared feed from where the
 *    tail is. An instance holds nothing for a session without followers: its tail goes
 *    with the last one, and the read stops asking for that feed.
 *
 * Pass `{ url }` (the store opens and closes its connections) or `{ client }` (an ioredis
 * client you own; the store adds one duplicate connection for blocking reads).
 *
 * @example
 * ```ts
 * import { sessionHandler } from 'callfold/server';
 * import { redisStore } from 'callfold/server/redis';
 * const store = await redisStore({ url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' });
 * ```
 */
export async function redisStore(options: RedisStoreOptions): Promise<SessionStore> {
  if ('client' in options) return new RedisStore(options.client, false, options);
  const { Redis } = await import('ioredis');
  const client = new Redis(options.url, { maxRetriesPerRequest: null });
  return new RedisStore(client, true, options);
}
