import type { Entry, ReadReply } from './feed-ids.js';
import type { FeedLink } from './feed-link.js';
import type { SessionTail } from './feed-tail.js';

/** What a read found for a tail that ends its followers. */
export type TailEnd = { readonly sessionId: string; readonly tail: SessionTail } & (
  | { readonly reason: 'deleted' }
  | { readonly reason: 'trimmed'; readonly first: string }
);

/**
 * One blocking read loop over the feeds of a group of tailed sessions, on one connection
 * (`FeedLink`): an `XREAD BLOCK` naming every feed of the group from its tail's cursor,
 * reissued when it returns, when `blockMs` passes, and when the group changes
 * (`interrupt`). A single Redis has one group, every session this instance tails; a
 * cluster has one per hash slot (a command's keys must share a slot there).
 *
 * A failed read (the connection dropped, the slot moved) is retried after a pause that
 * doubles up to a second; the link decides where the next one goes.
 */
export class FeedReader {
  /** The group's tails by session id. */
  readonly tails = new Map<string, SessionTail>();
  readonly #link: FeedLink;
  readonly #feedKey: (sessionId: string) => string;
  readonly #blockMs: number;
  readonly #onEnd: (end: TailEnd) => void;
  #reading = false;
  #stopped = false;
  #wake: (() => void) | undefined;

  constructor(
    link: FeedLink,
    feedKey: (sessionId: string) => string,
    blockMs: number,
    onEnd: (end: TailEnd) => void,
  ) {
    this.#link = link;
    this.#feedKey = feedKey;
    this.#blockMs = blockMs;
    this.#onEnd = onEnd;
  }

  /** Makes the read start over with the group's current tails and cursors. */
  interrupt(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
    this.#link.interrupt();
  }

  /** Starts the loop if it is not running; it stops by itself once the group is empty. */
  read(): void {
    if (this.#reading || this.#stopped) return;
    this.#reading = true;
    void this.#loop();
  }

  stop(): void {
    this.#stopped = true;
    this.interrupt();
    this.#link.close();
  }

  async #loop(): Promise<void> {
    try {
      await this.#reads();
    } finally {
      this.#reading = false;
    }
  }

  async #reads(): Promise<void> {
    let pauseMs = 50;
    while (!this.#stopped) {
      const tailed = [...this.tails].filter(([, tail]) => tail.cursor !== undefined);
      if (tailed.length === 0) {
        if (this.tails.size === 0) return;
        await new Promise<void>((resolve) => {
          this.#wake = resolve;
        });
        continue;
      }
      // The tails this read is for: one deleted and made again meanwhile (its last follower
      // left, a new one came) starts from its own snapshot, so this reply is not for it.
      const asked = new Map(tailed);
      let reply: ReadReply;
      try {
        reply = (await this.#link.read([
          'COUNT',
          1000,
          'BLOCK',
          this.#blockMs,
          'STREAMS',
          ...tailed.map(([sessionId]) => this.#feedKey(sessionId)),
          ...tailed.map(([, tail]) => tail.cursor as string),
        ])) as ReadReply;
        pauseMs = 50;
      } catch {
        if (this.#stopped) return;
        await new Promise((resolve) => setTimeout(resolve, pauseMs));
        pauseMs = Math.min(1000, pauseMs * 2);
        continue;
      }
      const byKey = new Map(tailed.map(([sessionId]) => [this.#feedKey(sessionId), sessionId]));
      for (const [key, entries] of reply ?? []) {
        const sessionId = byKey.get(key);
        if (sessionId === undefined) continue;
        const tail = this.tails.get(sessionId);
        if (!tail || tail !== asked.get(sessionId) || entries.length === 0) continue;
        const taken = tail.take(entries);
        if (taken === 'trimmed') {
          this.#onEnd({ sessionId, tail, reason: taken, first: (entries[0] as Entry)[0] });
        } else if (taken === 'deleted') {
          this.#onEnd({ sessionId, tail, reason: taken });
        }
      }
    }
  }
}
