import { Observable } from 'rxjs';
import {
  type CallfoldEvent,
  isDurableEvent,
  type SessionEvent,
  type StreamEvent,
} from '../../src/events/types.js';

/**
 * The demo's stand-in for an agent server: it keeps the session's durable log (what a
 * database would hold), the stream events of the attempts still live (what a server replays
 * to a client that connects mid-response), and serves connections and history pages.
 */
export class SessionServer {
  readonly #durable: SessionEvent[] = [];
  #live: StreamEvent[] = [];
  readonly #clients = new Set<(event: CallfoldEvent) => void>();

  /** An event happened: log it, and send it to every connected client. */
  publish(event: CallfoldEvent): void {
    if (isDurableEvent(event)) this.#durable.push(event);
    else if (event.type === 'stream/settle') {
      this.#live = this.#live.filter((held) => held.attemptId !== event.attemptId);
    } else this.#live.push(event);
    for (const client of this.#clients) client(event);
  }

  /** The durable events so far, in `seq` order. */
  get history(): readonly SessionEvent[] {
    return this.#durable;
  }

  /** How many stream events of live attempts a connecting client is replayed. */
  get liveEvents(): number {
    return this.#live.length;
  }

  /** History pages of `size` events, newest first, as a client loads them scrolling up. */
  pages(size: number): SessionEvent[][] {
    const pages: SessionEvent[][] = [];
    for (let end = this.#durable.length; end > 0; end -= size) {
      pages.push(this.#durable.slice(Math.max(0, end - size), end));
    }
    return pages;
  }

  /**
   * A connection, like an SSE request with `Last-Event-ID: afterSeq`: the durable events
   * after `afterSeq`, then a replay of the live attempts' stream events, then everything
   * published until the subscriber leaves. The backlog is sent synchronously on subscription.
   */
  connect(afterSeq: number): Observable<CallfoldEvent> {
    return new Observable<CallfoldEvent>((subscriber) => {
      for (const event of this.#durable) if (event.seq > afterSeq) subscriber.next(event);
      for (const event of this.#live) subscriber.next(event);
      const client = (event: CallfoldEvent) => subscriber.next(event);
      this.#clients.add(client);
      return () => this.#clients.delete(client);
    });
  }
}
