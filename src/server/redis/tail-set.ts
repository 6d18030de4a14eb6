import type { Cluster, Redis } from 'ioredis';
import type { FanOutPacer } from '../fan-out-pacer.js';
import type { FeedLink } from './feed-link.js';
import { FeedReader, type TailEnd } from './feed-reader.js';
import { SessionTail } from './feed-tail.js';

/** How a store reaches Redis: its client, and the blocking reads of a group of feeds. */
export interface RedisTopology {
  readonly client: Redis | Cluster;
  /** Whether the store closes `client` (it opened it). */
  readonly owned: boolean;
  /** The group whose blocking read takes the feed `key` (one per hash slot on a cluster). */
  group(key: string): number;
  /** The connection of a group's blocking reads. */
  link(group: number): FeedLink;
  /** Whether a group whose tails all left closes its connection (a cluster's many slots). */
  readonly dropIdle: boolean;
  /** The connection to the master that serves `key` (the client itself on one Redis). */
  master(key: string): Promise<Redis>;
  /** A command found a slot moved or a master gone: the slot table is read again. */
  refresh(): void;
}

/**
 * The sessions one instance tails (`SessionTail`, one per session with followers here) and
 * the blocking reads that feed them (`FeedReader`, one per group of the topology). A tail
 * goes with its last follower, and its read stops asking for its feed.
 */
export class TailSet {
  readonly #tails = new Map<string, SessionTail>();
  readonly #readers = new Map<number, FeedReader>();
  readonly #topology: RedisTopology;
  readonly #feedKey: (sessionId: string) => string;
  readonly #pacer: FanOutPacer | undefined;
  readonly #blockMs: number;
  readonly #feedMax: number;
  /** Tails ended because their feed was trimmed past them. */
  feedTrims = 0;

  constructor(
    topology: RedisTopology,
    feedKey: (sessionId: string) => string,
    pacer: FanOutPacer | undefined,
    blockMs: number,
    feedMax: number,
  ) {
    this.#topology = topology;
    this.#feedKey = feedKey;
    this.#pacer = pacer;
    this.#blockMs = blockMs;
    this.#feedMax = feedMax;
  }

  get size(): number {
    return this.#tails.size;
  }

  entries(): IterableIterator<[string, SessionTail]> {
    return this.#tails.entries();
  }

  get(sessionId: string): SessionTail | undefined {
    return this.#tails.get(sessionId);
  }

  /** The session's tail, made (and added to its group's read) if there is none. */
  tail(sessionId: string): SessionTail {
    let tail = this.#tails.get(sessionId);
    if (!tail) {
      tail = new SessionTail(this.#pacer);
      this.#tails.set(sessionId, tail);
      this.reader(sessionId).tails.set(sessionId, tail);
    }
    return tail;
  }

  /** The read of the session's group. */
  reader(sessionId: string): FeedReader {
    const group = this.#topology.group(this.#feedKey(sessionId));
    let reader = this.#readers.get(group);
    if (!reader) {
      reader = new FeedReader(this.#topology.link(group), this.#feedKey, this.#blockMs, (end) =>
        this.#ended(end),
      );
      this.#readers.set(group, reader);
    }
    return reader;
  }

  /** The tail goes, if it is still the session's (not a newer one). */
  drop(sessionId: string, tail: SessionTail): void {
    if (this.#tails.get(sessionId) !== tail) return;
    this.#tails.delete(sessionId);
    const group = this.#topology.group(this.#feedKey(sessionId));
    const reader = this.#readers.get(group);
    if (!reader) return;
    reader.tails.delete(sessionId);
    if (reader.tails.size > 0 || !this.#topology.dropIdle) {
      reader.interrupt();
    } else {
      this.#readers.delete(group);
      reader.stop();
    }
  }

  /** The tail goes and its followers end (with `error`: they resume with Last-Event-ID). */
  end(sessionId: string, tail: SessionTail, error?: Error): void {
    this.drop(sessionId, tail);
    tail.end(error);
  }

  /**
   * A read found the session deleted, or its feed trimmed (`feedMax`) past what the tail
   * had read: entries were lost to it. Then its followers end with an error — the handler
   * ends their responses and clients resume with Last-Event-ID, from the durable log (never
   * trimmed) and a fresh replay of the live attempts — rather than going on with a gap.
   */
  #ended(end: TailEnd): void {
    if (end.reason === 'deleted') {
      this.end(end.sessionId, end.tail);
      return;
    }
    this.feedTrims++;
    const error = new Error(
      `redisStore: the follow of session ${end.sessionId} fell behind the feed trim (read up ` +
        `to ${end.tail.cursor}, the feed now starts at ${end.first}; feedMax ${this.#feedMax}): ` +
        'resume with Last-Event-ID',
    );
    this.end(end.sessionId, end.tail, error);
  }

  /** Ends every follower and stops every read. */
  close(): void {
    for (const tail of this.#tails.values()) tail.end();
    this.#tails.clear();
    for (const reader of this.#readers.values()) reader.stop();
    this.#readers.clear();
  }
}
