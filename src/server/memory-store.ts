import type { SessionEvent } from '../events/types.js';
import { appendAll } from '../internal/append-all.js';
import { type DurableLog, firstAfter } from './durable-log.js';
import { LocalStore, type LocalStoreOptions } from './local-store.js';
import type { SessionStore } from './session-store.js';

/** Options of `memoryStore`. */
export interface MemoryStoreOptions extends LocalStoreOptions {
  /** Sessions held at most; past it the least recently used idle ones are evicted. Default 10 000. */
  readonly maxSessions?: number;
  /** Bytes of durable events held at most (their JSON length); as `maxSessions`. Default 256 MiB. */
  readonly maxBytes?: number;
}

interface MemorySession {
  readonly events: SessionEvent[];
  bytes: number;
  life: string | undefined;
}

class MemoryLog implements DurableLog {
  readonly #sessions = new Map<string, MemorySession>();
  #bytes = 0;

  get bytesHeld(): number {
    return this.#bytes;
  }

  bytesOf(sessionId: string): number {
    return this.#sessions.get(sessionId)?.bytes ?? 0;
  }

  #session(sessionId: string): MemorySession {
    let session = this.#sessions.get(sessionId);
    if (!session)
      this.#sessions.set(sessionId, (session = { events: [], bytes: 0, life: undefined }));
    return session;
  }

  async lastSeq(sessionId: string): Promise<number> {
    return this.#sessions.get(sessionId)?.events.at(-1)?.seq ?? 0;
  }

  async write(sessionId: string, events: readonly SessionEvent[]): Promise<void> {
    const session = this.#session(sessionId);
    appendAll(session.events, events);
    let bytes = 0;
    for (const event of events) bytes += JSON.stringify(event).length;
    session.bytes += bytes;
    this.#bytes += bytes;
  }

  async page(
    sessionId: string,
    { before, limit }: { before: number; limit: number },
  ): Promise<readonly SessionEvent[]> {
    const log = this.#sessions.get(sessionId)?.events ?? [];
    const end = firstAfter(log, Math.ceil(before) - 1);
    return log.slice(Math.max(0, end - limit), end);
  }

  async range(
    sessionId: string,
    after: number,
    through: number,
    limit: number,
  ): Promise<readonly SessionEvent[]> {
    const log = this.#sessions.get(sessionId)?.events ?? [];
    const from = firstAfter(log, after);
    const to = Math.min(firstAfter(log, through), from + limit);
    return log.slice(from, to);
  }

  async life(sessionId: string, fresh: string): Promise<string> {
    const session = this.#session(sessionId);
    session.life ??= fresh;
    return session.life;
  }

  async delete(sessionId: string): Promise<void> {
    this.#bytes -= this.bytesOf(sessionId);
    this.#sessions.delete(sessionId);
  }

  async close(): Promise<void> {}
}

/**
 * The embedded store: one process, everything in memory (tests, demos, a single server
 * that may forget its sessions on restart). Runs in any runtime.
 *
 * Bounded by default: past `maxSessions` sessions or `maxBytes` of durable events, the least
 * recently used sessions with no follower and no live attempt are evicted (deleted: a
 * client resuming one is told, see `SessionStore.life`). `ttlMs` deletes idle ones sooner.
 *
 * @example
 * ```ts
 * import { memoryStore, sessionHandler } from 'callfold/server';
 * const store = memoryStore({ ttlMs: 24 * 3600_000 });
 * const handler = sessionHandler(store, {
 *   sessionId: (request) => new URL(request.url).pathname.split('/')[2] ?? '',
 *   authorize: (request, sessionId) => mayRead(request, sessionId),
 * });
 * ```
 */
export function memoryStore(options: MemoryStoreOptions = {}): SessionStore {
  const log = new MemoryLog();
  return new LocalStore(log, options, {
    maxSessions: options.maxSessions ?? 10_000,
    maxBytes: options.maxBytes ?? 256 * 1024 * 1024,
    bytesOf: (sessionId) => log.bytesOf(sessionId),
  });
}
