/**
 * `npm run bench:adapters`: the fold benchmark's write scenario (one `Write` whose `content` is
 * 512 KiB, in 16-character pieces) through each provider adapter + `assemble()`, every
 * publication reading what a row shows (the path, the content's length per KiB). The chunks
 * are the objects each official client yields, built before timing and handed over as an
 * async iterable that lets the scheduler publish after every 64 pieces, as a socket would.
 *
 * Each contestant runs in a process of its own, as an application that reads one provider
 * does: its heap holds its own chunks only and its JIT has seen its own adapter only. (In one
 * process for all, the Gemini adapter's ratio was bimodal from process to process, 1.2× or
 * 1.6–1.9×: its deeper chunk objects shared the heap, and the collector's work, with the
 * others'.) The processes run one at a time, alternated round after round, so the ratio to
 * the Anthropic adapter is taken within each round (the median of the per-round ratios): the
 * goal of issue 26 is every newer adapter within 1.3× of it.
 *
 * The rounds are spread over `BENCH_PROCESSES` sets of fresh processes (default 5), each set
 * running 3 untimed rounds and then `BENCH_ROUNDS` timed ones (default 6). On this 2-core VM a
 * process sometimes walks its pre-built chunks at half speed for many rounds in a row, the
 * collector too, whatever the adapter (bench/README.md, "Adapters benchmark"); with one
 * process per contestant for the whole run, that one process's luck decided the result.
 *
 * Pre-built chunks kept for the whole run do not flatter one adapter over another here:
 * parsing each chunk from its wire text right before it is yielded, for every contestant, and
 * subtracting the same loop without an adapter gave Gemini the same ratio or a worse one
 * (bench/README.md, "Adapters benchmark", 2026-12-06).
 */
import { type ChildProcess, fork } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { Observable } from 'rxjs';
import type { Conversation } from '../src/conversation/conversation.js';
import type { CallfoldEvent } from '../src/events/types.js';
import { assemble } from '../src/rx/assemble.js';
import { contestant, contestantNames } from './support/adapter-chunks.js';
import { buildWriteArguments } from './support/content.js';
import { goal, goalTable } from './support/goals.js';
import { median } from './support/stats.js';
import { textTable } from './support/table.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const PROCESSES = Number(process.env.BENCH_PROCESSES ?? 5);
const WARMUP = 3;
const FLUSH_EVERY = 64;

/** The chunks as a client yields them, with a macrotask after every `FLUSH_EVERY`. */
async function* paced(chunks: readonly unknown[]): AsyncGenerator<unknown> {
  for (let i = 0; i < chunks.length; i++) {
    yield chunks[i];
    if ((i + 1) % FLUSH_EVERY === 0) await new Promise((resolve) => setImmediate(resolve));
  }
}

/** One run: wall and CPU time, publications, and what the row read last. */
async function run(events: Observable<CallfoldEvent>) {
  let publications = 0;
  let path: string | undefined;
  let length: number | undefined;
  const cpu = process.cpuUsage();
  const started = performance.now();
  await new Promise<void>((resolve, reject) => {
    events.pipe(assemble()).subscribe({
      next: (conversation: Conversation) => {
        publications++;
        for (const tool of conversation.tools.values()) {
          path = tool.args.text('file_path');
          length = tool.args.stringLength('content', { step: 1024 });
        }
      },
      error: reject,
      complete: resolve,
    });
  });
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return { wallMs, cpuMs: (used.user + used.system) / 1000, publications, path, length };
}

interface RunResult {
  readonly wallMs: number;
  readonly cpuMs: number;
  readonly publications: number;
  readonly path: string | undefined;
  readonly length: number | undefined;
}

const write = buildWriteArguments({ kind: 'code', contentLength: 512 * 1024 });
const contestantName = process.argv[2];

if (contestantName !== undefined) {
  // A contestant's process: its chunks built once; one run per message from the parent.
  const own = contestant(write, contestantName);
  if (own === undefined) throw new Error(`no contestant ${contestantName}`);
  process.on('message', async () => {
    process.send?.(await run(own.adapt(paced(own.chunks))));
  });
  // Ready: what the report shows of it.
  process.send?.({ title: own.title, chunks: own.chunks.length });
} else {
  await compare();
}

/** A started contestant: its title and chunk count, its process, and one run on request. */
interface Started {
  readonly title: string;
  readonly chunks: number;
  readonly child: ChildProcess;
  run(): Promise<RunResult>;
}

/** A contestant's process, once it has built its chunks. */
function start(name: string): Promise<Started> {
  const child = fork(fileURLToPath(import.meta.url), [name], { stdio: 'inherit' });
  const run = () =>
    new Promise<RunResult>((resolve, reject) => {
      const exited = (code: number | null) => reject(new Error(`${name} exited (${code})`));
      child.once('exit', exited);
      child.once('message', (result) => {
        child.off('exit', exited);
        resolve(result as RunResult);
      });
      child.send('run');
    });
  return new Promise((resolve, reject) => {
    child.once('message', (ready) => {
      const { title, chunks } = ready as { title: string; chunks: number };
      resolve({ title, chunks, child, run });
    });
    child.once('exit', (code) => reject(new Error(`${name} exited (${code})`)));
  });
}

async function compare(): Promise<void> {
  const wall = new Map<string, number[]>(contestantNames.map((name) => [name, []]));
  const cpu = new Map<string, number[]>(contestantNames.map((name) => [name, []]));
  const ratios = new Map<string, number[]>(contestantNames.map((name) => [name, []]));
  /** Each contestant's title and chunk count, from its first process. */
  const shown = new Map<string, { title: string; chunks: number }>();
  let maxLoad = 0;
  const began = performance.now();
  for (let set = 0; set < PROCESSES; set++) {
    // The chunks are built and kept in the contestants' processes only.
    const processes = new Map<string, Started>();
    for (const name of contestantNames) processes.set(name, await start(name));
    for (const [name, { title, chunks }] of processes) shown.set(name, { title, chunks });
    for (let round = 0; round < WARMUP + ROUNDS; round++) {
      const times = new Map<string, number>();
      for (const [name, contestant] of processes) {
        const result = await contestant.run();
        if (result.path !== write.path || result.length !== write.content.length) {
          throw new Error(`${name}: the row read ${result.path} / ${result.length}`);
        }
        times.set(name, result.wallMs);
        if (round >= WARMUP) {
          wall.get(name)?.push(result.wallMs);
          cpu.get(name)?.push(result.cpuMs);
        }
      }
      maxLoad = Math.max(maxLoad, loadavg()[0] ?? 0);
      if (round < WARMUP) continue;
      const anthropic = times.get('anthropic') ?? Number.NaN;
      for (const name of contestantNames) {
        ratios.get(name)?.push((times.get(name) ?? Number.NaN) / anthropic);
      }
    }
    for (const { child } of processes.values()) {
      child.removeAllListeners('exit');
      child.kill();
    }
  }
  const entries = [...shown];
  console.log(
    `bench:adapters — one 512 KiB write (${write.fragments.length} pieces of 16 characters), ` +
      `adapter + assemble(), a process per adapter, ${PROCESSES} sets of processes × ` +
      `${ROUNDS} alternated rounds after ${WARMUP} untimed\n`,
  );
  console.log(
    textTable(
      [
        { title: 'adapter' },
        { title: 'chunks', align: 'right' },
        { title: 'wall (median)', align: 'right' },
        { title: 'CPU (median)', align: 'right' },
        { title: '÷ anthropic (per round)', align: 'right' },
      ],
      entries.map(([name, contestant]) => [
        contestant.title,
        String(contestant.chunks),
        `${median(wall.get(name) ?? []).toFixed(1)} ms`,
        `${median(cpu.get(name) ?? []).toFixed(1)} ms`,
        `${median(ratios.get(name) ?? []).toFixed(2)}×`,
      ]),
    ),
  );
  const goals = entries
    .filter(([name]) => name !== 'anthropic')
    .map(([name, contestant]) =>
      goal(`${contestant.title} ÷ Anthropic, paired`, median(ratios.get(name) ?? []), {
        op: '≤',
        bound: 1.3,
        unit: '×',
      }),
    );
  console.log(`\n${goalTable(goals, 'text')}`);
  console.log(
    `\n- total ${((performance.now() - began) / 1000).toFixed(0)} s; highest 1-minute load ` +
      `average ${maxLoad.toFixed(1)} (quiet: below 1).`,
  );
}
