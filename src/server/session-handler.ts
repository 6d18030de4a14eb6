import { parseLastEventId } from '../wire/sse.js';
import { agUIEncoder } from './ag-ui-encoder.js';
import { followerStream } from './follower-stream.js';
import { HandlerFollowers } from './handler-followers.js';
import { isSessionId } from './session-id.js';
import { parseResumeId } from './session-life.js';
import type { HandlerMetrics, SessionStore } from './session-store.js';
import {
  type HostRequest,
  type HostResponse,
  queryParameter,
  response,
  type WebRequest,
} from './web.js';

export interface SessionHandlerOptions {
  /** The session a request is for, e.g. from its URL path. An invalid id gets 404. */
  sessionId(request: HostRequest): string | Promise<string>;
  /**
   * Whether the request may read the session. Required: nothing is served without the
   * host's say. `false` gets 401 (no `Authorization` header or cookie) or 403, before the
   * store is asked anything, so the answer is the same whether the session exists or not.
   */
  authorize(request: HostRequest, sessionId: string): boolean | Promise<boolean>;
  /** An SSE comment line (`: ping`) after this long without a write. Default 15 000 ms. */
  readonly heartbeatMs?: number;
  /** Bytes a follower may have waiting; past it its response ends normally. Default 8 MiB. */
  readonly maxBufferBytes?: number;
  /** The largest page served; a larger `limit` is lowered to it. Default 1000 (`limit` defaults to 100). */
  readonly maxPageLimit?: number;
  /**
   * The wire format of the event stream. `'callfold'` (the default): callfold SSE, each
   * durable event's `id:` its seq. `'ag-ui'`: AG-UI events (see `toAGUI`; the `threadId` is
   * the sessionId), framed as `@ag-ui/encoder` frames them, so that an AG-UI client
   * (`HttpAgent` with this URL) follows the session: the stream is also served to `POST`
   * (AG-UI clients post a `RunAgentInput`, which is not read: the host runs the agent and
   * records into the store). Resumption: each request follows from `Last-Event-ID` (or
   * `?after=`; default 0, the whole session), durable frames carry `id:`; the stream then
   * starts as a fresh AG-UI stream: settled messages after that point come whole, the live
   * attempts are replayed from their start. AG-UI has no way to withdraw what a client held,
   * so an AG-UI client that resumes should drop the messages of unfinished runs
   * (`fromAGUI` under a reconnecting Assembler does). History pages stay callfold JSON.
   */
  readonly protocol?: 'callfold' | 'ag-ui';
  /**
   * The longest `retry:` `close()` sends (ms, at most 1000): each follower gets a value
   * between half of it and it, so that they do not all reconnect at once. Default 1000.
   */
  readonly closeRetryMs?: number;
}

/** What `sessionHandler` returns: the request handler, with a graceful `close()` and `metrics()`. */
export interface SessionHandler {
  (request: HostRequest): Promise<HostResponse>;
  /**
   * For a restart: new requests get 503 (`retry-after: 1`), and each follower's response
   * ends after a `retry:` line of at most `closeRetryMs`, so that `followSession` reconnects
   * to another instance within a second and resumes losing nothing. Resolves once every
   * response has ended. Stop producers (`recordAttempt`'s `signal`) and close the store after.
   */
  close(): Promise<void>;
  /** The followers open now, bytes sent and followers cut for being slow (`HandlerMetrics`). */
  metrics(): HandlerMetrics;
}

const noStore = { 'cache-control': 'no-store' };
const json = { 'content-type': 'application/json; charset=utf-8', ...noStore };
const text = { 'content-type': 'text/plain; charset=utf-8', ...noStore };
const defaultLimit = 100;

/**
 * A Fetch API handler serving one store's sessions: `(request) => Promise<Response>`, for
 * `Deno.serve`, fetch-style frameworks and, through `toNodeListener`, `node:http`.
 *
 * - `GET` with `Accept: text/event-stream`: follows the session as server-sent events. A
 *   durable event's `id:` is `<seq>-<life>` (its seq and the session's life, see
 *   `SessionStore.life`); the follow resumes after `Last-Event-ID` — an ID of an earlier life
 *   of the session id (it was deleted or expired since) gets 410 Gone; a bare seq resumes
 *   unchecked — (or the
 *   `after` query parameter, for an `EventSource` opened mid-session), replays the live
 *   attempts, then streams. A follower whose unsent bytes pass `maxBufferBytes` is ended
 *   normally and resumes without loss.
 * - `GET` otherwise: one history page as a JSON array, ascending seq: `?before=&limit=`.
 * - With `protocol: 'ag-ui'`, the event stream is AG-UI's (see the option), and `POST` is
 *   served it too.
 * - Anything else: 405. A malformed `before`, `limit` or `after`: 400.
 *
 * @example
 * ```ts
 * import { memoryStore, sessionHandler } from 'callfold/server';
 * const handler = sessionHandler(memoryStore(), {
 *   sessionId: (request) => new URL(request.url).pathname.split('/')[2] ?? '',
 *   authorize: async (request, sessionId) => (await userOf(request))?.owns(sessionId) ?? false,
 * });
 * Deno.serve(handler);
 * ```
 */
export function sessionHandler(
  store: SessionStore,
  options: SessionHandlerOptions,
): SessionHandler {
  if (typeof options?.authorize !== 'function') {
    throw new TypeError('sessionHandler: options.authorize is required');
  }
  const heartbeatMs = options.heartbeatMs ?? 15_000;
  const maxBufferBytes = options.maxBufferBytes ?? 8 * 1024 * 1024;
  const maxPageLimit = options.maxPageLimit ?? 1000;
  const closeRetryMs = options.closeRetryMs ?? 1000;
  if (!(closeRetryMs > 0 && closeRetryMs <= 1000)) {
    throw new RangeError(`closeRetryMs must be within (0, 1000], got ${closeRetryMs}`);
  }
  const followers = new HandlerFollowers();
  let closing = false;

  const handle = async (hostRequest: HostRequest): Promise<HostResponse> => {
    const request = hostRequest as unknown as WebRequest;
    if (closing) {
      return response('closing: reconnect to another instance\n', 503, {
        ...text,
        'retry-after': '1',
      });
    }
    const agUI = options.protocol === 'ag-ui';
    if (request.method !== 'GET' && !(agUI && request.method === 'POST')) {
      return response('method not allowed\n', 405, { ...text, allow: agUI ? 'GET, POST' : 'GET' });
    }
    let sessionId: string;
    try {
      sessionId = await options.sessionId(hostRequest);
    } catch {
      sessionId = '';
    }
    if (!isSessionId(sessionId)) return response('not found\n', 404, text);
    let allowed: boolean;
    try {
      allowed = (await options.authorize(hostRequest, sessionId)) === true;
    } catch (error) {
      console.error('callfold: authorize threw', error);
      return response('internal error\n', 500, text);
    }
    if (!allowed) {
      const identified =
        request.headers.get('authorization') !== null || request.headers.get('cookie') !== null;
      return identified
        ? response('forbidden\n', 403, text)
        : response('unauthorized\n', 401, text);
    }

    const accept = request.headers.get('accept') ?? '';
    if (accept.includes('text/event-stream') || request.method === 'POST') {
      const header = request.headers.get('last-event-id');
      const query = queryParameter(request.url, 'after');
      const resume = parseResumeId(header);
      const after = resume?.seq ?? parseLastEventId(query) ?? 0;
      if (header === null && query !== null && parseLastEventId(query) === undefined) {
        return response('after must be a number\n', 400, text);
      }
      let follow: ReturnType<SessionStore['follow']>;
      let life: string | undefined;
      try {
        if (!agUI) life = await store.life(sessionId);
        // An ID from an earlier life of this session id: the client's events are of a session
        // that is gone (deleted or expired); resuming would mix the two (decision 0015).
        if (resume?.life !== undefined && resume.life !== life) {
          return response('gone: the session this event ID belongs to was deleted\n', 410, text);
        }
        follow = store.follow(sessionId, {
          after,
          ...(request.signal ? { signal: request.signal } : {}),
          ...(life === undefined ? {} : { life }),
        });
      } catch (error) {
        console.error('callfold: follow failed', error);
        return response('unavailable\n', 503, text);
      }
      const encoding = agUI ? { encode: agUIEncoder(sessionId) } : { life: life as string };
      const body = followerStream(follow, { heartbeatMs, maxBufferBytes, followers, ...encoding });
      return response(body, 200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        'x-accel-buffering': 'no',
      });
    }

    const before = numberParameter(request.url, 'before');
    const limit = numberParameter(request.url, 'limit');
    if (Number.isNaN(before) || Number.isNaN(limit) || (limit !== undefined && limit < 0)) {
      return response('before and limit must be numbers (limit >= 0)\n', 400, text);
    }
    const pageLimit = Math.min(Math.floor(limit ?? defaultLimit), maxPageLimit);
    try {
      const page = await store.page(
        sessionId,
        before === undefined ? { limit: pageLimit } : { before, limit: pageLimit },
      );
      return response(JSON.stringify(page), 200, json);
    } catch (error) {
      console.error('callfold: page failed', error);
      return response('internal error\n', 500, text);
    }
  };
  return Object.assign(handle, {
    close(): Promise<void> {
      closing = true;
      return followers.close(() => closeRetryMs * (0.5 + Math.random() / 2));
    },
    metrics: () => followers.metrics(),
  });
}

/** A numeric query parameter: undefined when absent, NaN when not a number. */
function numberParameter(url: string, name: string): number | undefined {
  const value = queryParameter(url, name);
  if (value === null) return undefined;
  return value.trim() === '' ? Number.NaN : Number(value);
}
