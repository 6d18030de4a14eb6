import type { Cluster, Redis } from 'ioredis';
import type { FanOutMs } from '../fan-out-pacer.js';
import type { SessionStore } from '../session-store.js';
import type { StoreClock } from '../store-clock.js';
import { serverLink, slotLink } from './feed-link.js';
import { keySlot } from './key-slot.js';
import { RedisSessionStore } from './redis-session-store.js';
import type { RedisTopology } from './tail-set.js';

export type RedisStoreOptions = (
  | { readonly url: string }
  | { readonly client: Redis | Cluster }
  /** Nodes of a Redis Cluster to start from (one is enough; more survive one being down). */
  | { readonly cluster: readonly { readonly host: string; readonly port: number }[] }
) & {
  /** Prefix of every key. Default `callfold:`. */
  readonly prefix?: string;
  /** A live attempt not written to or renewed for this long is settled. Default 30 000 ms. */
  readonly leaseMs?: number;
  /**
   * How often this instance settles expired leases in the sessions it has followers of
   * (those with live attempts). Default: leaseMs / 4, at most 1 s.
   */
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
  /**
   * When `append` resolves. `'acknowledged'` (default): on the master's reply; Redis
   * replicates asynchronously, so a master that dies right after may take the last
   * appends with it (see docs/guide/production-redis.md). `'replicated'`: once one replica
   * has the append too (`WAIT 1`); if none confirms within `replicaTimeoutMs`, `append`
   * rejects: the events are on the master, not known to be on a replica.
   */
  readonly durability?: 'acknowledged' | 'replicated';
  /** `durability: 'replicated'`: how long `append` waits for a replica. Default 1000 ms. */
  readonly replicaTimeoutMs?: number;
};

/**
 * A store for many server instances on Redis (≥ 6.2; Redis Streams) — one server, a
 * primary with replicas, or a Redis Cluster — through the `ioredis` client (an optional
 * peer dependency: `npm install ioredis`).
 *
 * 1. `append` numbers in a Lua script (INCR, then XADD with the seq as the entry ID), so
 *    seqs are strictly increasing and gap-free across every instance.
 * 2. Live attempts are held in Redis until their settle, with a lease each. An attempt
 *    whose producer died is settled, for every follower, by the lease sweep of each
 *    instance that has followers of its session (atomically: one settles, the others find
 *    nothing) within leaseMs + sweepMs, and by the session's next live write or follow.
 * 3. Every script touches the keys of one session, hash-tagged `{sessionId}` (one slot on
 *    a cluster); scripts are defined on the client (`defineCommand`), which runs them by SHA
 *    and routes them to the session's node.
 * 4. Followers on one instance share one blocking XREAD per group of feeds — on one Redis,
 *    one for every session the instance serves; on a cluster, one per hash slot (a
 *    command's keys must share a slot), each on a connection to the slot's master that
 *    follows the slot after a failover or resharding. Each event is parsed once per
 *    instance and kept once per session (`SharedFeed`): a read costs one append and one
 *    paced wake-up of the session's followers (`fanOutMs`), however many.
 * 5. A follower registers before its snapshot (the last seq, the feed's last ID and the
 *    held attempts, read at once): it gets the log up to that seq, the replay, then every
 *    feed entry after that ID, durable or not, in feed order, and then reads the shared
 *    feed. An instance holds nothing for a session without followers.
 *
 * Pass `{ url }` (the store opens and closes its connections), `{ cluster: [nodes] }` (the
 * same, on a Redis Cluster) or `{ client }` (an ioredis `Redis` or `Cluster` you own; the
 * store adds connections of its own for blocking reads).
 *
 * @example
 * ```ts
 * import { sessionHandler } from 'callfold/server';
 * import { redisStore } from 'callfold/server/redis';
 * const store = await redisStore({ url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' });
 * ```
 */
export async function redisStore(options: RedisStoreOptions): Promise<SessionStore> {
  const ioredis = await import('ioredis');
  let client: Redis | Cluster;
  let owned = true;
  if ('client' in options) {
    client = options.client;
    owned = false;
  } else if ('cluster' in options) {
    client = new ioredis.Cluster([...options.cluster], { redisOptions: {} });
  } else {
    client = new ioredis.Redis(options.url, { maxRetriesPerRequest: null });
  }
  return new RedisSessionStore(topology(client, owned, ioredis.Redis), options);
}

function topology(
  client: Redis | Cluster,
  owned: boolean,
  Connection: typeof Redis,
): RedisTopology {
  if (!client.isCluster) {
    const server = client as Redis;
    const link = serverLink(server);
    return {
      client,
      owned,
      group: () => 0,
      link: () => link,
      dropIdle: false,
      master: async () => server,
      refresh: () => {},
    };
  }
  const cluster = client as Cluster;
  return {
    client,
    owned,
    group: keySlot,
    link: (slot) => slotLink(cluster, slot, (options) => new Connection(options)),
    dropIdle: true,
    async master(key) {
      if (cluster.status !== 'ready') {
        await new Promise((resolve) => cluster.once('ready', resolve));
      }
      const address = cluster.slots[keySlot(key)]?.[0];
      const node = cluster
        .nodes('master')
        .find(({ options }) => `${options.host}:${options.port}` === address);
      if (node) return node;
      cluster.refreshSlotsCache();
      throw new Error(`redisStore: no master known for ${key} yet (the cluster is failing over?)`);
    },
    refresh: () => cluster.refreshSlotsCache(),
  };
}
