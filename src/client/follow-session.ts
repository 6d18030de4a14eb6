import { Observable, type Subscription } from 'rxjs';
import type { CallfoldEvent } from '../events/types.js';
import { type AssemblerCommand, reconnectCommand } from '../rx/assembler-command.js';
import { decodeSSE } from '../wire/sse.js';
import { SSEError } from '../wire/sse-decoder.js';
import { abortController, type FetchLike, fetchOf } from './fetch-like.js';

export interface FollowSessionOptions {
  /** Resume after this event ID (the seq of the last durable event held, e.g. after `loadHistory`). */
  readonly lastEventId?: string;
  /** The first reconnection delay, doubled after each failed attempt (with jitter) up to `maxRetryMs`. Default 1000 ms. */
  readonly retryMs?: number;
  /** Default 30 000 ms. */
  readonly maxRetryMs?: number;
  /** Default: the runtime's `fetch`. */
  readonly fetch?: FetchLike;
  /** Extra request headers (credentials, say). */
  readonly headers?: Readonly<Record<string, string>>;
}

/** Statuses that another try cannot fix: the stream errors instead of reconnecting. */
function isFinal(status: number): boolean {
  return status >= 400 && status < 500 && status !== 408 && status !== 429;
}

/**
 * Follows a session served by `sessionHandler`, for `assemble()` or `<tool-timeline .source>`:
 * the events of a server-sent event stream, reconnecting for as long as it is subscribed.
 *
 * 1. Each connection sends the last event ID received (`Last-Event-ID`: the seq of the last
 *    durable event), so the server resends only what was missed: no durable event is lost or
 *    repeated across reconnections.
 * 2. Each connection that the server accepts emits `reconnectCommand()` before its first
 *    event: the stream events of the previous connection are withdrawn, then the server's
 *    replay of the live attempts replaces them.
 * 3. A dropped or ended connection, a network error, a 5xx, 408 or 429 reconnects after
 *    `retryMs`, doubling (with jitter) up to `maxRetryMs`; the delay goes back to `retryMs`
 *    once a connection is accepted. A `retry:` line from the server sets the wait before the
 *    next reconnection (a restarting `sessionHandler` sends one of at most 1 s). Any other
 *    4xx (401, 403, 404…; 410: the session was deleted since the last event ID) errors the
 *    stream with an `SSEError`. Unsubscribing aborts the request.
 *
 * @example
 * ```ts
 * import { assemble, followSession } from 'callfold';
 * followSession('/sessions/42/events').pipe(assemble()).subscribe(render);
 * // or: html`<tool-timeline .source=${followSession('/sessions/42/events')}></tool-timeline>`
 * ```
 */
export function followSession(
  url: string,
  options: FollowSessionOptions = {},
): Observable<CallfoldEvent | AssemblerCommand> {
  const retryMs = options.retryMs ?? 1000;
  const maxRetryMs = Math.max(retryMs, options.maxRetryMs ?? 30_000);
  return new Observable<CallfoldEvent | AssemblerCommand>((subscriber) => {
    const fetch = fetchOf(options.fetch);
    let lastEventId = options.lastEventId ?? '';
    let delay = retryMs;
    let stopped = false;
    let controller = abortController();
    let connection: Subscription | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    /** The reconnection time the server's last `retry:` line set, for the next try only. */
    let told: number | undefined;

    const retry = () => {
      if (stopped) return;
      let wait = delay * (0.8 + 0.4 * Math.random());
      if (told !== undefined) wait = told;
      else delay = Math.min(delay * 2, maxRetryMs);
      told = undefined;
      timer = setTimeout(connect, wait);
    };

    const connect = () => {
      if (stopped) return;
      controller = abortController();
      const headers: Record<string, string> = {
        ...options.headers,
        accept: 'text/event-stream',
      };
      if (lastEventId !== '') headers['last-event-id'] = lastEventId;
      const response = fetch(url, { headers, signal: controller.signal, cache: 'no-store' }).then(
        (answer) => {
          const type = answer.headers.get('content-type') ?? '';
          if (answer.ok && type.includes('text/event-stream')) {
            delay = retryMs;
            if (!stopped) subscriber.next(reconnectCommand());
            return answer;
          }
          answer.body?.cancel().catch(() => {});
          const error = new SSEError(
            answer.ok
              ? `session: not an event stream (${type || 'no content-type'})`
              : `session: HTTP status ${answer.status}`,
          );
          throw isFinal(answer.status) ? Object.assign(error, { final: true }) : error;
        },
      );
      connection = decodeSSE(response, {
        onEventId: (id) => {
          lastEventId = id;
        },
        onRetry: (ms) => {
          told = Math.min(ms, maxRetryMs);
        },
      }).subscribe({
        next: (event) => subscriber.next(event),
        error: (error: unknown) => {
          if ((error as { final?: boolean }).final) subscriber.error(error);
          else retry();
        },
        complete: retry,
      });
    };

    connect();
    return () => {
      stopped = true;
      clearTimeout(timer);
      connection?.unsubscribe();
      controller.abort();
    };
  });
}
