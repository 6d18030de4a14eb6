import type { SessionEvent } from '../events/types.js';
import { appendAll } from '../internal/append-all.js';
import { type DurableLog, firstAfter } from './durable-log.js';
import { LocalStore, type LocalStoreOptions } from './local-store.js';
import type { SessionStore } from './session-store.js';

class MemoryLog implements DurableLog {
  readonly #sessions = new Map<string, SessionEvent[]>();

  async lastSeq(sessionId: string): Promise<number> {
    return this.#sessions.get(sessionId)?.at(-1)?.seq ?? 0;
  }

  async write(sessionId: string, events: readonly SessionEvent[]): Promise<void> {
    let log = this.#sessions.get(sessionId);
    if (!log) this.#sessions.set(sessionId, (log = []));
    appendAll(log, events);
  }

  async page(
    sessionId: string,
    { before, limit }: { before: number; limit: number },
  ): Promise<readonly SessionEvent[]> {
    const log = this.#sessions.get(sessionId) ?? [];
    const end = firstAfter(log, Math.ceil(before) - 1);
    return log.slice(Math.max(0, end - limit), end);
  }

  async range(
    sessionId: string,
    after: number,
    through: number,
    limit: number,
  ): Promise<readonly SessionEvent[]> {
    const log = this.#sessions.get(sessionId) ?? [];
    const from = firstAfter(log, after);
    const to = Math.min(firstAfter(log, through), from + limit);
    return log.slice(from, to);
  }

  async close(): Promise<void> {}
}

/**
 * The embedded store: one process, everything in memory (tests, demos, a single server
 * that may forget its sessions on restart). Runs in any runtime.
 *
 * @example
 * ```ts
 * import { memoryStore, sessionHandler } from 'callfold/server';
 * const store = memoryStore();
 * const handler = sessionHandler(store, {
 *   sessionId: (request) => new URL(request.url).pathname.split('/')[2] ?? '',
 *   authorize: (request, sessionId) => mayRead(request, sessionId),
 * });
 * ```
 */
export function memoryStore(options: LocalStoreOptions = {}): SessionStore {
  return new LocalStore(new MemoryLog(), options);
}
