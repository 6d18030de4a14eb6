import type { CallfoldEvent } from '../../events/types.js';
import type { FanOutPacer } from '../fan-out-pacer.js';
import type { FollowerQueue } from '../follower-queue.js';
import { SharedFeed } from '../shared-feed.js';
import { after, type Entry, eventOf, follows, isDeletionMark } from './feed-ids.js';

/**
 * A follower between its registration and its place on the tail's feed: nothing the tail
 * reads from its registration on escapes it while it takes its snapshot, backlog and replay.
 */
export interface Joiner {
  readonly queue: FollowerQueue;
  /** The feed ID at its snapshot, once taken: entries up to it are in its backlog and replay. */
  startId: string | undefined;
  /** What the tail read before `startId` was known, with the feed IDs. */
  readonly early: { id: string; event: CallfoldEvent }[];
}

/** What the tail did with a read's entries. */
export type Taken = 'delivered' | 'deleted' | 'trimmed';

/**
 * What one instance holds for a session it has followers of: where its read of the
 * session's feed is, the events read (kept once for every follower, `SharedFeed`), the
 * followers still joining, and the attempts it knows to be live (its lease sweep's work).
 */
export class SessionTail {
  /** The last feed ID this instance's read took (undefined until the first snapshot). */
  cursor: string | undefined;
  /** The session's life at the first snapshot: a later one that differs finds this tail stale. */
  life: string | undefined;
  /** Attempts live as far as this tail has read (from snapshots and the feed). */
  readonly live = new Set<string>();
  readonly feed: SharedFeed<FollowerQueue>;
  readonly #joining = new Set<Joiner>();

  constructor(pacer: FanOutPacer | undefined) {
    this.feed = new SharedFeed(pacer);
  }

  /** Whether no follower is here any more. */
  get empty(): boolean {
    return this.#joining.size === 0 && this.feed.readers.size === 0;
  }

  /** Registers a follower before its snapshot: entries read meanwhile wait in `early`. */
  join(queue: FollowerQueue): Joiner {
    const joiner: Joiner = { queue, startId: undefined, early: [] };
    this.#joining.add(joiner);
    return joiner;
  }

  leave(joiner: Joiner): void {
    this.#joining.delete(joiner);
    this.feed.delete(joiner.queue);
  }

  /**
   * The joiner's snapshot was taken at feed ID `tip` and `start` holds its backlog and
   * replay: it gets them and every entry read after `tip`, then reads the shared feed
   * (now if the tail has read up to `tip`; else once a read passes it, in `take`).
   */
  started(joiner: Joiner, tip: string, start: readonly CallfoldEvent[]): void {
    joiner.startId = tip;
    const fresh = joiner.early.filter(({ id }) => after(id, tip)).map(({ event }) => event);
    joiner.early.length = 0;
    joiner.queue.pushAll([...start, ...fresh]);
    if (!after(tip, this.cursor ?? tip)) this.#joinFeed(joiner);
  }

  /**
   * One read's entries: parsed once, appended once to the feed (one paced wake-up of all
   * the session's followers here). Not taken: a hole before them (the feed was trimmed
   * past the cursor), or, from the deletion mark on, a deleted session.
   */
  take(entries: readonly Entry[]): Taken {
    const first = (entries[0] as Entry)[0];
    // An empty feed at the snapshot ('0-0'): any first entry is fine.
    if (this.cursor !== undefined && this.cursor !== '0-0' && !follows(first, this.cursor)) {
      return 'trimmed';
    }
    const mark = entries.findIndex(([, fields]) => isDeletionMark(fields));
    if (mark === -1) {
      this.#deliver(entries);
      return 'delivered';
    }
    if (mark > 0) this.#deliver(entries.slice(0, mark));
    return 'deleted';
  }

  /** Ends every follower here (with `error`: they resume with Last-Event-ID). */
  end(error?: unknown): void {
    for (const joiner of this.#joining) joiner.queue.end(error);
    for (const follower of this.feed.readers) follower.end(error);
  }

  /** Notes the live attempts a snapshot's replay holds. */
  note(events: readonly CallfoldEvent[]): void {
    for (const event of events) if ('attemptId' in event) this.#noteOne(event);
  }

  #noteOne(event: CallfoldEvent & { attemptId: string }): void {
    if (event.type === 'stream/settle') this.live.delete(event.attemptId);
    else this.live.add(event.attemptId);
  }

  #joinFeed(joiner: Joiner): void {
    this.#joining.delete(joiner);
    joiner.queue.read(this.feed);
    this.feed.add(joiner.queue);
  }

  #deliver(entries: readonly Entry[]): void {
    const events = entries.map(([, fields]) => eventOf(fields));
    this.note(events);
    this.cursor = (entries.at(-1) as Entry)[0];
    let joined: Joiner[] | undefined;
    for (const joiner of this.#joining) {
      const { startId } = joiner;
      if (startId === undefined) {
        entries.forEach(([id], i) => {
          joiner.early.push({ id, event: events[i] as CallfoldEvent });
        });
        continue;
      }
      if (after(startId, this.cursor)) continue;
      let first = 0;
      while (first < entries.length && !after((entries[first] as Entry)[0], startId)) first++;
      joiner.queue.pushAll(events.slice(first));
      (joined ??= []).push(joiner);
    }
    this.feed.append(events);
    for (const joiner of joined ?? []) this.#joinFeed(joiner);
  }
}
