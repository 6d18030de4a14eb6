/**
 * One server process of `npm run bench:server` (forked by server.bench.ts, IPC):
 * `server-worker.js <mode> [redis url] [fanOutMs]`, mode `memory` (memoryStore + sessionHandler),
 * `redis` (redisStore + sessionHandler), `cluster` (the same on a Redis Cluster: the url is
 * `host:port,host:port…`) or `floor` (a bare broadcast: each delta written
 * to every open response, no store). It serves /sessions/<id> on a free loopback port, and
 * on request produces the deltas of one 512 KiB `write` at a fixed pace, reporting when
 * each was handed to the server, its CPU time and, for idle followers, its memory.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance as hooks, monitorEventLoopDelay } from 'node:perf_hooks';
import { memoryStore } from '../src/server/memory-store.js';
import { toNodeListener } from '../src/server/node-listener.js';
import { redisStore } from '../src/server/redis/redis-store.js';
import { sessionHandler } from '../src/server/session-handler.js';
import type { SessionStore } from '../src/server/session-store.js';
import { encodeSSE } from '../src/wire/sse.js';
import { sseOffsets, writeDeltas } from './support/write-deltas.js';

const [mode = 'memory', url = '', fanOut = ''] = process.argv.slice(2);
/** The stores' `fanOutMs` (`--fan-out-ms` of the bench); empty: their default. */
const paced = fanOut === '' ? {} : { fanOutMs: Number(fanOut) };
const now = () => performance.timeOrigin + performance.now();
const send = (message: unknown) => process.send?.(message);

let store: SessionStore | undefined;
const floorClients = new Set<ServerResponse>();
let server: ReturnType<typeof createServer>;

/**
 * Where each sampled message of one follower went through the server (the latency
 * breakdown): the time its bytes were handed to `res.write`, the start of the pass that
 * wrote them, and whether that write came after a refused one (the follower had waited for
 * `drain`). The body's bytes are counted as the bench's reader counts them (a leading
 * heartbeat comment skipped), so a write completes the sampled messages whose end it
 * reaches. Made when the stream starts (`produce`); keyed by the follower's `?f=` index.
 */
interface Trace {
  bytes: number;
  next: number;
  refusedLast: boolean;
  readonly written: Float64Array;
  readonly passStart: Float64Array;
  readonly flushed: Float64Array;
  /** The first sampled message not yet known to be in the kernel. */
  flushedNext: number;
  readonly afterRefusal: Uint8Array;
}
const traced = new Map<number, { trace: Trace | undefined }>();
/** The byte offsets at which the sampled messages end (set by `produce`). */
let marks = new Float64Array(0);

function note(slot: { trace: Trace | undefined }, chunk: unknown): number {
  const trace = slot.trace;
  if (!trace) return -1;
  const bytes =
    typeof chunk === 'string' ? Buffer.byteLength(chunk) : (chunk as Uint8Array).byteLength;
  if (trace.bytes === 0 && bytes > 0 && (chunk as Uint8Array)[0] === 58 /* ':' */) return -1;
  trace.bytes += bytes;
  const at = now();
  const start = pass ? performance.timeOrigin + pass.start : at;
  const from = trace.next;
  while (trace.next < marks.length && (marks[trace.next] as number) <= trace.bytes) {
    trace.written[trace.next] = at;
    trace.passStart[trace.next] = start;
    trace.afterRefusal[trace.next] = trace.refusedLast ? 1 : 0;
    trace.next++;
  }
  return from;
}

/**
 * The sampled messages before `to` are in the kernel now. Node's HTTP response corks its
 * socket at a write and uncorks it after the current task (one `writev` per follower, in
 * turn, after the pass's JavaScript): stamped right after that uncork when the socket took
 * every byte, else by the write's callback (once the reader made room).
 */
function flushed(trace: Trace, to: number): void {
  if (to <= trace.flushedNext) return;
  const at = now();
  for (let m = trace.flushedNext; m < to; m++) trace.flushed[m] = at;
  trace.flushedNext = to;
}

/** Counts the response's writes into passes (see `countWrite`) and traces them (`note`). */
function counted(response: ServerResponse, url = ''): void {
  const index = Number(/[?&]f=(\d+)/.exec(url)?.[1] ?? -1);
  const slot: { trace: Trace | undefined } & Written = { trace: undefined, pass: 0, turn: 0 };
  if (index >= 0) {
    traced.set(index, slot);
    response.once('close', () => {
      if (traced.get(index) === slot) traced.delete(index);
    });
  }
  const socket = response.socket;
  if (socket && index >= 0) {
    const uncork = socket.uncork;
    socket.uncork = function (this: typeof socket) {
      uncork.call(this);
      if (slot.trace && this.writableLength === 0) flushed(slot.trace, slot.trace.next);
    };
  }
  const write = response.write;
  response.write = function (this: ServerResponse, ...args: never[]) {
    countWrite(slot);
    const from = note(slot, args[0]);
    const trace = slot.trace;
    const to = trace?.next ?? -1;
    if (trace && from >= 0 && to > from && args.length === 1) {
      (args as unknown[]).push(() => flushed(trace, to));
    }
    const accepted = (write as (...a: never[]) => boolean).apply(this, args);
    if (!accepted) refused++;
    if (trace && from >= 0) trace.refusedLast = !accepted;
    return accepted;
  } as typeof write;
}
if (mode === 'floor') {
  server = createServer((request, response) => {
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
    response.flushHeaders();
    floorClients.add(response);
    counted(response, request.url);
    response.once('close', () => floorClients.delete(response));
  });
} else {
  const nodes = () =>
    url.split(',').map((node) => {
      const colon = node.lastIndexOf(':');
      return { host: node.slice(0, colon), port: Number(node.slice(colon + 1)) };
    });
  store =
    mode === 'redis'
      ? await redisStore({ url, ...paced })
      : mode === 'cluster'
        ? await redisStore({ cluster: nodes(), ...paced })
        : memoryStore(paced);
  const handler = sessionHandler(store, {
    sessionId: (request) => new URL(request.url).pathname.split('/')[2] ?? '',
    authorize: () => true,
  });
  const listener = toNodeListener(handler);
  server = createServer((request, response) => {
    counted(response, request.url);
    listener(request, response);
  });
}
server.listen(0, '127.0.0.1', () =>
  send({ type: 'ready', port: (server.address() as AddressInfo).port }),
);

/**
 * The passes of the fan-out as this process sees them from outside callfold: a pass is the
 * writes to follower responses until one of them is written again in a later turn of the
 * event loop (a wake-up writes each follower once, in one turn or in slices over several;
 * a write after `drain` in a turn of its own also ends the pass). It lasts from its first
 * write until the loop turns after its last (`setImmediate`: after the corked socket writes
 * went out).
 */
const passes: { writes: number; ms: number }[] = [];
/** Writes a follower's socket did not take at once (its buffer full: the reader is behind). */
let refused = 0;
let pass: { id: number; writes: number; start: number; end: number } | undefined;
let passIds = 0;
let turn = 0;
let turnOpen = false;
/** Where a response was last written: the pass and the loop turn. */
interface Written {
  pass: number;
  turn: number;
}
function countWrite(written: Written): void {
  if (!turnOpen) {
    turnOpen = true;
    turn++;
    setImmediate(() => {
      turnOpen = false;
      if (pass) pass.end = performance.now();
    });
  }
  if (!pass || (written.pass === pass.id && written.turn !== turn)) {
    closePass();
    const at = performance.now();
    pass = { id: ++passIds, writes: 0, start: at, end: at };
  }
  pass.writes++;
  written.pass = pass.id;
  written.turn = turn;
}
function closePass(): void {
  if (pass) passes.push({ writes: pass.writes, ms: pass.end - pass.start });
  pass = undefined;
}

/**
 * Hands the events to the store at a real pace: every millisecond, all events due by then
 * (event k is due at start + k / perSecond), as one `live` call (the floor: one write of
 * them to each response). The latency clock of a sampled event starts at
 * its due time, not when the loop got round to handing it over: a busy server delays a real
 * producer's events (they wait in its socket) just as much. The first `warm` events warm the
 * server and the followers up (JIT, socket buffers) and are not sampled.
 */
async function produce(
  session: string,
  count: number,
  warm: number,
  perSecond: number,
  sample: number,
) {
  const events = writeDeltas(warm + count, `att_${session}`);
  const sent = new Float64Array(Math.ceil(count / sample));
  /** When each sampled event was handed to the store (the floor: written to every response). */
  const handed = new Float64Array(sent.length);
  const { ends } = sseOffsets(events);
  marks = Float64Array.from({ length: sent.length }, (_, m) => ends[warm + m * sample] as number);
  for (const slot of traced.values()) {
    slot.trace = {
      bytes: 0,
      next: 0,
      refusedLast: false,
      written: new Float64Array(marks.length),
      passStart: new Float64Array(marks.length),
      flushed: new Float64Array(marks.length),
      flushedNext: 0,
      afterRefusal: new Uint8Array(marks.length),
    };
  }
  const lag = monitorEventLoopDelay({ resolution: 1 });
  let cpu = process.cpuUsage();
  let utilization = hooks.eventLoopUtilization();
  let k = 0;
  const start = now();
  let measuredFrom = start;
  await new Promise<void>((resolve) => {
    const tick = async () => {
      const due = Math.min(warm + count, Math.floor(((now() - start) * perSecond) / 1000) + 1);
      if (k <= warm && warm < due) {
        cpu = process.cpuUsage();
        utilization = hooks.eventLoopUtilization();
        lag.enable();
        closePass();
        passes.length = 0;
        refused = 0;
        measuredFrom = now();
      }
      const at = now();
      for (let j = Math.max(k, warm); j < due; j++) {
        const m = j - warm;
        if (m % sample === 0) {
          sent[m / sample] = start + (j * 1000) / perSecond;
          handed[m / sample] = at;
        }
      }
      const batch = events.slice(k, due);
      k = due;
      // What came due while the last call was in flight goes as one call, as recordAttempt
      // writes what arrived during its previous write.
      if (batch.length === 0) {
        // Nothing due yet.
      } else if (store) await store.live(session, batch);
      else {
        const bytes = batch.map(encodeSSE).join('');
        for (const client of floorClients) client.write(bytes);
      }
      if (k >= warm + count) resolve();
      else setTimeout(tick, 1);
    };
    void tick();
  });
  const seconds = (now() - measuredFrom) / 1000;
  const used = process.cpuUsage(cpu);
  lag.disable();
  closePass();
  const sorted = passes.filter((p) => p.writes > 1).sort((a, b) => a.ms - b.ms);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
  const bytes = events
    .slice(warm)
    .reduce((sum, event) => sum + Buffer.byteLength(encodeSSE(event)), 0);
  send({
    type: 'produced',
    sent: [...sent],
    handed,
    cpuMs: (used.user + used.system) / 1000,
    bytes,
    server: {
      rate: count / seconds,
      cpuShare: (used.user + used.system) / 1000 / (seconds * 1000),
      loopUtilization: hooks.eventLoopUtilization(utilization).utilization,
      lagP99: lag.percentile(99) / 1e6,
      lagMax: lag.max / 1e6,
      passesPerSecond: sorted.length / seconds,
      writesPerPass: at(0.5)?.writes ?? 0,
      refusedWrites: refused,
      passP50: at(0.5)?.ms ?? 0,
      passP99: at(0.99)?.ms ?? 0,
    },
  });
}

process.on('message', async (message: { type: string; [key: string]: unknown }) => {
  if (message.type === 'produce') {
    await produce(
      String(message.session),
      Number(message.count),
      Number(message.warm),
      Number(message.perSecond),
      Number(message.sample),
    );
  } else if (message.type === 'trace') {
    // The latency breakdown's server side, per follower index (after a run).
    const traces: Record<
      number,
      Omit<Trace, 'bytes' | 'next' | 'refusedLast' | 'flushedNext'>
    > = {};
    for (const [index, slot] of traced) {
      if (!slot.trace) continue;
      const { written, passStart, flushed: inKernel, afterRefusal } = slot.trace;
      traces[index] = { written, passStart, flushed: inKernel, afterRefusal };
    }
    send({ type: 'trace', traces });
  } else if (message.type === 'clock') {
    send({ type: 'clock', at: now() });
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
