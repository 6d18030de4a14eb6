import { isDurableEvent, type SessionEvent } from '../events/types.js';
import { parseEvent } from '../events/validate.js';
import { SSEError } from '../wire/sse-decoder.js';
import { type FetchLike, fetchOf } from './fetch-like.js';

export interface LoadHistoryOptions {
  /** Only events whose seq is below this one: the first seq of the page already held. Default: the newest. */
  readonly before?: number;
  /** At most this many events (the server may serve fewer: its `maxPageLimit`). */
  readonly limit: number;
  /** Default: the runtime's `fetch`. */
  readonly fetch?: FetchLike;
  /** Extra request headers (credentials, say). */
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * One page of a session's durable history from a `sessionHandler` URL: the newest `limit`
 * events before `before`, in ascending seq. An empty page means there is nothing older.
 * Each event is checked (`parseEvent`, durable, seq strictly ascending and below `before`);
 * a page that breaks a rule, or an HTTP error status, rejects with an `SSEError`.
 *
 * Page backwards with the first seq of the page held, and continue live after the newest
 * (`followSession(url, { lastEventId: String(page.at(-1).seq) })`).
 *
 * @example
 * ```ts
 * import { loadHistory, prependCommand } from 'callfold';
 * const page = await loadHistory('/sessions/42/events', { before: oldestSeq, limit: 100 });
 * commands.next(prependCommand(page));
 * ```
 */
export async function loadHistory(
  url: string,
  options: LoadHistoryOptions,
): Promise<readonly SessionEvent[]> {
  const { before, limit } = options;
  if (!Number.isInteger(limit) || limit < 0) {
    throw new RangeError(`loadHistory: limit must be a whole number >= 0, got ${limit}`);
  }
  if (before !== undefined && !Number.isFinite(before)) {
    throw new RangeError(`loadHistory: before must be a finite number, got ${before}`);
  }
  const query = before === undefined ? `limit=${limit}` : `before=${before}&limit=${limit}`;
  const response = await fetchOf(options.fetch)(`${url}${url.includes('?') ? '&' : '?'}${query}`, {
    headers: { ...options.headers, accept: 'application/json' },
    cache: 'no-store',
  });
  if (!response.ok) throw new SSEError(`history: HTTP status ${response.status}`);
  const page = await response.json();
  if (!Array.isArray(page)) throw new SSEError('history: the page is not a JSON array');
  let last = Number.NEGATIVE_INFINITY;
  for (const [index, value] of page.entries()) {
    let event: SessionEvent;
    try {
      const parsed = parseEvent(value);
      if (!isDurableEvent(parsed)) throw new TypeError(`${parsed.type} is not a durable event`);
      event = parsed;
    } catch (cause) {
      const reason = cause instanceof Error ? cause.message : 'invalid event';
      throw new SSEError(`history: event ${index}: ${reason}`, { cause });
    }
    if (!(event.seq > last) || (before !== undefined && !(event.seq < before))) {
      throw new SSEError(`history: event ${index}: seq ${event.seq} out of order`);
    }
    last = event.seq;
  }
  return page as SessionEvent[];
}
