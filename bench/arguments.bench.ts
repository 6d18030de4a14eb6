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
 * The lists below (scenarios, contestants, pairings, goals) are the benchmark;
 * support/suite.ts runs them and support/report.ts prints the report.
 * Results: bench/results/arguments.json.
 */
import { PartialArguments } from '../src/arguments/partial-arguments.js';
import { allocationMethod } from './support/allocation.js';
import { buildWriteArguments, type ContentKind, type WriteArguments } from './support/content.js';
import { goal } from './support/goals.js';
import type { SamplePlan, Subject } from './support/measure.js';
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
import { columns, count, mib } from './support/report.js';
import {
  type Pairing,
  runSuite,
  type Side,
  type SuiteContestant,
  type SuiteScenario,
} from './support/suite.js';

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

interface Scenario extends SuiteScenario {
  readonly kind: ContentKind;
  readonly contentLength: number;
}

const SCENARIOS: readonly Scenario[] = [
  { id: 'prose-512k', kind: 'prose', contentLength: 512 * 1024 },
  { id: 'code-512k', kind: 'code', contentLength: 512 * 1024 },
  { id: 'prose-1m', kind: 'prose', contentLength: 1024 * 1024 },
  { id: 'code-1m', kind: 'code', contentLength: 1024 * 1024 },
];

interface Contestant extends SuiteContestant {
  readonly partial: PartialLengths | { readonly step: number };
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

function fromPeer(peer: Peer, plan: SamplePlan, scenarios?: readonly string[]): Contestant {
  return {
    name: peer.name,
    note: peer.note,
    partial: peer.partialLengths,
    plan,
    ...(scenarios === undefined ? {} : { scenarios }),
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

interface ScenarioFacts {
  readonly id: string;
  readonly kind: ContentKind;
  readonly contentLength: number;
  readonly textLength: number;
  readonly fragments: number;
  readonly flushes: number;
  readonly escapedCharacters: number;
}

const factsCache = new Map<Scenario, ScenarioFacts>();

/** Figures of a scenario's input; built once, for its heading and its retained goal. */
function factsOf(s: Scenario): ScenarioFacts {
  const cached = factsCache.get(s);
  if (cached !== undefined) return cached;
  const { args } = buildInput(s);
  const facts: ScenarioFacts = {
    id: s.id,
    kind: s.kind,
    contentLength: args.content.length,
    textLength: args.text.length,
    fragments: args.fragments.length,
    flushes: args.expectedLengths.length,
    escapedCharacters: args.escapedCharacters,
  };
  factsCache.set(s, facts);
  return facts;
}

/** What the reader keeps alive per argument character (its text included). */
const perChar = (retainedBytes: number, facts: ScenarioFacts) => retainedBytes / facts.textLength;

await runSuite<Scenario, Contestant, Input, PeerOutcome, ScenarioFacts>({
  name: 'arguments',
  script: import.meta.url,
  workers: WORKERS,
  scenarios: SCENARIOS,
  contestants: CONTESTANTS,
  baseline: 'callfold',
  subject,
  pairings: PAIRINGS,
  facts: factsOf,
  heading: (f, rows) =>
    `${f.id}: ${count(f.contentLength)} content chars ` +
    `(${count(f.escapedCharacters)} escaped), ` +
    `${count(f.textLength)} argument chars, ` +
    `${count(f.fragments)} fragments (16 chars, never splitting a surrogate pair), ${f.flushes} flushes; ` +
    `inputs alone peak at ${mib(rows[0]?.inputsRssBytes ?? 0, 1)} MiB RSS`,
  columns: [
    columns.contestant('reader'),
    columns.median(),
    columns.quartiles(false),
    columns.samples(),
    columns.mib('alloc MiB', (r) => r.allocated.median, 1),
    columns.mib('retained MiB', (r) => r.retainedBytes, 1),
    {
      title: 'B/char',
      align: 'right',
      cell: (r, { facts }) => perChar(r.retainedBytes, facts).toFixed(2),
    },
    columns.mib('over inputs MiB', (r) => r.retainedOverInputsBytes, 1),
    columns.mib('peak RSS MiB', (r) => r.peakRssBytes, 1),
    columns.timesBaseline('callfold'),
  ],
  goalsTitle: '(callfold)',
  // The goals of issue 2: docs/decisions/0003-benchmark-goals.md; the retained goal on
  // code-like content: docs/decisions/0004-retained-bytes-on-code-like-content.md.
  goals: (o) => [
    goal(
      '≥ 2× faster than jsonriver, prose',
      o.time('prose-512k', 'jsonriver') / o.time('prose-512k'),
      { op: '≥', bound: 2, unit: '×' },
    ),
    goal(
      '≥ 3× faster than jsonriver, code-like',
      o.time('code-512k', 'jsonriver') / o.time('code-512k'),
      { op: '≥', bound: 3, unit: '×' },
    ),
    goal('≤ 1.5× the floor, prose', o.ratio('floor-prose'), { op: '≤', bound: 1.5, unit: '×' }),
    goal('≤ 1.5× the floor, code-like', o.ratio('floor-code'), { op: '≤', bound: 1.5, unit: '×' }),
    goal('1 MiB ≤ 2.3× 512 KiB, prose', o.ratio('growth-prose-callfold'), {
      op: '≤',
      bound: 2.3,
      unit: '×',
    }),
    goal('1 MiB ≤ 2.3× 512 KiB, code-like', o.ratio('growth-code-callfold'), {
      op: '≤',
      bound: 2.3,
      unit: '×',
    }),
    ...SCENARIOS.map((s) => {
      const row = o.row(s.id);
      return goal(
        `retained ≤ 2 B/argument char, ${s.id}`,
        row === undefined ? Number.NaN : perChar(row.retainedBytes, factsOf(s)),
        { op: '≤', bound: 2, unit: ' B/char' },
      );
    }),
  ],
  afterGoals: () => [
    'The floor and growth ratios come from the paired workers below, not from the rows above, ' +
      'whose medians were taken minutes apart.',
  ],
  notes: () => [
    '- partial-json is quadratic (seconds a run), so it gets only ' +
      `${QUADRATIC.samples} timed samples per worker and runs at 512 KiB only; ` +
      '@streamparser/json and the async floor also run at 512 KiB only, to keep the run short.',
    '- time: wall clock (performance.now) of the whole run incl. the end-of-stream read; GC forced before each sample, outside timing.',
    `- alloc: median cumulative allocation per run, ${allocationMethod}.`,
    '- over inputs: the same retained-heap runs measured while the inputs are still reachable — what the reader adds ' +
      'when someone else keeps the text, as the Assembler keeps the durable event whose text a sealed reader shares.',
    '- retained: V8 heap still used, after full GC, by what the reader keeps (fragments or text it holds included) ' +
      'over the heap before its inputs were built; median of the retained-heap runs (a single run can be off by up to ' +
      '~250 KiB when V8 drops internal caches); B/char is per argument character. A text with any character ' +
      'beyond U+00FF is stored by V8 at 2 bytes per character, so for code-like content one copy of the argument ' +
      'text is itself 2.00 B/char.',
  ],
  rowJson: (row, facts) => ({ retainedPerChar: perChar(row.retainedBytes, facts) }),
});
