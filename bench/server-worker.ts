/**
 * One server process of `npm run bench:server` (forked by server.bench.ts, IPC):
 * `server-worker.js <mode> [redis url] [fanOutMs]`, mode `memory` (memoryStore + sessionHandler),
 * `redis` (redisStore + sessionHandler) or `floor` (a bare broadcast: each delta written
 * to every open response, no store). It serves /sessions/<id> on a free loopback port, and
 * on request produces the deltas of one 512 KiB `write` at a fixed pace, reporting when
 * each was handed to the server, its CPU time and, for idle followers, its memory.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { encodeSSE } from '../src/events/sse.js';
import type { StreamEvent } from '../src/events/types.js';
import { memoryStore } from '../src/server/memory-store.js';
import { toNodeListener } from '../src/server/node-listener.js';
import { redisStore } from '../src/server/redis/redis-store.js';
import { sessionHandler } from '../src/server/session-handler.js';
import type { SessionStore } from '../src/server/session-store.js';

const [mode = 'memory', url = '', fanOut = ''] = process.argv.slice(2);
/** The stores' `fanOutMs` (`--fan-out-ms` of the bench); empty: their default. */
const paced = fanOut === '' ? {} : { fanOutMs: Number(fanOut) };
const now = () => performance.timeOrigin + performance.now();
const send = (message: unknown) => process.send?.(message);

let store: SessionStore | undefined;
const floorClients = new Set<ServerResponse>();
let server: ReturnType<typeof createServer>;
if (mode === 'floor') {
  server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
    response.flushHeaders();
    floorClients.add(response);
    response.once('close', () => floorClients.delete(response));
  });
} else {
  store = mode === 'redis' ? await redisStore({ url, ...paced }) : memoryStore(paced);
  const handler = sessionHandler(store, {
    sessionId: (request) => new URL(request.url).pathname.split('/')[2] ?? '',
    authorize: () => true,
  });
  server = createServer(toNodeListener(handler));
}
server.listen(0, '127.0.0.1', () =>
  send({ type: 'ready', port: (server.address() as AddressInfo).port }),
);

/** The write's deltas: 16 characters of content each, a JSON-escaped text like a model's. */
function deltas(count: number, attemptId: string): StreamEvent[] {
  const line = 'export const greeting = "hello, world";\n';
  const text = JSON.stringify({
    file_path: 'src/big.ts',
    content: line.repeat(Math.ceil((count * 16) / line.length)),
  });
  return Array.from({ length: count }, (_, k) => ({
    type: 'stream/tool-call-delta',
    attemptId,
    block: 0,
    callId: `${attemptId}:0`,
    ...(k === 0 ? { name: 'write' } : {}),
    args: text.slice(k * 16, k * 16 + 16),
  }));
}

async function produce(session: string, count: number, perSecond: number, sample: number) {
  const events = deltas(count, `att_${session}`);
  const sent = new Float64Array(Math.ceil(count / sample));
  const cpu = process.cpuUsage();
  const perTick = Math.max(1, Math.round(perSecond / 200));
  let k = 0;
  await new Promise<void>((resolve) => {
    const tick = async () => {
      const end = Math.min(count, k + perTick);
      for (; k < end; k++) {
        const event = events[k] as StreamEvent;
        if (k % sample === 0) sent[k / sample] = now();
        if (store) await store.live(session, [event]);
        else {
          const bytes = encodeSSE(event);
          for (const client of floorClients) client.write(bytes);
        }
      }
      if (k >= count) resolve();
      else setTimeout(tick, 5);
    };
    void tick();
  });
  const used = process.cpuUsage(cpu);
  const bytes = events.reduce((sum, event) => sum + Buffer.byteLength(encodeSSE(event)), 0);
  send({ type: 'produced', sent: [...sent], cpuMs: (used.user + used.system) / 1000, bytes });
}

process.on('message', async (message: { type: string; [key: string]: unknown }) => {
  if (message.type === 'produce') {
    await produce(
      String(message.session),
      Number(message.count),
      Number(message.perSecond),
      Number(message.sample),
    );
  } else if (message.type === 'memory') {
    (globalThis as { gc?: () => void }).gc?.();
    (globalThis as { gc?: () => void }).gc?.();
    const usage = process.memoryUsage();
    send({ type: 'memory', rss: usage.rss, heap: usage.heapUsed, external: usage.external });
  } else if (message.type === 'cpu') {
    const used = process.cpuUsage();
    send({ type: 'cpu', cpuMs: (used.user + used.system) / 1000 });
  } else if (message.type === 'exit') {
    server.closeAllConnections();
    server.close();
    await store?.close();
    process.exit(0);
  }
});
