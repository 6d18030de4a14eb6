import type { CallfoldEvent, SessionEvent, StreamEvent } from '../../events/types.js';
import { appendAll } from '../../internal/append-all.js';
import { checkPage } from '../durable-log.js';
import { type FanOutPacer, fanOutPacer } from '../fan-out-pacer.js';
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
import { systemClock } from '../store-clock.js';
import { checkDurableBatch, checkStreamBatch, settledError } from '../validate-batch.js';
import { defineScripts, type RunScript } from './commands.js';
import { type Entry, eventOf } from './feed-ids.js';
import type { Joiner, SessionTail } from './feed-tail.js';
import type { RedisStoreOptions } from './redis-store.js';
import { appendReplicated } from './replicated-append.js';
import { SessionKeeper } from './session-keeper.js';
import { type RedisTopology, TailSet } from './tail-set.js';

/**
 * The store of many instances: Redis (one server or a cluster) holds each session's durable
 * log, its live attempts and their leases, and a feed every instance tails. See `redisStore`.
 */
export class RedisSessionStore implements SessionStore {
  readonly leaseMs: number;
  readonly ttlMs: number | undefined;
  readonly #keeper: SessionKeeper;
  #followers = 0;
  #leasesExpired = 0;
  readonly #topology: RedisTopology;
  readonly #run: RunScript;
  readonly #prefix: string;
  readonly #feedMax: number;
  readonly #replicated: number | undefined;
  readonly #tails: TailSet;
  readonly #pacer: FanOutPacer | undefined;
  readonly #sweep: ReturnType<typeof setInterval>;
  #closed = false;

  constructor(topology: RedisTopology, options: RedisStoreOptions) {
    this.#topology = topology;
    this.#run = defineScripts(topology.client);
    this.#prefix = options.prefix ?? 'callfold:';
    this.leaseMs = options.leaseMs ?? 30_000;
    this.#feedMax = options.feedMax ?? 100_000;
    this.#pacer = fanOutPacer(options.fanOutMs);
    this.#tails = new TailSet(
      topology,
      (sessionId) => `${this.#base(sessionId)}:feed`,
      this.#pacer,
      options.blockMs ?? 5000,
      this.#feedMax,
    );
    const sweepMs = options.sweepMs ?? Math.min(1000, this.leaseMs / 4);
    if (!(this.leaseMs > 0 && sweepMs > 0)) throw new RangeError('leaseMs and sweepMs must be > 0');
    const durability = options.durability ?? 'acknowledged';
    if (durability !== 'acknowledged' && durability !== 'replicated') {
      throw new RangeError(`durability must be 'acknowledged' or 'replicated', got ${durability}`);
    }
    this.#replicated = durability === 'replicated' ? (options.replicaTimeoutMs ?? 1000) : undefined;
    this.ttlMs = options.ttlMs;
    this.#keeper = new SessionKeeper(
      options.ttlMs,
      options.clock ?? systemClock,
      async (base) => String(await this.#run('keep', base, [this.#ttl])),
      () =>
        [...this.#tails.entries()].flatMap(([sessionId, tail]) =>
          tail.life === undefined
            ? []
            : [
                {
                  base: this.#base(sessionId),
                  life: tail.life,
                  stale: () => this.#tails.end(sessionId, tail),
                },
              ],
        ),
    );
    this.#sweep = setInterval(() => void this.#sweepLeases(), sweepMs);
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

  /**
   * Settles the expired leases of the sessions tailed here that have live attempts: every
   * instance with followers of a session sweeps it (one settles an attempt, the others find
   * it gone), and so does each live write and follow of the session itself (scripts.ts).
   */
  async #sweepLeases(): Promise<void> {
    const swept = [...this.#tails.entries()].filter(([, tail]) => tail.live.size > 0);
    await Promise.all(
      swept.map(async ([sessionId, tail]) => {
        const args = [this.#feedMax, this.#ttl];
        const [expired, live] = (await this.#run('sweep', this.#base(sessionId), args).catch(() => [
          0, 1,
        ])) as [number, number];
        this.#leasesExpired += Number(expired);
        if (Number(live) === 0) tail.live.clear();
      }),
    );
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
    const args = [this.#feedMax, this.#ttl, newLife(), ...bodies];
    const first =
      this.#replicated === undefined
        ? Number(await this.#run('append', base, args))
        : await appendReplicated(
            this.#topology,
            sessionId,
            base,
            args,
            bodies.length,
            this.#replicated,
          );
    return bodies.map((body, i) => ({ seq: first + i, ...JSON.parse(body) }) as SessionEvent);
  }

  async live(sessionId: string, events: readonly StreamEvent[]): Promise<void> {
    const base = this.#base(sessionId);
    checkStreamBatch(events);
    if (events.length === 0) return;
    const args: (string | number)[] = [this.#feedMax, this.leaseMs, this.#ttl, newLife()];
    for (const event of events) {
      args.push(event.attemptId, event.type === 'stream/settle' ? 's' : 'e', JSON.stringify(event));
    }
    const refused = (await this.#run('live', base, args)) as string[];
    if (refused.length > 0) throw settledError(new Set(refused));
  }

  async renew(sessionId: string, attemptIds: readonly string[]): Promise<void> {
    const base = this.#base(sessionId);
    if (attemptIds.length === 0) return;
    await this.#run('renew', base, [this.leaseMs, this.#ttl, ...attemptIds]);
  }

  async life(sessionId: string): Promise<string> {
    return String(await this.#run('life', this.#base(sessionId), [newLife(), this.#ttl]));
  }

  async delete(sessionId: string): Promise<void> {
    await this.#run('delete', this.#base(sessionId), [this.#feedMax]);
    // This instance's followers end now; other instances' when their tail reads the mark.
    const tail = this.#tails.get(sessionId);
    if (tail) this.#tails.end(sessionId, tail);
  }

  metrics(): StoreMetrics {
    let liveAttempts = 0;
    for (const [, tail] of this.#tails.entries()) liveAttempts += tail.live.size;
    return {
      sessions: this.#tails.size,
      followers: this.#followers,
      liveAttempts,
      leasesExpired: this.#leasesExpired,
      evictions: 0,
      feedTrims: this.#tails.feedTrims,
    };
  }

  async page(sessionId: string, options: PageOptions): Promise<readonly SessionEvent[]> {
    const base = this.#base(sessionId);
    const { before, limit } = checkPage(options);
    const last = Math.ceil(before) - 1;
    if (limit === 0 || last < 1) return [];
    const end = Number.isFinite(last) ? `${last}-0` : '+';
    const entries = (await this.#topology.client.call(
      'XREVRANGE',
      `${base}:log`,
      end,
      '-',
      'COUNT',
      limit,
    )) as Entry[];
    return entries.reverse().map(([, fields]) => eventOf(fields) as SessionEvent);
  }

  async #backlog(base: string, from: number, through: number): Promise<SessionEvent[]> {
    const backlog: SessionEvent[] = [];
    for (let seq = from; seq < through; ) {
      const entries = (await this.#topology.client.call(
        'XRANGE',
        `${base}:log`,
        `${Math.max(1, Math.floor(seq) + 1)}-0`,
        `${through}-0`,
        'COUNT',
        1000,
      )) as Entry[];
      if (entries.length === 0) break;
      appendAll(
        backlog,
        entries.map(([, fields]) => eventOf(fields) as SessionEvent),
      );
      seq = (backlog.at(-1) as SessionEvent).seq;
    }
    return backlog;
  }

  follow(sessionId: string, options: FollowOptions): BatchedFollow {
    const base = this.#base(sessionId);
    if (this.#closed) throw new Error('session store is closed');
    const from = Number.isFinite(options.after) ? options.after : 0;
    let tail: SessionTail | undefined;
    let joiner: Joiner | undefined;
    const start = async (queue: FollowerQueue) => {
      const joined = this.#tails.tail(sessionId);
      tail = joined;
      // Registered before the snapshot: entries the tail reads meanwhile wait for it.
      joiner = joined.join(queue);
      const [expired, lastSeq = '0', tip = '0-0', life = '', ...held] = (await this.#run(
        'snapshot',
        base,
        [newLife(), this.#ttl, this.#feedMax],
      )) as string[];
      this.#leasesExpired += Number(expired);
      // The session was deleted and begun again since this tail's first snapshot (its
      // followers missed the mark), or since the caller read its life: nothing to join.
      if (joined.life !== undefined && joined.life !== life) this.#tails.end(sessionId, joined);
      joined.life ??= life;
      if (options.life !== undefined && options.life !== life) queue.end();
      if (queue.ended) return;
      const reader = this.#tails.reader(sessionId);
      if (joined.cursor === undefined) {
        joined.cursor = tip;
        reader.interrupt();
      }
      const backlog = await this.#backlog(base, from, Number(lastSeq));
      // Ended meanwhile (closed, cancelled, or its tail fell behind the trim): nothing to join.
      if (queue.ended) return;
      // The backlog runs through the snapshot's last seq and the replay holds the attempts as
      // at the snapshot; every feed entry after `tip` (durable or not) comes after them.
      const replay = held.map((json) => JSON.parse(json) as CallfoldEvent);
      joined.note(replay);
      joined.started(joiner, tip, [...backlog, ...replay]);
      reader.read();
    };
    this.#followers++;
    return new FollowerQueue(
      () => {
        this.#followers--;
        if (!tail) return;
        if (joiner) tail.leave(joiner);
        if (tail.empty) this.#tails.drop(sessionId, tail);
      },
      options.signal,
      start,
      this.#pacer,
    );
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#sweep);
    this.#keeper.close();
    this.#tails.close();
    this.#pacer?.stop();
    if (this.#topology.owned) await this.#topology.client.quit().catch(() => {});
  }
}
