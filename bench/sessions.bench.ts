/**
 * `npm run bench:sessions`: long sessions (issue 15). Costs that must not grow with what the
 * session has seen, each measured at three sizes in fresh Node workers (three rounds; the
 * median of the workers' figures):
 *
 * - paging: a durable log (turns, messages with text, groups of 1–6 calls, their results)
 *   loaded newest-first by `prepend` in pages of 50 with a publish after each page, against
 *   the same events pushed in one batch and published once; the two final Conversations
 *   must be equal (checked in every worker).
 * - publish: with N settled tools held, one `write` streams 64 KiB in 16-character deltas,
 *   publishing every 64 and reading the path and the size in KiB as a row does; the median
 *   time of one publication (push of 64 deltas excluded). Since 2026-12-02 03:40 UTC the three
 *   sizes share one worker: 12 timed blocks (after one untimed warm-up), each streaming one
 *   write into every size in turn, order rotating; each size's figure is the median of all
 *   its publications (~900), and goal 2's line shows the per-block ratios (10,000 ÷ 100:
 *   min–median–max) beside it. Before, each size ran in its own worker (5 writes, ~375
 *   publications): process-to-process JIT and GC differences made that ratio swing
 *   0.57–2.35× for microsecond figures; those numbers are not comparable with these. Also
 *   timed, and shown in the growth table: the first publication of each new call and the
 *   publication of its settle. Structural sharing is checked (every item but the live group
 *   is the object published before): at every publication of the warm-up block, and at the
 *   last one of each write after it (the check reads `items`, a copy of every item, whose
 *   garbage would otherwise land in the 10,000-tool samples).
 * - memory: attempts that each stream a 4 KiB `write` (256 deltas), then record their message
 *   and call and settle, against the same durable events pushed alone; retained heap with the
 *   Assembler reachable after forced GC, per attempt, beyond what the durable events need.
 *
 * - sdk: one 512 KiB write over loopback through each official SDK (bench/support/sdk-streams.ts),
 *   read four ways: iterating its stream alone, adapter + `assemble()` (goal 5), the SDK's own
 *   stream helper, and adapter + `assemble()` over the same request's raw response
 *   (`.asResponse()`, outside goal 5: it skips the SDK's SSE decoder). The four run in one
 *   worker per provider, alternated run by run (the order reversed every other round), 10
 *   timed rounds after 2 untimed ones, so the figures of a round were taken back to back under
 *   the same load; the rounds of every worker are pooled. Goal 5's ratios are medians of the
 *   per-round ratios (paired): the SDK's own SSE decoding is ~90% of every OpenAI row, so two
 *   rows' difference of a few percent is lost in the spread between separate workers (until
 *   2026-12-02 each variant ran in its own worker, and OpenAI came out 0.85–1.04× its helper
 *   from run to run), and found again when each round compares its own runs
 *   (docs/decisions/0012-goal-5-paired.md). Beside the wall times: the main-thread and
 *   every-thread CPU each variant adds to iterating alone in the same round.
 *
 * `--markdown` prints the tables as Markdown (to paste into docs/guide/benchmarks.md and bench/README.md).
 * `BENCH_ROUNDS=1` runs one worker per row instead of three. `--only sdk` runs the sdk rows
 * alone (their two tables and goal 5), e.g. `BENCH_ROUNDS=1 npm run bench:sessions -- --only sdk`;
 * `BENCH_SDK_ROUNDS` sets the timed rounds per sdk worker (default 10).
 *
 * Worker mode: `node .build/bench/sessions.bench.js --worker <scenario> <size> [<variant>]`
 * (`--worker publish 100,1000,10000`, or one size, e.g. to profile it: `--worker publish 10000`).
 */
import { availableParallelism, cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Assembler } from '../src/conversation/assembler.js';
import type { CallfoldEvent, SessionEvent } from '../src/events/types.js';
import { buildWriteArguments } from './support/content.js';
import { type Goal, goal, goalTable } from './support/goals.js';
import { printRunFooter } from './support/run-footer.js';
import {
  SDK_VARIANTS,
  type SdkPairCell,
  type SdkProvider,
  type SdkVariant,
  sdkPairs,
} from './support/sdk-streams.js';
import { projection, sessionLog, streamedWrite } from './support/session-log.js';
import { median, summarize } from './support/stats.js';
import { type Column, markdownTable, textTable } from './support/table.js';
import { runRounds, sendReport } from './support/workers.js';

/** Fresh workers per row (`BENCH_ROUNDS=1` for a quicker, noisier run). */
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3) || 3);
const PAGE = 50;
const EVENTS = [1_000, 10_000, 100_000] as const;
const TOOLS = [100, 1_000, 10_000] as const;
const ATTEMPTS = [200, 2_000] as const;
const PROVIDERS: readonly SdkProvider[] = ['anthropic', 'openai'];
/** Timed rounds per sdk worker: each round runs every variant once, back to back. */
const SDK_ROUNDS = Math.max(1, Number(process.env.BENCH_SDK_ROUNDS ?? 10) || 10);

/** Issue 15's goals. */
const GOALS = { pagingRatio: 2, publishRatio: 1.5, retainedPerAttemptKiB: 0.5, sdkAloneRatio: 1.3 };

const gc = (globalThis as { gc?: () => void }).gc;
function collect(): void {
  if (!gc) throw new Error('run with --expose-gc');
  for (let i = 0; i < 3; i++) gc();
}

interface PagingReport {
  readonly ms: number;
}

function paging(events: number, variant: string): PagingReport {
  const log = sessionLog(events);
  const reference = new Assembler({ now: () => 0 });
  reference.push(log);
  const expected = projection(reference.publish());
  collect();
  const assembler = new Assembler({ now: () => 0 });
  const start = performance.now();
  if (variant === 'batch') {
    assembler.push(log);
    assembler.publish();
  } else {
    for (let end = log.length; end > 0; end -= PAGE) {
      assembler.prepend(log.slice(Math.max(0, end - PAGE), end));
      assembler.publish();
    }
  }
  const ms = performance.now() - start;
  if (projection(assembler.publish()) !== expected) {
    throw new Error(`paging ${events} ${variant}: the Conversation differs from one push`);
  }
  return { ms };
}

interface PublishReport {
  /** Per size (same order as asked): the median of all its timed publications. */
  readonly medianMs: readonly number[];
  /** Per size: the median of the first publication of each new call, and of each settle. */
  readonly firstMs: readonly number[];
  readonly settleMs: readonly number[];
  /** Per timed block: the largest size's block median ÷ the smallest size's. */
  readonly blockRatios: readonly number[];
  /** Per size, per timed block: the median of the block's publications. */
  readonly blockMs: readonly (readonly number[])[];
  readonly publications: number;
}

/** Timed blocks per publish worker, each one 64 KiB write per size (plus one untimed warm-up). */
const PUBLISH_BLOCKS = 12;

/** `tools` settled tools (calls and results) of the session log, in log order. */
function settledLog(tools: number): SessionEvent[] {
  const log: SessionEvent[] = [];
  let size = 1_000;
  for (;;) {
    const candidate = sessionLog(size);
    const calls = candidate.filter((e) => e.type === 'tool/call').length;
    if (calls >= tools) {
      let seen = 0;
      for (const event of candidate) {
        if (event.type === 'tool/call' && ++seen > tools) break;
        if (event.type === 'tool/result' && Number(event.callId.slice(5)) >= tools) continue;
        log.push(event);
      }
      return log;
    }
    size *= 2;
  }
}

/**
 * One Assembler per size, each holding its settled tools; then blocks, each streaming one
 * 64 KiB write into every size in turn (the order rotates per block), so that the sizes share
 * the process, its JIT state and the load of the moment. Block 0 is a warm-up: untimed, and
 * every publication's sharing is checked (which reads `items`, a copy of every item); timed
 * blocks check the last publication of each write only, so that copy's garbage does not land
 * in one size's samples more than another's.
 */
function publish(sizes: readonly number[]): PublishReport {
  const write = buildWriteArguments({ kind: 'code', contentLength: 64 * 1024 });
  const states = sizes.map((tools) => {
    const log = settledLog(tools);
    const assembler = new Assembler({ now: () => 0 });
    assembler.push(log);
    const conversation = assembler.publish();
    if (conversation.tools.size !== tools) {
      throw new Error(`${conversation.tools.size} tools held`);
    }
    const seq = (log[log.length - 1] as SessionEvent).seq + 1;
    const writes = Array.from({ length: PUBLISH_BLOCKS + 1 }, (_, w) =>
      streamedWrite(`live-${w}`, `live_${w}`, write.fragments, write.text, seq + 3 * w),
    );
    return {
      assembler,
      conversation,
      writes,
      seq: seq + 3 * writes.length,
      samples: [] as number[],
      firsts: [] as number[],
      settles: [] as number[],
      blocks: [] as number[],
    };
  });
  collect();
  let publications = 0;
  for (let block = 0; block <= PUBLISH_BLOCKS; block++) {
    const timed = block > 0;
    for (let k = 0; k < states.length; k++) {
      const state = states[(k + block) % states.length] as (typeof states)[number];
      const { assembler } = state;
      const { stream, durable, settle } = state.writes[block] as ReturnType<typeof streamedWrite>;
      const callId = (stream[0] as { callId: string }).callId;
      const samples: number[] = [];
      let paths = 0;
      let sizeKiB = 0;
      for (let i = 0; i < stream.length; i += write.flushEvery) {
        assembler.push(stream.slice(i, i + write.flushEvery));
        const before = state.conversation;
        const start = performance.now();
        const conversation = assembler.publish();
        const node = conversation.tools.get(callId);
        if (node) {
          if (node.args.text('file_path') !== undefined) paths++;
          sizeKiB = Math.floor((node.args.stringLength('content', { step: 1024 }) ?? 0) / 1024);
        }
        const ms = performance.now() - start;
        state.conversation = conversation;
        if (timed && i === 0) state.firsts.push(ms);
        samples.push(ms);
        const last = i + write.flushEvery >= stream.length;
        if (!timed || last) checkSharing(before, conversation, callId);
      }
      if (paths === 0 || sizeKiB !== 64)
        throw new Error(`rows read ${paths} paths, ${sizeKiB} KiB`);
      const result: SessionEvent = { type: 'tool/result', seq: state.seq++, callId, output: 'ok' };
      assembler.push([...durable, settle, result]);
      const start = performance.now();
      state.conversation = assembler.publish();
      if (timed) {
        state.settles.push(performance.now() - start);
        state.samples.push(...samples);
        state.blocks.push(median(samples));
        publications += samples.length;
      }
    }
    if (!timed) collect();
  }
  const smallest = states[0] as (typeof states)[number];
  const largest = states[states.length - 1] as (typeof states)[number];
  return {
    medianMs: states.map((s) => median(s.samples)),
    firstMs: states.map((s) => median(s.firsts)),
    settleMs: states.map((s) => median(s.settles)),
    blockRatios: largest.blocks.map((ms, b) => ms / (smallest.blocks[b] as number)),
    blockMs: states.map((s) => s.blocks),
    publications,
  };
}

/** Every tool but the live one, and every group but the last, are the objects published before. */
function checkSharing(
  before: ReturnType<Assembler['publish']>,
  after: ReturnType<Assembler['publish']>,
  live: string,
): void {
  if (before === after) return;
  const items = after.items.length;
  for (let i = 0; i < items - 1; i++) {
    if (before.items[i] !== after.items[i] && i < before.items.length - 1) {
      throw new Error(`item ${i} of ${items} was rebuilt while only ${live} changed`);
    }
  }
}

interface MemoryReport {
  readonly retainedBytes: number;
}

function memory(attempts: number, variant: string): MemoryReport {
  const write = buildWriteArguments({ kind: 'code', contentLength: 4 * 1024 });
  const inputs: CallfoldEvent[][] = [];
  let seq = 1;
  for (let a = 0; a < attempts; a++) {
    const callId = `w_${a}`;
    const { stream, durable, settle } = streamedWrite(
      `a${a}`,
      callId,
      write.fragments,
      write.text,
      seq,
    );
    seq += 2;
    const result: SessionEvent = { type: 'tool/result', seq: seq++, callId, output: 'ok' };
    inputs.push(
      variant === 'stream' ? [...stream, ...durable, settle, result] : [...durable, result],
    );
  }
  collect();
  const baseline = process.memoryUsage().heapUsed;
  let clock = 0;
  const assembler = new Assembler({ now: () => clock++ });
  for (const events of inputs) {
    for (let i = 0; i < events.length; i += 64) {
      assembler.push(events.slice(i, i + 64));
      const conversation = assembler.publish();
      for (const node of conversation.tools.values()) {
        if (node.stage === 'preparing') node.args.stringLength('content', { step: 1024 });
      }
    }
  }
  assembler.publish();
  collect();
  const retainedBytes = process.memoryUsage().heapUsed - baseline;
  // The inputs stay reachable to the end, so that they are in the baseline and after it alike.
  if (assembler.publish().tools.size !== attempts || inputs.length !== attempts) {
    throw new Error('tools lost');
  }
  return { retainedBytes };
}

async function worker(args: readonly string[]): Promise<void> {
  const [scenario, sizeText = '', variant = ''] = args;
  const size = Number(sizeText);
  if (scenario === 'paging') sendReport(paging(size, variant));
  else if (scenario === 'publish') sendReport(publish(sizeText.split(',').map(Number)));
  else if (scenario === 'memory') sendReport(memory(size, variant));
  else if (scenario === 'sdk') {
    sendReport({ cells: await sdkPairs(sizeText as SdkProvider, SDK_VARIANTS, SDK_ROUNDS) });
  } else throw new Error(`unknown scenario ${scenario}`);
}

const fmt = (n: number, digits = 1) => n.toFixed(digits);
const ratio = (n: number) => `${n.toFixed(2)}×`;
/** Min–median–max of per-block ratios. */
const spread = (ratios: readonly number[]) => {
  const { min, median: mid, max } = summarize(ratios);
  return `${min.toFixed(2)}–${mid.toFixed(2)}–${max.toFixed(2)}×, n=${ratios.length}`;
};

async function main(): Promise<void> {
  const script = fileURLToPath(import.meta.url);
  const job = (label: string, ...args: string[]) => ({
    label,
    run: { script, args: ['--worker', ...args], timeoutMs: 600_000 },
  });
  const sdkOnly = only() === 'sdk';
  const sdkJobs = PROVIDERS.map((provider) =>
    job(
      `sdk ${provider}: ${SDK_ROUNDS} alternated rounds of ${SDK_VARIANTS.join(', ')}`,
      'sdk',
      provider,
    ),
  );
  const jobs = [
    ...(sdkOnly ? [] : EVENTS).flatMap((n) => [
      job(`paging ${n} batch`, 'paging', String(n), 'batch'),
      job(`paging ${n} pages`, 'paging', String(n), 'pages'),
    ]),
    ...(sdkOnly
      ? []
      : [job(`publish with ${TOOLS.join(' / ')} tools`, 'publish', TOOLS.join(','))]),
    ...(sdkOnly ? [] : ATTEMPTS).flatMap((n) => [
      job(`memory ${n} attempts streamed`, 'memory', String(n), 'stream'),
      job(`memory ${n} attempts durable only`, 'memory', String(n), 'durable'),
    ]),
    ...sdkJobs,
  ];
  const started = performance.now();
  const { reports, maxLoad } = await runRounds<Record<string, unknown>>(jobs, ROUNDS);
  const reportsOf = (label: string) => reports[jobs.findIndex((j) => j.label === label)] ?? [];
  const figure = (label: string, key: string) =>
    median(reportsOf(label).map((r) => r[key] as number));
  const publishReports = reportsOf(`publish with ${TOOLS.join(' / ')} tools`);
  /** Goal 2's figures: per size, the median over workers of each worker's median. */
  const publishFigure = (key: 'medianMs' | 'firstMs' | 'settleMs', n: number) =>
    median(publishReports.map((r) => (r[key] as number[])[TOOLS.indexOf(n as never)] as number));
  const blockRatios = publishReports.flatMap((r) => r.blockRatios as number[]);

  const columns: Column[] = [
    { title: 'figure' },
    { title: 'size', align: 'right' },
    { title: 'median', align: 'right' },
    { title: '÷ smallest', align: 'right' },
  ];
  const rows: string[][] = [];
  const growth = (
    title: string,
    sizes: readonly number[],
    value: (n: number) => number,
    unit: string,
    digits = 1,
  ) => {
    const first = value(sizes[0] as number);
    for (const n of sizes) {
      const v = value(n);
      rows.push([title, n.toLocaleString('en-US'), `${fmt(v, digits)} ${unit}`, ratio(v / first)]);
    }
  };
  const batch = (n: number) => figure(`paging ${n} batch`, 'ms');
  const pages = (n: number) => figure(`paging ${n} pages`, 'ms');
  const perPublish = (n: number) => publishFigure('medianMs', n);
  const perAttempt = (n: number) =>
    (figure(`memory ${n} attempts streamed`, 'retainedBytes') -
      figure(`memory ${n} attempts durable only`, 'retainedBytes')) /
    n /
    1024;
  growth('events pushed in one batch, then one publish', EVENTS, batch, 'ms', 0);
  growth(
    `events prepended newest-first in pages of ${PAGE}, a publish per page`,
    EVENTS,
    pages,
    'ms',
    0,
  );
  growth('one publication while a write streams, N settled tools', TOOLS, perPublish, 'ms', 3);
  growth(
    'the first publication of a new call, N settled tools',
    TOOLS,
    (n) => publishFigure('firstMs', n),
    'ms',
    3,
  );
  growth(
    'the publication of its settle (durable call, result), N settled tools',
    TOOLS,
    (n) => publishFigure('settleMs', n),
    'ms',
    3,
  );
  growth('retained per settled attempt beyond its durable events', ATTEMPTS, perAttempt, 'KiB', 2);

  const largest = EVENTS[EVENTS.length - 1] as number;
  const pagingRatio = pages(largest) / batch(largest);
  const publishRatio = perPublish(TOOLS[TOOLS.length - 1] as number) / perPublish(TOOLS[0]);
  const retained = perAttempt(2_000);
  const pooledSdk = new Map<SdkProvider, Map<SdkVariant, SdkPairCell>>();
  for (const provider of PROVIDERS) {
    const label = jobs.find((j) => j.label.startsWith(`sdk ${provider}:`))?.label ?? '';
    const pooled = new Map<SdkVariant, SdkPairCell>();
    for (const report of reportsOf(label)) {
      for (const cell of report.cells as SdkPairCell[]) {
        const into = pooled.get(cell.variant) ?? {
          variant: cell.variant,
          wallMs: [],
          mainMs: [],
          cpuMs: [],
          gcMs: [],
        };
        for (const key of ['wallMs', 'mainMs', 'cpuMs', 'gcMs'] as const)
          into[key].push(...cell[key]);
        pooled.set(cell.variant, into);
      }
    }
    pooledSdk.set(provider, pooled);
  }
  /** Every timed round of a provider's sdk workers, pooled (in order): per variant, its figures. */
  const sdkCells = (provider: SdkProvider) => (variant: SdkVariant) =>
    pooledSdk.get(provider)?.get(variant) as SdkPairCell;
  type Series = 'wallMs' | 'mainMs' | 'cpuMs';
  const sdk = (provider: SdkProvider, variant: SdkVariant, key: Series = 'wallMs') =>
    median(sdkCells(provider)(variant)[key]);
  /** Per round: `variant`'s figure ÷ `by`'s, taken back to back. */
  const roundRatios = (provider: SdkProvider, variant: SdkVariant, by: SdkVariant) => {
    const cells = sdkCells(provider);
    const of = cells(by).wallMs;
    return cells(variant).wallMs.map((ms, i) => ms / (of[i] as number));
  };
  /** The median over rounds of what `variant` adds to iterating alone in the same round. */
  const added = (provider: SdkProvider, variant: SdkVariant, key: Series) => {
    const cells = sdkCells(provider);
    const alone = cells('iterate')[key];
    return median(cells(variant)[key].map((ms, i) => ms - (alone[i] as number)));
  };
  const providerTitle = (provider: SdkProvider) =>
    provider === 'anthropic'
      ? 'Anthropic Messages (helper: messages.stream().finalMessage())'
      : 'OpenAI Chat Completions (helper: chat.completions.stream().finalChatCompletion())';
  const sdkColumns: Column[] = [
    { title: '512 KiB write over loopback, wall' },
    { title: 'SDK stream alone', align: 'right' },
    { title: 'adapter + assemble()', align: 'right' },
    { title: 'SDK stream helper', align: 'right' },
    { title: '÷ stream alone', align: 'right' },
    { title: '÷ helper', align: 'right' },
    { title: 'faster than the helper', align: 'right' },
    { title: 'adapter + assemble() over `.asResponse()`', align: 'right' },
  ];
  const sdkRows = PROVIDERS.map((provider) => {
    const byHelper = roundRatios(provider, 'callfold', 'helper');
    return [
      providerTitle(provider),
      `${fmt(sdk(provider, 'iterate'), 0)} ms`,
      `${fmt(sdk(provider, 'callfold'), 0)} ms`,
      `${fmt(sdk(provider, 'helper'), 0)} ms`,
      ratio(median(roundRatios(provider, 'callfold', 'iterate'))),
      ratio(median(byHelper)),
      `${byHelper.filter((r) => r < 1).length} of ${byHelper.length} rounds`,
      `${fmt(sdk(provider, 'response'), 0)} ms`,
    ];
  });
  const cpuColumns: Column[] = [
    { title: 'added to iterating alone, same round (median)' },
    { title: 'adapter + assemble(): main thread', align: 'right' },
    { title: 'every thread', align: 'right' },
    { title: 'SDK stream helper: main thread', align: 'right' },
    { title: 'every thread', align: 'right' },
  ];
  const signed = (n: number) => `${n >= 0 ? '+' : '−'}${fmt(Math.abs(n))} ms`;
  const cpuRows = PROVIDERS.map((provider) => [
    provider === 'anthropic' ? 'Anthropic Messages, CPU' : 'OpenAI Chat Completions, CPU',
    signed(added(provider, 'callfold', 'mainMs')),
    signed(added(provider, 'callfold', 'cpuMs')),
    signed(added(provider, 'helper', 'mainMs')),
    signed(added(provider, 'helper', 'cpuMs')),
  ]);
  const aloneRatios = PROVIDERS.map((p) => median(roundRatios(p, 'callfold', 'iterate')));
  const sdkWorst = Math.max(...aloneRatios);
  const worstProvider = PROVIDERS[aloneRatios.indexOf(sdkWorst)] ?? '';
  const helperRounds = PROVIDERS.map((p) => roundRatios(p, 'callfold', 'helper'));
  const goals: Goal[] = [
    goal(`1. ${largest.toLocaleString('en-US')} events paged ÷ one batch`, pagingRatio, {
      op: '≤',
      bound: GOALS.pagingRatio,
      unit: '×',
    }),
    goal(
      `2. per-publish time, 10,000 tools ÷ 100 tools (blocks ${spread(blockRatios)})`,
      publishRatio,
      { op: '≤', bound: GOALS.publishRatio, unit: '×' },
    ),
    goal('3. retained per settled attempt (2,000 attempts)', retained, {
      op: '≤',
      bound: GOALS.retainedPerAttemptKiB,
      unit: ' KiB',
    }),
    goal(
      `5. adapter + assemble() ÷ SDK stream alone, paired by round (worst: ${worstProvider})`,
      sdkWorst,
      { op: '≤', bound: GOALS.sdkAloneRatio, unit: '×' },
    ),
    ...PROVIDERS.map((provider, i) => {
      const rounds = helperRounds[i] as number[];
      const faster = rounds.filter((r) => r < 1).length;
      return goal(
        `5. adapter + assemble() ÷ the ${provider} SDK helper, paired by round (faster in ${faster} of ${rounds.length})`,
        median(rounds),
        { op: '<', bound: 1, unit: '×' },
      );
    }),
  ];
  const markdown = process.argv.includes('--markdown');
  const table = markdown ? markdownTable : textTable;
  console.log(
    `\nLong sessions — Node ${process.version}, ${cpus()[0]?.model ?? 'unknown CPU'}, ${availableParallelism()} cores`,
  );
  if (!sdkOnly) console.log(`\n${table(columns, rows)}\n`);
  console.log(`${sdkOnly ? '\n' : ''}${table(sdkColumns, sdkRows)}\n`);
  console.log(`${table(cpuColumns, cpuRows)}\n`);
  console.log(
    goalTable(
      sdkOnly ? goals.filter((g) => g.goal.startsWith('5.')) : goals,
      markdown ? 'markdown' : 'text',
    ),
  );
  console.log('');
  console.log(`- ${ROUNDS} rounds of one fresh worker per row; medians of the workers' figures.`);
  console.log(
    `- sdk: one worker per provider per round, ${SDK_ROUNDS} timed rounds each (the variants alternated, back to back), pooled; ratios are medians of per-round ratios.`,
  );
  console.log(
    '- memory: process.memoryUsage().heapUsed after forced GC, Assembler reachable, inputs built before the baseline.',
  );
  printRunFooter(ROUNDS, (performance.now() - started) / 1000, maxLoad);
}

/** `--only <scenario>`: the one scenario to run (only `sdk` is supported). */
function only(): string | undefined {
  const at = process.argv.indexOf('--only');
  if (at < 0) return undefined;
  const scenario = process.argv[at + 1];
  if (scenario !== 'sdk') throw new Error(`--only: expected sdk, got ${scenario ?? 'nothing'}`);
  return scenario;
}

const workerAt = process.argv.indexOf('--worker');
if (workerAt >= 0) await worker(process.argv.slice(workerAt + 1));
else await main();
