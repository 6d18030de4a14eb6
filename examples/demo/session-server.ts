import type { CallfoldEvent, SessionEvent } from '../../src/events/types.js';
import { isDurableEvent } from '../../src/events/types.js';

/** Where `npm start`'s dev server serves the demo's sessions (examples/demo/session-endpoint.node.ts). */
const base = '/demo-sessions';
/** Leases are renewed this often while the run lives (the store's lease is 30 s). */
const renewMs = 10_000;

/**
 * The demo's agent side of a session served over HTTP by the dev server (`sessionHandler` +
 * `memoryStore`): it publishes every event the page plays or streams, in order, batching
 * what arrives while a request is in flight; the viewers read the session back from `url`
 * with `followSession` and `loadHistory`.
 */
export class SessionServer {
  /** Resolves once the dev server created the session. */
  readonly #ready: Promise<{ id: string; token: string }>;
  #pending: CallfoldEvent[] = [];
  #sending: Promise<void> | undefined;
  #lastSeq = 0;
  #durable = 0;
  #closed = false;
  #failure: string | undefined;
  readonly #renewal: ReturnType<typeof setInterval>;
  /** Hears a publish failure once (the page logs it). */
  onError: (message: string) => void = () => {};

  constructor() {
    this.#ready = fetch(base, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    }).then(async (response) => {
      if (!response.ok) throw new Error(`the dev server refused a session (${response.status})`);
      return (await response.json()) as { id: string; token: string };
    });
    this.#ready.catch((error: unknown) => this.#fail(error));
    this.#renewal = setInterval(() => this.#post([]).catch(() => {}), renewMs);
  }

  /** The session's event URL, for `followSession` and `loadHistory`. */
  async url(): Promise<string> {
    return `${base}/${(await this.#ready).id}/events`;
  }

  /** The headers a reader of the session sends (the handler's `authorize` checks them). */
  async headers(): Promise<Record<string, string>> {
    return { authorization: `Bearer ${(await this.#ready).token}` };
  }

  /** An event happened: it is sent to the server after those before it. */
  publish(event: CallfoldEvent): void {
    if (this.#closed || this.#failure !== undefined) return;
    this.#pending.push(event);
    if (isDurableEvent(event)) this.#durable++;
    this.#sending ??= this.#drain();
  }

  /** Whether every event published so far is on the server. */
  get idle(): boolean {
    return this.#sending === undefined && this.#pending.length === 0;
  }

  /** The seq the server gave the last durable event it took. */
  get lastSeq(): number {
    return this.#lastSeq;
  }

  /** How many durable events were published. */
  get durableEvents(): number {
    return this.#durable;
  }

  /** The run is over: the server forgets the session. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#renewal);
    this.#pending = [];
    void this.#ready
      .then(({ id, token }) =>
        fetch(`${base}/${id}`, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } }),
      )
      .catch(() => {});
  }

  async #drain(): Promise<void> {
    try {
      while (this.#pending.length > 0 && !this.#closed) {
        const batch = this.#pending;
        this.#pending = [];
        const numbered = (await this.#post(batch)) as SessionEvent[];
        const last = numbered.at(-1);
        if (last) this.#lastSeq = last.seq;
      }
    } catch (error) {
      this.#fail(error);
    } finally {
      this.#sending = undefined;
    }
  }

  async #post(events: readonly CallfoldEvent[]): Promise<unknown> {
    const { id, token } = await this.#ready;
    if (this.#closed) return [];
    const response = await fetch(`${base}/${id}/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(events),
    });
    const body = (await response.json()) as unknown;
    if (!response.ok) {
      throw new Error(
        `publishing failed (${response.status}): ${(body as { error?: string }).error}`,
      );
    }
    return body;
  }

  #fail(error: unknown): void {
    if (this.#failure !== undefined || this.#closed) return;
    this.#failure = error instanceof Error ? error.message : String(error);
    this.#pending = [];
    this.onError(this.#failure);
  }
}
