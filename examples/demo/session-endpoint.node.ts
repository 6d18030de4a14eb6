/**
 * The demo's session server, mounted in `npm start`'s Vite dev server (and `vite preview`):
 * the page is the agent (it replays the recording, or streams a live turn) and publishes its
 * events here; its timeline follows the session back over real HTTP through
 * `sessionHandler` + `memoryStore`, so "Reconnect" resumes with `Last-Event-ID` and "Reload
 * as history" loads pages with `loadHistory`, as against a production server.
 *
 * Routes, under `/demo-sessions/`:
 * - `POST /demo-sessions` → `201 {"id", "token"}`: a new session, readable and writable only
 *   with `Authorization: Bearer <token>` (the handler's `authorize`).
 * - `GET /demo-sessions/<id>/events`: `sessionHandler` — SSE with `Accept:
 *   text/event-stream`, else a history page (`?before=&limit=`).
 * - `POST /demo-sessions/<id>/events`, a JSON array of events: durable events are appended
 *   (the store numbers them) and stream events made live, in order; answers the durable
 *   events as numbered. An empty array renews the leases of the attempts still open (the page
 *   sends one every few seconds, so a paused replay keeps its live attempt).
 * - `DELETE /demo-sessions/<id>`: the run is over; its store is closed.
 *
 * Each session has its own `memoryStore`, and only the newest `maxSessions` are kept, so a
 * dev server that restarts the replay all day holds a bounded amount. Nothing here reaches
 * beyond the dev server: no network, no key.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CallfoldEvent } from '../../src/events/types.js';
import { isDurableEvent } from '../../src/events/types.js';
import { parseEvent } from '../../src/events/validate.js';
import { appendRuns } from '../../src/server/append-runs.js';
import { memoryStore } from '../../src/server/memory-store.js';
import { toNodeListener } from '../../src/server/node-listener.js';
import { sessionHandler } from '../../src/server/session-handler.js';
import type { SessionStore } from '../../src/server/session-store.js';

export const demoSessionsPath = '/demo-sessions';
/** A publish body larger than this is refused (413): the demo's largest batch is ~1 MiB. */
const maxBodyBytes = 16 * 1024 * 1024;
const maxSessions = 8;

interface DemoSession {
  readonly store: SessionStore;
  readonly token: Buffer;
  /** Attempts streamed and not settled: renewed on every publish. */
  readonly open: Set<string>;
  /** Publishes run one after the other, in arrival order. */
  chain: Promise<unknown>;
}

type Next = (error?: unknown) => void;

/** The connect-style middleware Vite's `server.middlewares` and `preview.middlewares` take. */
export function demoSessionsMiddleware(): (
  req: IncomingMessage,
  res: ServerResponse,
  next: Next,
) => void {
  const sessions = new Map<string, DemoSession>();
  const authorized = (header: string | null, session: DemoSession | undefined) => {
    const given = Buffer.from(/^Bearer (\S+)$/.exec(header ?? '')?.[1] ?? '');
    return (
      session !== undefined &&
      given.length === session.token.length &&
      timingSafeEqual(given, session.token)
    );
  };
  const handler = sessionHandler(
    {
      // Every call is routed to the store of the session it names.
      get leaseMs() {
        return 30_000;
      },
      append: (id, events) => storeOf(id).append(id, events),
      live: (id, events) => storeOf(id).live(id, events),
      renew: (id, attempts) => storeOf(id).renew(id, attempts),
      page: (id, options) => storeOf(id).page(id, options),
      follow: (id, options) => storeOf(id).follow(id, options),
      life: (id) => storeOf(id).life(id),
      delete: (id) => storeOf(id).delete(id),
      metrics: () => {
        const each = [...sessions.values()].map((session) => session.store.metrics());
        const sum = (key: 'sessions' | 'followers' | 'liveAttempts' | 'leasesExpired') =>
          each.reduce((total, metrics) => total + metrics[key], 0);
        return {
          sessions: sum('sessions'),
          followers: sum('followers'),
          liveAttempts: sum('liveAttempts'),
          leasesExpired: sum('leasesExpired'),
          evictions: 0,
          feedTrims: 0,
        };
      },
      close: async () => {},
    },
    {
      sessionId: (request) => idFromPath(new URL(request.url).pathname) ?? '',
      authorize: (request, id) =>
        authorized(request.headers.get('authorization'), sessions.get(id)),
      heartbeatMs: 5_000,
    },
  );
  const storeOf = (id: string): SessionStore => {
    const session = sessions.get(id);
    if (!session) throw new Error(`demo session ${id} is gone`);
    return session.store;
  };
  const listener = toNodeListener(handler);

  return (req, res, next) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== demoSessionsPath && !url.pathname.startsWith(`${demoSessionsPath}/`)) {
      return next();
    }
    const id = idFromPath(url.pathname);
    if (req.method === 'GET' && id !== undefined && url.pathname.endsWith('/events')) {
      return listener(req, res);
    }
    // Writes take JSON only: a cross-site page cannot send that without a CORS preflight,
    // which this server never answers.
    const json = (req.headers['content-type'] ?? '').startsWith('application/json');
    if (req.method === 'POST' && url.pathname === demoSessionsPath && json) {
      const created = create(sessions);
      return send(res, 201, created);
    }
    const session = id === undefined ? undefined : sessions.get(id);
    if (id === undefined || !authorized(req.headers.authorization ?? null, session)) {
      return send(res, req.headers.authorization ? 403 : 401, { error: 'not allowed' });
    }
    const known = session as DemoSession;
    if (req.method === 'DELETE' && url.pathname === `${demoSessionsPath}/${id}`) {
      sessions.delete(id);
      void known.store.close();
      return send(res, 200, {});
    }
    if (req.method === 'POST' && url.pathname.endsWith('/events') && json) {
      return void readBody(req)
        .then((body) => {
          const events = parseBatch(body);
          const task = known.chain.then(() => publish(known, id, events));
          known.chain = task.catch(() => {});
          return task;
        })
        .then(
          (numbered) => send(res, 200, numbered),
          (error: unknown) =>
            send(res, 400, { error: error instanceof Error ? error.message : String(error) }),
        );
    }
    send(res, 405, { error: 'method not allowed' });
  };
}

/** The Vite plugin `npm start` uses (see vite.config.ts). */
export function demoSessions(): {
  name: string;
  configureServer(server: { middlewares: { use(middleware: unknown): unknown } }): void;
  configurePreviewServer(server: { middlewares: { use(middleware: unknown): unknown } }): void;
} {
  return {
    name: 'callfold-demo-sessions',
    // Block bodies: a function returned from these hooks would run as a post hook.
    configureServer: (server) => {
      server.middlewares.use(demoSessionsMiddleware());
    },
    configurePreviewServer: (server) => {
      server.middlewares.use(demoSessionsMiddleware());
    },
  };
}

function create(sessions: Map<string, DemoSession>): { id: string; token: string } {
  const id = `demo-${randomBytes(9).toString('base64url')}`;
  const token = randomBytes(24).toString('base64url');
  sessions.set(id, {
    store: memoryStore(),
    token: Buffer.from(token),
    open: new Set(),
    chain: Promise.resolve(),
  });
  for (const [old, session] of sessions) {
    if (sessions.size <= maxSessions) break;
    sessions.delete(old);
    void session.store.close();
  }
  return { id, token };
}

/** `/demo-sessions/<id>` or `/demo-sessions/<id>/events` → id. */
function idFromPath(pathname: string): string | undefined {
  const match = /^\/demo-sessions\/([^/]+)(?:\/events)?$/.exec(pathname);
  return match?.[1];
}

/** Writes the posted events (`appendRuns`) and renews the attempts left open. */
async function publish(
  session: DemoSession,
  id: string,
  events: readonly CallfoldEvent[],
): Promise<readonly unknown[]> {
  for (const event of events) {
    if (isDurableEvent(event)) continue;
    if (event.type === 'stream/settle') session.open.delete(event.attemptId);
    else session.open.add(event.attemptId);
  }
  const numbered = await appendRuns(session.store, id, events);
  if (session.open.size > 0) await session.store.renew(id, [...session.open]);
  return numbered;
}

function parseBatch(body: string): CallfoldEvent[] {
  const value: unknown = JSON.parse(body);
  if (!Array.isArray(value)) throw new TypeError('expected a JSON array of events');
  return value.map((event, index) => {
    try {
      return parseEvent(event);
    } catch (error) {
      throw new TypeError(`event ${index}: ${error instanceof Error ? error.message : error}`);
    }
  });
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBodyBytes) {
        reject(new RangeError(`the body is larger than ${maxBodyBytes} bytes`));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
  });
  res.end(JSON.stringify(body));
}
