/**
 * `npm run bench:fold`: the conversation-fold benchmark (bench/README.md, "Fold benchmark").
 *
 * Drives the real Assembler, Tool Definition, Builder (groups and their detail) and the row
 * reads a UI makes, with `stream/tool-call-delta` events of 16-character fragments and a
 * publication every 64 events: one 512 KiB `write` (prose, and code-like), a `bash` whose
 * description comes before a 128 KiB command, an `edit` of 2 × 64 KiB, and 16 writes whose
 * deltas interleave. Peers (jsonriver, @streamparser/json, partial-json, a floor) get the
 * same fragments and flushes. A negative control reads the big fields in full to show that
 * the benchmark catches a fold that is not lazy. Each (scenario, contestant) pair runs in
 * three fresh Node workers that build their inputs first, warm up, force GC before every
 * sample, and check every run's answers. The scenarios and contestants are listed in
 * support/fold-contestants.ts, the goals below; support/suite.ts runs them and
 * support/report.ts prints the report. Results: bench/results/fold.json.
 *
 * Profiling one contestant (see support/fold-profile.ts):
 *   node --cpu-prof .build/bench/fold.bench.js --repeat write callfold 200
 *   node .build/bench/fold.bench.js --allocation-sites write callfold 20
 */
import { allocationMethod } from './support/allocation.js';
import type { FoldInput } from './support/fold-content.js';
import {
  CONTESTANTS,
  type Contestant,
  contestantByName,
  type FoldScenario,
  SCENARIOS,
  scenarioById,
} from './support/fold-contestants.js';
import { allocationSites, repeat } from './support/fold-profile.js';
import { goal } from './support/goals.js';
import { columns, count, mib, ms } from './support/report.js';
import { MiB } from './support/stats.js';
import { runSuite } from './support/suite.js';
import { textTable } from './support/table.js';

const WORKERS = 3;

/** What callfold must reach on this machine: docs/decisions/0003-benchmark-goals.md (issues 3 and 4). */
const GOALS = {
  writeMs: 15,
  writeAllocMiB: 12,
  writeRetainedMiB: 3,
  bashMs: 10,
};
/** The reference measurement of docs/decisions/0002-lazy-arguments-and-argument-order.md (AMD EPYC 7763, Node 24.18.0), for scale only. */
const RECORDS = { writeMs: 176.12, writeAllocMiB: 76.65, writeRetainedMiB: 21.84 };

interface Facts {
  readonly id: string;
  readonly title: string;
  readonly calls: number;
  readonly argumentChars: number;
  readonly escapedChars: number;
  readonly deltas: number;
  readonly publications: number;
}

function factsOf(scenario: FoldScenario): Facts {
  const input = scenario.build();
  let escapedChars = 0;
  for (const call of input.calls) {
    for (const value of Object.values(call.values)) {
      for (let i = 0; i < value.length; i++) {
        const code = value.charCodeAt(i);
        if (code < 0x20 || code === 0x22 || code === 0x5c) escapedChars++;
      }
    }
  }
  return {
    id: scenario.id,
    title: scenario.title,
    calls: input.calls.length,
    argumentChars: input.calls.reduce((sum, call) => sum + call.text.length, 0),
    escapedChars,
    deltas: input.events.length,
    publications: input.publications,
  };
}

const ms1 = { unit: ' ms', digits: 1 } as const;
const share = (part: number, whole: number) => `${((100 * part) / whole).toFixed(0)}%`;

const [mode, scenarioArg = '', contestantArg = '', runsArg] = process.argv.slice(2);
if (mode === '--repeat' || mode === '--allocation-sites') {
  const scenario = scenarioById(scenarioArg);
  const contestant = contestantByName(contestantArg);
  if (mode === '--repeat') await repeat(scenario, contestant, Number(runsArg ?? 200));
  else await allocationSites(scenario, contestant, Number(runsArg ?? 20));
} else {
  await runSuite<FoldScenario, Contestant, FoldInput, unknown, Facts>({
    name: 'fold',
    script: import.meta.url,
    workers: WORKERS,
    scenarios: SCENARIOS,
    contestants: CONTESTANTS,
    baseline: 'callfold',
    subject: (scenario, contestant) => ({
      build: () => {
        const input = scenario.build();
        contestant.prepare?.(input);
        return input;
      },
      run: (input) => contestant.run(input),
      check: (input, outcome) => contestant.check(input, outcome),
    }),
    facts: factsOf,
    heading: (f, rows) =>
      `${f.id} — ${f.title}\n` +
      `${f.calls} call${f.calls === 1 ? '' : 's'}, ${count(f.argumentChars)} argument chars ` +
      `(${count(f.escapedChars)} escaped), ${count(f.deltas)} deltas of ≤ 16 chars, ` +
      `${f.publications} publications (every 64 deltas and after the last); ` +
      `inputs alone peak at ${mib(rows[0]?.inputsRssBytes ?? 0)} MiB RSS`,
    columns: [
      columns.contestant('contestant'),
      columns.median(),
      columns.quartiles(),
      columns.samples(),
      columns.cold(),
      columns.mib('alloc MiB', (r) => r.allocated.median, 2),
      columns.mib('retained (a) MiB', (r) => r.retainedOverInputsBytes, 2),
      columns.mib('retained (b) MiB', (r) => r.retainedBytes, 2),
      columns.mib('peak RSS MiB', (r) => r.peakRssBytes, 2),
      columns.timesBaseline('callfold'),
    ],
    goalsTitle: '(callfold; docs/decisions/0003-benchmark-goals.md)',
    goals: (o) => {
      const write = o.row('write');
      return [
        goal('write: median time', o.time('write'), { op: '<', bound: GOALS.writeMs, ...ms1 }),
        goal('write: cumulative allocation', (write?.allocated.median ?? Number.NaN) / MiB, {
          op: '<',
          bound: GOALS.writeAllocMiB,
          unit: ' MiB',
        }),
        goal(
          'write: retained (a), what the Assembler adds to the held events',
          (write?.retainedOverInputsBytes ?? Number.NaN) / MiB,
          { op: '<', bound: GOALS.writeRetainedMiB, unit: ' MiB' },
        ),
        goal(
          'write: retained (b), all the Assembler keeps alive, events included',
          (write?.retainedBytes ?? Number.NaN) / MiB,
          { op: '<', bound: GOALS.writeRetainedMiB, unit: ' MiB' },
        ),
        goal('bash: median time', o.time('bash'), { op: '<', bound: GOALS.bashMs, ...ms1 }),
      ];
    },
    afterGoals: (o) => {
      const write = o.row('write');
      const alone = o.row('write', 'PartialArguments alone');
      const withoutRows = o.row('write', 'callfold, no row reads');
      if (write === undefined) return [];
      const lines: string[] = [];
      if (alone !== undefined && withoutRows !== undefined) {
        lines.push(
          `Where the write's time goes: PartialArguments alone, with the same row reads, takes ` +
            `${ms(alone.time.median)} ms (${share(alone.time.median, write.time.median)} of callfold's ` +
            `${ms(write.time.median)} ms) and allocates ${mib(alone.allocated.median)} MiB ` +
            `(${share(alone.allocated.median, write.allocated.median)}); the fold without row reads takes ` +
            `${ms(withoutRows.time.median)} ms and ${mib(withoutRows.allocated.median)} MiB. The rest is events ` +
            'through the Assembler (validation, Matches, Contexts), publication and groups.',
        );
      }
      lines.push(
        `The first fold in a fresh process (the median of ${write.cold.n} workers' first runs, ` +
          `inputs built and GC forced before it) takes ${ms(write.cold.median)} ms, ` +
          `${(write.cold.median / write.time.median).toFixed(1)}× the warm median: the JIT's first ` +
          'compiles of the reader, the Assembler and rxjs (profile a first run with ' +
          '`node --cpu-prof .build/bench/fold.bench.js --repeat write callfold 1`).',
      );
      lines.push(
        `For scale, decision record 0002's write measurement (EPYC 7763, Node 24) was ${RECORDS.writeMs} ms, ` +
          `${RECORDS.writeAllocMiB} MiB allocated, ${RECORDS.writeRetainedMiB} MiB retained; this run's write is ` +
          `${(RECORDS.writeMs / write.time.median).toFixed(1)}× faster, allocates ` +
          `${(RECORDS.writeAllocMiB / (write.allocated.median / MiB)).toFixed(1)}× less and retains ` +
          `${(RECORDS.writeRetainedMiB / (write.retainedBytes / MiB)).toFixed(1)}× less (figure b) than that.`,
      );
      return lines;
    },
    sections: (o) => {
      const controls: string[][] = [];
      for (const control of o.rows.filter((r) => r.contestant.role === 'control')) {
        const base = o.row(control.scenario.id);
        if (base === undefined) continue;
        const write = control.scenario.id === 'write';
        const flagged =
          control.time.median >= (write ? GOALS.writeMs : GOALS.bashMs) ||
          (write && control.allocated.median / MiB >= GOALS.writeAllocMiB);
        controls.push([
          control.scenario.id,
          `${ms(control.time.median)} vs ${ms(base.time.median)}`,
          (control.time.median / base.time.median).toFixed(1),
          `${mib(control.allocated.median)} vs ${mib(base.allocated.median)}`,
          (control.allocated.median / base.allocated.median).toFixed(1),
          flagged ? 'yes (goal NOT MET)' : 'no',
        ]);
      }
      const table = textTable(
        [
          { title: 'scenario' },
          { title: 'median ms control vs callfold', align: 'right' },
          { title: 'time ×', align: 'right' },
          { title: 'alloc MiB control vs callfold', align: 'right' },
          { title: 'alloc ×', align: 'right' },
          { title: 'caught by the goals' },
        ],
        controls,
      );
      return [
        {
          title: 'Negative control (not a goal): does the benchmark see a fold that is not lazy?',
          lines: [table],
        },
      ];
    },
    notes: () => [
      "- Peers get the call's fragments (not events) and, at the same flushes, read the label (path or description) " +
        'and the decoded length of the big field (content or command); they have no Assembler, no groups. The floor reads nothing while streaming.',
      '- time: wall clock of the whole run (Assembler created, every event pushed, every publication and read); ' +
        'events built before, GC forced before each sample, both outside timing.',
      `- alloc: median cumulative allocation per run, ${allocationMethod}.`,
      "- retained (a): V8 heap used after full GC with the run's result (Assembler, last Conversation) and the " +
        'input events both reachable, over the heap with the inputs alone: what the fold adds. retained (b): the ' +
        'same after the bench dropped its inputs, over the heap before they were built: everything the Assembler ' +
        'keeps alive, the events (held until their attempt settles) included. Medians of the retained-heap runs.',
    ],
  });
}
