import type { Cluster, Redis, RedisOptions } from 'ioredis';
import type { ReadReply } from './feed-ids.js';

/** The connection a `FeedReader` blocks on, and how to interrupt it. */
export interface FeedLink {
  /** Runs `XREAD <args>` on the link's connection; rejects if the connection fails. */
  read(args: readonly (string | number)[]): Promise<ReadReply>;
  /** Makes a read in flight return now (`CLIENT UNBLOCK` from another connection). */
  interrupt(): void;
  close(): void;
}

/**
 * A connection of its own for blocking reads, known by its client ID so that another
 * connection to the same server can unblock it. `open` makes the connection; `admin` finds
 * a connection to the same server that is not blocked.
 */
class BlockingLink implements FeedLink {
  #connection: Redis | undefined;
  #id: number | undefined;
  #blocked = false;
  #closed = false;

  readonly #open: () => Redis;
  readonly #admin: () => Redis | undefined;
  readonly #giveUp: (error: unknown) => boolean;

  /** `giveUp(error)`: whether a failed read's connection is dropped (the next read opens one). */
  constructor(
    open: () => Redis,
    admin: () => Redis | undefined,
    giveUp: (error: unknown) => boolean = () => false,
  ) {
    this.#open = open;
    this.#admin = admin;
    this.#giveUp = giveUp;
  }

  async read(args: readonly (string | number)[]): Promise<ReadReply> {
    if (this.#closed) throw new Error('closed');
    const connection = this.#connect();
    try {
      this.#id ??= (await connection.call('CLIENT', 'ID')) as number;
      this.#blocked = true;
      return (await connection.call('XREAD', ...args)) as ReadReply;
    } catch (error) {
      // The link may give up this connection: the next read opens another.
      if (this.#giveUp(error) && this.#connection === connection) {
        this.#connection = undefined;
        this.#id = undefined;
        connection.disconnect();
      }
      throw error;
    } finally {
      this.#blocked = false;
    }
  }

  #connect(): Redis {
    if (this.#connection) return this.#connection;
    const connection = this.#open();
    connection.on('error', () => {});
    // A reconnection is a new client: its ID is asked again.
    connection.on('ready', () => {
      if (this.#connection === connection) this.#id = undefined;
    });
    this.#connection = connection;
    return connection;
  }

  interrupt(): void {
    if (!this.#blocked || this.#id === undefined) return;
    this.#admin()
      ?.call('CLIENT', 'UNBLOCK', this.#id)
      .catch(() => {});
  }

  close(): void {
    this.#closed = true;
    this.#connection?.disconnect();
    this.#connection = undefined;
  }
}

/** One Redis: a duplicate of the store's client, unblocked through the client itself. */
export function serverLink(client: Redis): FeedLink {
  return new BlockingLink(
    () => client.duplicate(),
    () => client,
  );
}

/**
 * The feeds of one hash slot of a Redis Cluster: a plain connection to the master that
 * serves the slot as the cluster client knows it, unblocked through the cluster client's
 * own connection to that master. A slot that moved (`MOVED`, a resharding or a failover
 * that the slot table had not caught up with) or a connection that failed (its master
 * died) gives up the connection: the next read refreshes the slot table and goes to the
 * slot's master as it is then.
 */
export function slotLink(
  cluster: Cluster,
  slot: number,
  connect: (options: RedisOptions) => Redis,
): FeedLink {
  let target: string | undefined;
  let moved: string | undefined;
  const nodeOf = (key: string) =>
    cluster.nodes('master').find(({ options }) => `${options.host}:${options.port}` === key);
  return new BlockingLink(
    () => {
      target = moved ?? cluster.slots[slot]?.[0];
      moved = undefined;
      if (target === undefined) {
        cluster.refreshSlotsCache();
        throw new Error(`no node serves slot ${slot} yet`);
      }
      const colon = target.lastIndexOf(':');
      return connect({
        ...cluster.options.redisOptions,
        host: target.slice(0, colon),
        port: Number(target.slice(colon + 1)),
        // A dead master is not retried: the read fails and the next one looks again.
        retryStrategy: () => null,
        maxRetriesPerRequest: 0,
        lazyConnect: false,
      });
    },
    () => (target === undefined ? undefined : nodeOf(target)),
    (error) => {
      moved = /^MOVED \d+ (\S+)/.exec(String((error as Error)?.message))?.[1];
      if (moved === undefined) cluster.refreshSlotsCache();
      return true;
    },
  );
}
