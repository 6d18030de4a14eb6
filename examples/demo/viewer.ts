import { Subject, type Subscription } from 'rxjs';
import type { ToolTimelineElement } from '../../elements/classes.js';
import { followSession } from '../../src/client/follow-session.js';
import { loadHistory } from '../../src/client/load-history.js';
import { isDurableEvent } from '../../src/events/types.js';
import { type AssembleInput, prependCommand } from '../../src/rx/assembler-command.js';
import type { SessionServer } from './session-server.js';

/** What a connection received before its first quiet moment: the server's catch-up. */
export interface CatchUp {
  /** The Last-Event-ID the connection sent. */
  readonly after: number;
  /** Durable events after it (missed while away). */
  readonly missed: number;
  /** Stream events: the replay of the attempts still live. */
  readonly replayed: number;
}

/** A connection's catch-up is over after this long without input (or `catchUpMaxMs`). */
const quietMs = 150;
const catchUpMaxMs = 2000;

/**
 * One browser client of the session, feeding a `<tool-timeline>` over HTTP: `followSession`
 * (SSE with `Last-Event-ID`) for the live end, `loadHistory` for pages. Its feed is the
 * timeline's `source`, so the timeline folds everything the client receives (events,
 * history pages, the reconnection command `followSession` sends on each connection) in one
 * `assemble()`.
 */
export class Viewer {
  readonly #feed = new Subject<AssembleInput>();
  #connection: Subscription | undefined;
  #lastSeq = 0;
  #catchUp: { durable: number; stream: number; accepted: boolean; last: number } | undefined;
  /** Counts inputs, so the page can tell when the timeline has caught up. */
  inputs = 0;

  /** A fresh fold: the timeline drops what it showed and folds this viewer's feed. */
  constructor(timeline: ToolTimelineElement) {
    timeline.source = this.#feed;
  }

  /** The seq of the last durable event received: the `Last-Event-ID` of a reconnection. */
  get lastSeq(): number {
    return this.#lastSeq;
  }

  get connected(): boolean {
    return this.#connection !== undefined;
  }

  /**
   * Follows the session from `lastSeq`: the server sends the durable events after it, a
   * replay of the live attempts, then everything as it is published. Resolves with that
   * catch-up once the connection has been quiet for a moment.
   */
  async connect(server: SessionServer): Promise<CatchUp> {
    const after = this.#lastSeq;
    const [url, headers] = await Promise.all([server.url(), server.headers()]);
    const catchUp = { durable: 0, stream: 0, accepted: false, last: performance.now() };
    if (this.#connection) return { after, missed: 0, replayed: 0 };
    this.#catchUp = catchUp;
    const options = after > 0 ? { headers, lastEventId: String(after) } : { headers };
    this.#connection = followSession(url, options).subscribe({
      next: (input) => {
        if (input.type === 'connection/reconnect' || input.type === 'history/prepend') {
          catchUp.accepted = true;
        } else if (isDurableEvent(input)) {
          catchUp.durable++;
          this.#lastSeq = Math.max(this.#lastSeq, input.seq);
        } else catchUp.stream++;
        catchUp.last = performance.now();
        this.#input(input);
      },
      error: () => this.drop(),
    });
    const started = performance.now();
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, quietMs / 3));
      const now = performance.now();
      const quiet = catchUp.accepted && now - catchUp.last >= quietMs;
      if (quiet || now - started > catchUpMaxMs || this.#catchUp !== catchUp) break;
    }
    return { after, missed: catchUp.durable, replayed: catchUp.stream };
  }

  /** The connection drops: nothing arrives until `reconnect`. */
  drop(): void {
    this.#connection?.unsubscribe();
    this.#connection = undefined;
    this.#catchUp = undefined;
  }

  /**
   * A new connection with `Last-Event-ID: lastSeq`: `followSession` first withdraws the live
   * stream events the timeline holds, then the server sends the durable events after that
   * seq and a replay of the attempts still live.
   */
  reconnect(server: SessionServer): Promise<CatchUp> {
    this.drop();
    return this.connect(server);
  }

  /**
   * Loads the session as a reloaded page does: `loadHistory` pages newest first (each
   * prepended), then follows live after the newest seq.
   */
  async loadHistory(
    server: SessionServer,
    pageSize: number,
  ): Promise<{ pages: number; events: number }> {
    const [url, headers] = await Promise.all([server.url(), server.headers()]);
    let before: number | undefined;
    let pages = 0;
    let events = 0;
    for (;;) {
      const options = { limit: pageSize, headers };
      const page = await loadHistory(url, before === undefined ? options : { ...options, before });
      if (page.length === 0) break;
      pages++;
      events += page.length;
      this.#input(prependCommand(page));
      this.#lastSeq = Math.max(this.#lastSeq, page.at(-1)?.seq ?? 0);
      before = page[0]?.seq;
      if (page.length < pageSize) break;
    }
    void this.connect(server);
    return { pages, events };
  }

  dispose(): void {
    this.drop();
    this.#feed.complete();
  }

  #input(input: AssembleInput): void {
    this.inputs++;
    this.#feed.next(input);
  }
}
