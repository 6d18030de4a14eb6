/**
 * An agent server: `POST /sessions` starts an agent run (the demo's recorded model by
 * default, a live OpenAI-compatible endpoint when its environment variables are set) that
 * records everything into a `memoryStore`; `GET /sessions/<id>/events` serves it through
 * `sessionHandler` (SSE with Last-Event-ID, or history pages); `GET /sessions/<id>/run` says
 * whether the run is running, done or failed (and why); `/` is a page that follows a
 * run in `<tool-timeline>` with `followSession` (served by Vite in middleware mode, which
 * compiles the page's TypeScript); `GET /metrics` gives the store's and the handler's
 * `metrics()` in Prometheus's text format (prom-client), to holders of the token.
 *
 * Run it: `npm run example:server` (then open the URL it prints). Environment:
 * - `PORT` (default 8787), `HOST` (default 127.0.0.1);
 * - `SPEED`: the recorded model's pace, 1 = as recorded (default 1);
 * - `OPENAI_BASE_URL`, `OPENAI_API_KEY`, `OPENAI_MODEL` (all three): a live endpoint
 *   instead, with `PROMPT` (default: describe the project);
 * - `CALLFOLD_EXAMPLE_TOKEN`: the bearer token readers need (default: a random one, printed
 *   and handed to the page this server serves).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { memoryStore } from '../../src/server/memory-store.js';
import { toNodeListener } from '../../src/server/node-listener.js';
import { sessionHandler } from '../../src/server/session-handler.js';
import type { SessionStore } from '../../src/server/session-store.js';
import { runAgent } from './agent.js';
import { callfoldRegistry } from './metrics.js';
import { liveModel, type Model, recordedModel } from './models.js';
import { Sandbox } from './sandbox-tools.js';

/** What the sandbox holds: the files the recorded session reads, and a few more. */
export const sandboxFiles: Readonly<Record<string, string>> = {
  'package.json': `${JSON.stringify({ name: 'greetings', type: 'module', scripts: { test: 'vitest run' } }, null, 2)}\n`,
  'src/index.ts': "export { greet } from './greet.js';\nexport { route } from './route.js';\n",
  'src/greet.ts':
    'export function greet(name: string): string {\n  return "Hello, " + name + "!";\n}\n',
  'src/route.ts': "export const route = (path: string) => path.split('/').filter(Boolean);\n",
  'README.md': '# greetings\n\nSays hello in a few languages.\n',
};

export interface AgentServerOptions {
  readonly port?: number;
  readonly host?: string;
  /** The model each run uses; default: from the environment (see the file's comment). */
  readonly model?: () => Promise<Model>;
  /** The bearer token readers send. Default: random. */
  readonly token?: string;
  /** Serve the browser page at `/` (needs Vite, a dev dependency). Default true. */
  readonly page?: boolean;
  readonly store?: SessionStore;
}

export interface AgentServer {
  readonly url: string;
  readonly token: string;
  readonly store: SessionStore;
  /** The runs started, by session id: each settles when its agent loop ends. */
  readonly runs: ReadonlyMap<string, Promise<void>>;
  close(): Promise<void>;
}

/** How a run is doing, as `GET /sessions/<id>/run` tells it. */
export type RunState =
  | { readonly state: 'running' | 'done' }
  | { readonly state: 'failed'; readonly error: string };

/** The longest failure message a run's state carries (a provider's error body can be long). */
const failureLimit = 500;

/** A run's failure as one line of text for the page (the page shows it as text, never HTML). */
function failureText(error: unknown): string {
  const text = (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ');
  return text.length > failureLimit ? `${text.slice(0, failureLimit - 1)}…` : text;
}

/** The repository: this file runs compiled, from .build-examples/examples/server/ (or .build/). */
const repository = fileURLToPath(new URL('../../..', import.meta.url));
const transcript = join(repository, 'examples/transcripts/demo-session.jsonl');

/** The model from the environment: live when all three OPENAI_* variables are set. */
export function modelFromEnvironment(env = process.env): () => Promise<Model> {
  const { OPENAI_BASE_URL: baseUrl, OPENAI_API_KEY: apiKey, OPENAI_MODEL: model } = env;
  if (baseUrl && apiKey && model) {
    const prompt = env.PROMPT ?? 'What does this project do? Look at its files first.';
    return async () => liveModel({ baseUrl, apiKey, model, prompt });
  }
  const speed = Number(env.SPEED ?? 1);
  return () => recordedModel(transcript, Number.isFinite(speed) && speed > 0 ? speed : 1);
}

export async function startAgentServer(options: AgentServerOptions = {}): Promise<AgentServer> {
  const store = options.store ?? memoryStore();
  const token = options.token ?? randomBytes(18).toString('base64url');
  const expected = Buffer.from(`Bearer ${token}`);
  const model = options.model ?? modelFromEnvironment();
  const runs = new Map<string, Promise<void>>();
  const stop = new AbortController();
  const sandboxes: Sandbox[] = [];

  /** `Authorization: Bearer <token>`, or the cookie the page gets with its HTML. */
  const authorized = (header: string | null | undefined, cookie: string | null | undefined) => {
    const fromCookie = /(?:^|;\s*)callfold_example=([^;]+)/.exec(cookie ?? '')?.[1];
    const given = Buffer.from(fromCookie === undefined ? (header ?? '') : `Bearer ${fromCookie}`);
    return given.length === expected.length && timingSafeEqual(given, expected);
  };
  /** What `GET /sessions/<id>/run` answers: how each run ended, for the page's status line. */
  const states = new Map<string, RunState>();
  /**
   * A run's state as JSON. The same authorization as its events, checked first: a request
   * without the token gets 401 or 403 whether the session exists or not.
   */
  const runState = (req: IncomingMessage, res: ServerResponse, sessionId: string) => {
    if (!authorized(req.headers.authorization, req.headers.cookie)) {
      res.writeHead(req.headers.authorization || req.headers.cookie ? 403 : 401).end();
      return;
    }
    const state = states.get(sessionId);
    if (!state) {
      res.writeHead(404).end();
      return;
    }
    res
      .writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' })
      .end(JSON.stringify(state));
  };
  const handler = sessionHandler(store, {
    sessionId: (request) =>
      /^\/sessions\/([^/]+)\/events$/.exec(new URL(request.url).pathname)?.[1] ?? '',
    // A real app checks its own user session here; this example has one token.
    authorize: (request, sessionId) =>
      runs.has(sessionId) &&
      authorized(request.headers.get('authorization'), request.headers.get('cookie')),
  });
  const events = toNodeListener(handler);
  const registry = callfoldRegistry({
    store: () => store.metrics(),
    handler: () => handler.metrics(),
  });
  /** `GET /metrics`: the same token as the events (a scrape config sends it as a bearer). */
  const metrics = async (req: IncomingMessage, res: ServerResponse) => {
    if (!authorized(req.headers.authorization, req.headers.cookie)) {
      res.writeHead(req.headers.authorization || req.headers.cookie ? 403 : 401).end();
      return;
    }
    const text = await registry.metrics();
    res.writeHead(200, { 'content-type': registry.contentType, 'cache-control': 'no-store' });
    res.end(text);
  };

  let vite:
    | {
        middlewares: (req: IncomingMessage, res: ServerResponse, next: () => void) => void;
        close(): Promise<void>;
      }
    | undefined;
  if (options.page ?? true) {
    const { createServer: createVite } = await import('vite');
    vite = await createVite({
      configFile: false,
      root: join(repository, 'examples/server'),
      server: { middlewareMode: true, fs: { allow: [repository] } },
      appType: 'mpa',
      logLevel: 'warn',
    });
  }

  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const run = /^\/sessions\/([^/]+)\/run$/.exec(path);
    if (run && req.method === 'GET') return runState(req, res, run[1] as string);
    if (path === '/metrics' && req.method === 'GET') return void metrics(req, res);
    if (path.startsWith('/sessions/') && req.method === 'GET') return events(req, res);
    if (path === '/sessions' && req.method === 'POST') {
      // JSON only: a cross-site form cannot start runs without a CORS preflight.
      const json = (req.headers['content-type'] ?? '').startsWith('application/json');
      if (!json || !authorized(req.headers.authorization, req.headers.cookie)) {
        res.writeHead(req.headers.authorization || req.headers.cookie ? 403 : 401).end();
        return;
      }
      const sessionId = `run-${randomBytes(6).toString('hex')}`;
      const run = (async () => {
        const sandbox = await Sandbox.create(sandboxFiles);
        sandboxes.push(sandbox);
        await runAgent({ store, sessionId, model: await model(), sandbox, signal: stop.signal });
      })();
      states.set(sessionId, { state: 'running' });
      run.then(
        () => states.set(sessionId, { state: 'done' }),
        (error: unknown) => {
          console.error(`run ${sessionId} failed:`, error);
          states.set(sessionId, { state: 'failed', error: failureText(error) });
        },
      );
      runs.set(sessionId, run);
      res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ sessionId }));
      return;
    }
    if (path === '/' && vite) {
      // The page learns the token from the server that serves it (same origin).
      req.url = '/index.html';
      res.setHeader('set-cookie', `callfold_example=${token}; HttpOnly; SameSite=Strict; Path=/`);
    }
    if (vite) return vite.middlewares(req, res, () => res.writeHead(404).end());
    res.writeHead(404).end();
  });
  server.listen(options.port ?? 0, options.host ?? '127.0.0.1');
  await once(server, 'listening');
  const { address, port } = server.address() as AddressInfo;
  return {
    url: `http://${address}:${port}/`,
    token,
    store,
    runs,
    close: async () => {
      stop.abort();
      await Promise.allSettled(runs.values());
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await vite?.close();
      await store.close();
      await Promise.all(sandboxes.map((sandbox) => sandbox.dispose()));
    },
  };
}

// Run directly: `node .build-examples/examples/server/server.js`.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const running = await startAgentServer({
    port: Number(process.env.PORT ?? 8787),
    host: process.env.HOST ?? '127.0.0.1',
    ...(process.env.CALLFOLD_EXAMPLE_TOKEN && { token: process.env.CALLFOLD_EXAMPLE_TOKEN }),
  });
  const live =
    process.env.OPENAI_BASE_URL && process.env.OPENAI_API_KEY && process.env.OPENAI_MODEL;
  console.log(`callfold agent server: ${running.url} (${live ? 'live model' : 'recorded model'})`);
  console.log(`readers send: Authorization: Bearer ${running.token}`);
  process.once('SIGINT', () => void running.close().then(() => process.exit(0)));
}
