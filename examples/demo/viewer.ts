import { Subject, type Subscription } from 'rxjs';
import type { ToolTimelineElement } from '../../elements/classes.js';
import { type CallfoldEvent, isDurableEvent, type SessionEvent } from '../../src/events/types.js';
import {
  type AssembleInput,
  prependCommand,
  reconnectCommand,
} from '../../src/rx/assembler-command.js';
import type { SessionServer } from './session-server.js';

/**
 * One browser client of the session server, feeding a `<tool-timeline>`: what a page does
 * over SSE. Its feed is the timeline's `source`, so the timeline folds everything the client
 * receives (events, history pages, reconnection commands) in one `assemble()`.
 */
export class Viewer {
  readonly #feed = new Subject<AssembleInput>();
  #connection: Subscription | undefined;
  #lastSeq = 0;
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

  /** Connects, receiving the durable events after `lastSeq` and a replay of the live attempts. */
  connect(server: SessionServer): void {
    this.#connection ??= server.connect(this.#lastSeq).subscribe((event) => this.#send(event));
  }

  /** The connection drops: nothing arrives until `reconnect`. */
  drop(): void {
    this.#connection?.unsubscribe();
    this.#connection = undefined;
  }

  /**
   * A new connection: the timeline withdraws the live stream events it holds, then gets the
   * durable events after the last seq it saw and a replay of the attempts still live.
   * Returns that seq and how many events of each kind came.
   */
  reconnect(server: SessionServer): { after: number; missed: number; replayed: number } {
    this.drop();
    const after = this.#lastSeq;
    const missed = server.history.filter((event) => event.seq > after).length;
    this.#input(reconnectCommand());
    this.connect(server);
    return { after, missed, replayed: server.liveEvents };
  }

  /** Loads the session as a reloaded page does: history pages newest first, then live. */
  loadHistory(server: SessionServer, pageSize: number): { pages: number; events: number } {
    const pages = server.pages(pageSize);
    for (const page of pages) {
      this.#input(prependCommand(page));
      for (const event of page) this.#lastSeq = Math.max(this.#lastSeq, event.seq);
    }
    this.connect(server);
    return { pages: pages.length, events: server.history.length };
  }

  dispose(): void {
    this.drop();
    this.#feed.complete();
  }

  #send(event: CallfoldEvent): void {
    if (isDurableEvent(event)) this.#lastSeq = Math.max(this.#lastSeq, (event as SessionEvent).seq);
    this.#input(event);
  }

  #input(input: AssembleInput): void {
    this.inputs++;
    this.#feed.next(input);
  }
}
