/**
 * `npm run bench:arguments`: PartialArguments against its peers on one streamed `write`.
 *
 * 512 KiB (and 1 MiB) of decoded `content`, `file_path` first, arrive in 16-character
 * fragments; every 64 fragments each reader answers the path and the content length
 * (callfold: `stringLength('content', { step: 1024 })`). Prose content has few escapes;
 * code-like content is dense with them. Each (scenario, reader) pair runs in three fresh
 * Node workers that build their inputs first, warm up, force GC before every sample, and
 * check every run's answers. The ratios the goals name (against the floor, 1 MiB over
 * 512 KiB) are measured apart, in workers that interleave their two sides sample by sample.
 * Results: bench/results/arguments.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PartialArguments } from '../src/arguments/partial-arguments.js';
import { allocationMethod } from './support/allocation.js';
import { buildWriteArguments, type ContentKind, type WriteArguments } from './support/content.js';
import {
  measure,
  measurePaired,
  type PairedReport,
  type SamplePlan,
  type Subject,
  type WorkerReport,
} from './support/measure.js';
import {
  asyncFloor,
  checkReadings,
  emptyReadings,
  type FlushPlan,
  floor,
  jsonriver,
  type PartialLengths,
  type Peer,
  type PeerOutcome,
  partialJson,
  streamparserComplete,
  streamparserPartial,
} from './support/peers.js';
import { printRunFooter } from './support/run-footer.js';
import { MiB, type Summary, summarize } from './support/stats.js';
import { type Column, markdownTable, textTable } from './support/table.js';
import { runRounds, sendReport } from './support/workers.js';

const WORKERS = 3;
const STEP = 1024;
/** Plans keep the whole run within about four minutes on two cores. */
const FULL: SamplePlan = {
  warmup: 10,
  warmupMs: 500,
  samples: 20,
  allocationSamples: 0,
  retainedSamples: 3,
};
/** Peers taking 50–250 ms a run. */
const PEER: SamplePlan = {
  warmup: 2,
  warmupMs: 500,
  samples: 10,
  allocationSamples: 0,
  retainedSamples: 2,
};
/** partial-json is quadratic (seconds a run): its first run is long enough to warm up. */
const QUADRATIC: SamplePlan = {
  warmup: 0,
  warmupMs: 0,
  samples: 2,
  allocationSamples: 0,
  retainedSamples: 1,
};

interface Scenario {
  readonly id: string;
  readonly kind: ContentKind;
  readonly contentLength: number;
}

const SCENARIOS: readonly Scenario[] = [
  { id: 'prose-512k', kind: 'prose', contentLength: 512 * 1024 },
  { id: 'code-512k', kind: 'code', contentLength: 512 * 1024 },
  { id: 'prose-1m', kind: 'prose', contentLength: 1024 * 1024 },
  { id: 'code-1m', kind: 'code', contentLength: 1024 * 1024 },
];

interface Contestant {
  readonly name: string;
  readonly note: string;
  readonly partial: PartialLengths | { readonly step: number };
  readonly plan: SamplePlan;
  /** Scenario ids it runs in; all when absent. */
  readonly only?: readonly string[];
  run(input: Input): PeerOutcome | Promise<PeerOutcome>;
}

interface Input {
  readonly args: WriteArguments;
  readonly plan: FlushPlan;
}

const callfold: Contestant = {
  name: 'callfold',
  note: "append; per flush text('file_path'), stringLength('content', {step: 1024}), refresh(); seal(text) at the end",
  partial: { step: STEP },
  plan: FULL,
  run({ args: { text }, plan }) {
    const readings = emptyReadings(plan);
    const { fragments, flushEvery } = plan;
    const step = { step: STEP };
    const reader = PartialArguments.streaming();
    for (let i = 0; i < fragments.length; i++) {
      reader.append(fragments[i]!);
      if ((i + 1) % flushEvery === 0) {
        const flush = (i + 1) / flushEvery - 1;
        readings.texts[flush] = reader.text('file_path');
        readings.lengths[flush] = reader.stringLength('content', step) ?? -1;
        reader.refresh();
      }
    }
    const sealed = reader.seal(text);
    readings.finalText = sealed.text('file_path');
    readings.finalLength = sealed.stringLength('content') ?? -1;
    return { readings, held: sealed };
  },
};

const FIVE_HUNDRED_TWELVE = ['prose-512k', 'code-512k'];

function fromPeer(peer: Peer, plan: SamplePlan, only?: readonly string[]): Contestant {
  return {
    name: peer.name,
    note: peer.note,
    partial: peer.partialLengths,
    plan,
    ...(only === undefined ? {} : { only }),
    run: ({ plan: flushes }) => peer.run(flushes),
  };
}

const CONTESTANTS: readonly Contestant[] = [
  callfold,
  fromPeer(jsonriver, PEER),
  fromPeer(partialJson, QUADRATIC, FIVE_HUNDRED_TWELVE),
  fromPeer(streamparserPartial, PEER, FIVE_HUNDRED_TWELVE),
  fromPeer(streamparserComplete, PEER, FIVE_HUNDRED_TWELVE),
  fromPeer(floor, FULL),
  fromPeer(asyncFloor, FULL, FIVE_HUNDRED_TWELVE),
];

function scenario(id: string): Scenario {
  const found = SCENARIOS.find((s) => s.id === id);
  if (found === undefined) throw new Error(`unknown scenario ${id}`);
  return found;
}

function contestant(name: string): Contestant {
  const found = CONTESTANTS.find((c) => c.name === name);
  if (found === undefined) throw new Error(`unknown contestant ${name}`);
  return found;
}

function buildInput(s: Scenario): Input {
  const args = buildWriteArguments({ kind: s.kind, contentLength: s.contentLength });
  return {
    args,
    plan: {
      fragments: args.fragments,
      flushEvery: args.flushEvery,
      textKey: 'file_path',
      lengthKey: 'content',
    },
  };
}

function subject(s: Scenario, c: Contestant): Subject<Input, PeerOutcome> {
  return {
    build: () => buildInput(s),
    run: (input) => c.run(input),
    check: ({ args }, { readings }) =>
      checkReadings(`${c.name} on ${s.id}`, readings, {
        text: args.path,
        length: args.content.length,
        lengths: args.expectedLengths,
        fragmentSize: args.fragmentSize,
        partial: c.partial,
      }),
  };
}

async function worker(scenarioId: string, name: string): Promise<void> {
  const c = contestant(name);
  sendReport(await measure(subject(scenario(scenarioId), c), c.plan));
}

/** One side of a ratio: a contestant on a scenario. */
interface Side {
  readonly scenario: string;
  readonly contestant: string;
}

/**
 * A ratio between two (scenario, contestant) pairs, measured in the same workers with the two
 * sides interleaved sample by sample (see `measurePaired`): rows in separate workers run
 * minutes apart, and on two shared cores their medians drift by up to 1.5× on their own.
 */
interface Pairing {
  readonly id: string;
  readonly top: Side;
  readonly bottom: Side;
}

const side = (scenario: string, contestant: string): Side => ({ scenario, contestant });

const PAIRINGS: readonly Pairing[] = [
  ...['prose', 'code'].map((kind) => ({
    id: `floor-${kind}`,
    top: side(`${kind}-512k`, 'callfold'),
    bottom: side(`${kind}-512k`, 'floor'),
  })),
  ...['prose', 'code'].flatMap((kind) =>
    ['callfold', 'floor', 'jsonriver'].map((name) => ({
      id: `growth-${kind}-${name}`,
      top: side(`${kind}-1m`, name),
      bottom: side(`${kind}-512k`, name),
    })),
  ),
];

function pairing(id: string): Pairing {
  const found = PAIRINGS.find((p) => p.id === id);
  if (found === undefined) throw new Error(`unknown pairing ${id}`);
  return found;
}

async function pairedWorker(id: string): Promise<void> {
  const { top, bottom } = pairing(id);
  const sides = [bottom, top].map((s) => ({
    s: scenario(s.scenario),
    c: contestant(s.contestant),
  }));
  // The longer plan of the two, so a cheap side gets as many samples as it would alone.
  const plan = sides.map(({ c }) => c.plan).reduce((a, b) => (a.samples >= b.samples ? a : b));
  sendReport(
    await measurePaired(
      sides.map(({ s, c }) => subject(s, c)),
      plan,
    ),
  );
}

interface Ratio {
  readonly id: string;
  readonly top: Side;
  readonly bottom: Side;
  readonly topTime: Summary;
  readonly bottomTime: Summary;
  /** Median of the top side's samples over the bottom side's, all workers pooled. */
  readonly ratio: number;
  readonly reports: readonly PairedReport[];
}

interface Result {
  readonly scenario: string;
  readonly contestant: string;
  readonly note: string;
  readonly plan: SamplePlan;
  readonly time: Summary;
  readonly allocated: Summary;
  readonly retainedBytes: number;
  readonly retainedPerChar: number;
  /** What the reader adds while its inputs (fragments, full text) are still held elsewhere. */
  readonly retainedOverInputsBytes: number;
  readonly inputsRssBytes: number;
  readonly peakRssBytes: number;
  readonly reports: readonly WorkerReport[];
}

interface ScenarioFacts {
  readonly id: string;
  readonly kind: ContentKind;
  readonly contentLength: number;
  readonly textLength: number;
  readonly fragments: number;
  readonly flushes: number;
  readonly escapedCharacters: number;
}

const mib = (bytes: number) => (bytes / MiB).toFixed(1);
const ms = (value: number) => (value >= 100 ? value.toFixed(0) : value.toFixed(1));

async function parent(): Promise<void> {
  const script = fileURLToPath(import.meta.url);
  const started = performance.now();
  const facts: ScenarioFacts[] = [];
  const results: Result[] = [];
  console.log(
    `bench:arguments — Node ${process.version}, ${WORKERS} fresh workers per row, one at a time, in rounds`,
  );
  const rows: { s: Scenario; c: Contestant; fact: ScenarioFacts }[] = [];
  for (const s of SCENARIOS) {
    const { args } = buildInput(s);
    const fact: ScenarioFacts = {
      id: s.id,
      kind: s.kind,
      contentLength: args.content.length,
      textLength: args.text.length,
      fragments: args.fragments.length,
      flushes: args.expectedLengths.length,
      escapedCharacters: args.escapedCharacters,
    };
    facts.push(fact);
    for (const c of CONTESTANTS) {
      if (c.only === undefined || c.only.includes(s.id)) rows.push({ s, c, fact });
    }
  }
  const single = await runRounds<WorkerReport>(
    rows.map(({ s, c }) => ({
      label: `${s.id} · ${c.name}`,
      run: { script, args: ['--worker', s.id, c.name] },
    })),
    WORKERS,
  );
  const paired = await runRounds<PairedReport>(
    PAIRINGS.map((p) => ({
      label: `${p.top.scenario} ${p.top.contestant} ⇄ ${p.bottom.scenario} ${p.bottom.contestant}`,
      run: { script, args: ['--paired', p.id] },
    })),
    WORKERS,
  );
  const maxLoad = Math.max(single.maxLoad, paired.maxLoad);
  const ratios: Ratio[] = PAIRINGS.map((p, i) => {
    const reports = paired.reports[i] ?? [];
    const bottomTime = summarize(reports.flatMap((r) => r.timesMs[0] ?? []));
    const topTime = summarize(reports.flatMap((r) => r.timesMs[1] ?? []));
    return { ...p, topTime, bottomTime, ratio: topTime.median / bottomTime.median, reports };
  });
  const pairedRatio = (id: string) => ratios.find((r) => r.id === id)?.ratio ?? Number.NaN;

  for (const [i, { s, c, fact }] of rows.entries()) {
    const reports = single.reports[i] ?? [];
    const retainedBytes = summarize(reports.map((r) => r.retainedBytes)).median;
    results.push({
      scenario: s.id,
      contestant: c.name,
      note: c.note,
      plan: c.plan,
      time: summarize(reports.flatMap((r) => r.timesMs)),
      allocated: summarize(reports.flatMap((r) => r.allocatedBytes)),
      retainedBytes,
      retainedPerChar: retainedBytes / fact.textLength,
      retainedOverInputsBytes: summarize(reports.flatMap((r) => r.retainedOverInputsSamples))
        .median,
      inputsRssBytes: summarize(reports.map((r) => r.inputsRssBytes)).median,
      peakRssBytes: summarize(reports.map((r) => r.peakRssBytes)).median,
      reports,
    });
  }
  const elapsed = (performance.now() - started) / 1000;

  const columns: Column[] = [
    { title: 'reader' },
    { title: 'median ms', align: 'right' },
    { title: 'p25–p75 ms', align: 'right' },
    { title: 'n', align: 'right' },
    { title: 'alloc MiB', align: 'right' },
    { title: 'retained MiB', align: 'right' },
    { title: 'B/char', align: 'right' },
    { title: 'over inputs MiB', align: 'right' },
    { title: 'peak RSS MiB', align: 'right' },
    { title: '× callfold', align: 'right' },
  ];
  const rowsFor = (id: string) => {
    const base = results.find((r) => r.scenario === id && r.contestant === 'callfold');
    return results
      .filter((r) => r.scenario === id)
      .map((r) => [
        r.contestant,
        ms(r.time.median),
        `${ms(r.time.p25)}–${ms(r.time.p75)}`,
        String(r.time.n),
        mib(r.allocated.median),
        mib(r.retainedBytes),
        r.retainedPerChar.toFixed(2),
        mib(r.retainedOverInputsBytes),
        mib(r.peakRssBytes),
        base === undefined ? '' : (r.time.median / base.time.median).toFixed(2),
      ]);
  };

  for (const fact of facts) {
    const inputsRss = results.find((r) => r.scenario === fact.id)?.inputsRssBytes ?? 0;
    console.log(
      `\n## ${fact.id}: ${fact.contentLength.toLocaleString('en')} content chars ` +
        `(${fact.escapedCharacters.toLocaleString('en')} escaped), ` +
        `${fact.textLength.toLocaleString('en')} argument chars, ` +
        `${fact.fragments.toLocaleString('en')} fragments (16 chars, never splitting a surrogate pair), ${fact.flushes} flushes; ` +
        `inputs alone peak at ${mib(inputsRss)} MiB RSS`,
    );
    console.log(textTable(columns, rowsFor(fact.id)));
  }

  const time = (id: string, name: string) =>
    results.find((r) => r.scenario === id && r.contestant === name)?.time.median ?? Number.NaN;
  const ratio = (id: string, name: string, over: string, overName = name) =>
    time(id, name) / time(over, overName);
  // The goals of issue 2: docs/decisions/0003-benchmark-goals.md; the retained goal on
  // code-like content: docs/decisions/0004-retained-bytes-on-code-like-content.md.
  const goals: Goal[] = [
    goal(
      '≥ 2× faster than jsonriver, prose',
      ratio('prose-512k', 'jsonriver', 'prose-512k', 'callfold'),
      '≥',
      2,
      '×',
    ),
    goal(
      '≥ 3× faster than jsonriver, code-like',
      ratio('code-512k', 'jsonriver', 'code-512k', 'callfold'),
      '≥',
      3,
      '×',
    ),
    goal('≤ 1.5× the floor, prose', pairedRatio('floor-prose'), '≤', 1.5, '×'),
    goal('≤ 1.5× the floor, code-like', pairedRatio('floor-code'), '≤', 1.5, '×'),
    goal('1 MiB ≤ 2.3× 512 KiB, prose', pairedRatio('growth-prose-callfold'), '≤', 2.3, '×'),
    goal('1 MiB ≤ 2.3× 512 KiB, code-like', pairedRatio('growth-code-callfold'), '≤', 2.3, '×'),
    ...SCENARIOS.map((s) => {
      const retained = results.find((r) => r.scenario === s.id && r.contestant === 'callfold');
      return goal(
        `retained ≤ 2 B/argument char, ${s.id}`,
        retained?.retainedPerChar ?? Number.NaN,
        '≤',
        2,
        ' B/char',
      );
    }),
  ];
  console.log('\n## Goals (callfold)');
  console.log(
    textTable(
      [{ title: 'goal' }, { title: 'measured', align: 'right' }, { title: 'status' }],
      goals.map((g) => [g.goal, g.measured, g.met ? 'met' : 'NOT MET']),
    ),
  );
  console.log(
    'The floor and growth ratios come from the paired workers below, not from the rows above, ' +
      'whose medians were taken minutes apart.',
  );

  console.log('\n## Ratios measured in the same workers, the two sides interleaved');
  const ratioColumns: Column[] = [
    { title: 'ratio' },
    { title: 'top ms', align: 'right' },
    { title: 'bottom ms', align: 'right' },
    { title: 'n each', align: 'right' },
    { title: 'top / bottom', align: 'right' },
  ];
  const ratioRows = ratios.map((r) => [
    `${r.top.contestant} ${r.top.scenario} / ${r.bottom.contestant} ${r.bottom.scenario}`,
    ms(r.topTime.median),
    ms(r.bottomTime.median),
    String(r.topTime.n),
    `${r.ratio.toFixed(2)}×`,
  ]);
  console.log(textTable(ratioColumns, ratioRows));

  console.log('\n## Notes');
  for (const c of CONTESTANTS) {
    const where = c.only === undefined ? 'all scenarios' : c.only.join(', ');
    console.log(
      `- ${c.name}: ${c.note}. ${WORKERS} workers × (≥ ${c.plan.warmup} warm-up runs and ≥ ${c.plan.warmupMs} ms, ` +
        `${c.plan.samples} timed, ${c.plan.allocationSamples + c.plan.retainedSamples} allocation ` +
        `and ${c.plan.retainedSamples} retained-heap runs); ${where}.`,
    );
  }
  console.log(
    '- partial-json is quadratic (seconds a run), so it gets only ' +
      `${QUADRATIC.samples} timed samples per worker and runs at 512 KiB only; ` +
      '@streamparser/json and the async floor also run at 512 KiB only, to keep the run short.',
  );
  console.log(
    `- time: wall clock (performance.now) of the whole run incl. the end-of-stream read; GC forced before each sample, outside timing.`,
  );
  console.log(`- alloc: median cumulative allocation per run, ${allocationMethod}.`);
  console.log(
    '- over inputs: the same retained-heap runs measured while the inputs are still reachable — what the reader adds ' +
      'when someone else keeps the text, as the Assembler keeps the durable event whose text a sealed reader shares.',
  );
  console.log(
    '- retained: V8 heap still used, after full GC, by what the reader keeps (fragments or text it holds included) ' +
      'over the heap before its inputs were built; median of the retained-heap runs (a single run can be off by up to ' +
      '~250 KiB when V8 drops internal caches); B/char is per argument character. A text with any character ' +
      'beyond U+00FF is stored by V8 at 2 bytes per character, so for code-like content one copy of the argument ' +
      'text is itself 2.00 B/char.',
  );
  printRunFooter(WORKERS, elapsed, maxLoad);

  console.log('\n## Markdown (README)\n');
  const mdColumns: Column[] = [
    { title: 'scenario' },
    ...columns.filter((c) => c.title !== 'n' && c.title !== 'p25–p75 ms'),
  ];
  const mdRows = facts.flatMap((fact) =>
    rowsFor(fact.id).map((row) => [fact.id, ...row.filter((_, i) => i !== 2 && i !== 3)]),
  );
  console.log(markdownTable(mdColumns, mdRows));
  console.log(`\n${markdownTable(ratioColumns, ratioRows)}`);

  const out = fileURLToPath(new URL('../../bench/results/arguments.json', import.meta.url));
  mkdirSync(fileURLToPath(new URL('../../bench/results/', import.meta.url)), { recursive: true });
  writeFileSync(
    out,
    JSON.stringify(
      {
        node: process.version,
        date: new Date().toISOString(),
        maxLoad,
        allocationMethod,
        scenarios: facts,
        goals,
        results,
        ratios,
      },
      null,
      2,
    ),
  );
  console.log(`\nFull results: ${out}`);
}

interface Goal {
  readonly goal: string;
  readonly value: number;
  readonly measured: string;
  readonly met: boolean;
}

function goal(name: string, value: number, op: '≥' | '≤', bound: number, unit: string): Goal {
  const met = op === '≥' ? value >= bound : value <= bound;
  return { goal: name, value, measured: `${value.toFixed(2)}${unit} (${op} ${bound})`, met };
}

if (process.argv[2] === '--worker') {
  await worker(process.argv[3] ?? '', process.argv[4] ?? '');
} else if (process.argv[2] === '--paired') {
  await pairedWorker(process.argv[3] ?? '');
} else {
  await parent();
}
