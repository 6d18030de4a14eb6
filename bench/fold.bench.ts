/**
 * `npm run bench:fold`: the conversation-fold benchmark (DESIGN.md, Benchmarks).
 *
 * Drives the real Assembler, Tool Definition, Builder (groups and their detail) and the row
 * reads a UI makes, with `stream/tool-call-delta` events of 16-character fragments and a
 * publication every 64 events: one 512 KiB `write` (prose, and code-like), a `bash` whose
 * description comes before a 128 KiB command, an `edit` of 2 × 64 KiB, and 16 writes whose
 * deltas interleave. Peers (jsonriver, @streamparser/json, partial-json, a floor) get the
 * same fragments and flushes. A negative control reads the big fields in full to show that
 * the benchmark catches a fold that is not lazy. Each (scenario, contestant) pair runs in
 * three fresh Node workers that build their inputs first, warm up, force GC before every
 * sample, and check every run's answers. Results: bench/results/fold.json.
 *
 * Profiling one contestant (see support/fold-profile.ts):
 *   node --cpu-prof .build/bench/fold.bench.js --repeat write callfold 200
 *   node .build/bench/fold.bench.js --allocation-sites write callfold 20
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { allocationMethod } from './support/allocation.js';
import {
  CONTESTANTS,
  type Contestant,
  contestantByName,
  type FoldScenario,
  SCENARIOS,
  scenarioById,
} from './support/fold-contestants.js';
import { allocationSites, repeat } from './support/fold-profile.js';
import { measure, type SamplePlan, type WorkerReport } from './support/measure.js';
import { printRunFooter } from './support/run-footer.js';
import { MiB, type Summary, summarize } from './support/stats.js';
import { type Column, markdownTable, textTable } from './support/table.js';
import { runRounds, sendReport } from './support/workers.js';

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

async function worker(scenarioId: string, name: string): Promise<void> {
  const scenario = scenarioById(scenarioId);
  const contestant = contestantByName(name);
  const report = await measure(
    {
      build: () => {
        const input = scenario.build();
        contestant.prepare?.(input);
        return input;
      },
      run: (input) => contestant.run(input),
      check: (input, outcome) => contestant.check(input, outcome),
    },
    contestant.plan,
  );
  sendReport(report);
}

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

interface Result {
  readonly scenario: string;
  readonly contestant: string;
  readonly role: Contestant['role'];
  readonly note: string;
  readonly plan: SamplePlan;
  readonly time: Summary;
  readonly allocated: Summary;
  /** (a) Heap the run adds while the bench still holds the input events. */
  readonly retainedOverInputsBytes: number;
  /** (b) Heap kept alive once the bench dropped the input: events the Assembler holds included. */
  readonly retainedBytes: number;
  readonly inputsRssBytes: number;
  readonly peakRssBytes: number;
  readonly reports: readonly WorkerReport[];
}

interface Goal {
  readonly goal: string;
  readonly value: number;
  readonly measured: string;
  readonly met: boolean;
}

function goal(name: string, value: number, bound: number, unit: string): Goal {
  const digits = unit === ' ms' ? 1 : 2;
  return {
    goal: name,
    value,
    measured: `${value.toFixed(digits)}${unit} (< ${bound}${unit})`,
    met: value < bound,
  };
}

const mib = (bytes: number) => (bytes / MiB).toFixed(2);
const ms = (value: number) => (value >= 100 ? value.toFixed(0) : value.toFixed(1));
const count = (n: number) => n.toLocaleString('en');

async function parent(): Promise<void> {
  const script = fileURLToPath(import.meta.url);
  const started = performance.now();
  const results: Result[] = [];
  const facts = SCENARIOS.map(factsOf);
  console.log(
    `bench:fold — Node ${process.version}, ${cpus()[0]?.model ?? 'unknown CPU'} × ${availableParallelism()}, ` +
      `${WORKERS} fresh workers per row, one at a time, in rounds`,
  );
  const rows = SCENARIOS.flatMap((scenario) =>
    CONTESTANTS.filter((c) => c.scenarios.includes(scenario.id)).map((contestant) => ({
      scenario,
      contestant,
    })),
  );
  const { reports: rowReports, maxLoad } = await runRounds<WorkerReport>(
    rows.map(({ scenario, contestant }) => ({
      label: `${scenario.id} · ${contestant.name}`,
      run: { script, args: ['--worker', scenario.id, contestant.name] },
    })),
    WORKERS,
  );
  for (const [i, { scenario, contestant }] of rows.entries()) {
    const reports = rowReports[i] ?? [];
    const medianOf = (pick: (r: WorkerReport) => number) => summarize(reports.map(pick)).median;
    results.push({
      scenario: scenario.id,
      contestant: contestant.name,
      role: contestant.role,
      note: contestant.note,
      plan: contestant.plan,
      time: summarize(reports.flatMap((r) => r.timesMs)),
      allocated: summarize(reports.flatMap((r) => r.allocatedBytes)),
      retainedOverInputsBytes: medianOf((r) => r.retainedOverInputsBytes),
      retainedBytes: medianOf((r) => r.retainedBytes),
      inputsRssBytes: medianOf((r) => r.inputsRssBytes),
      peakRssBytes: medianOf((r) => r.peakRssBytes),
      reports,
    });
  }
  const elapsed = (performance.now() - started) / 1000;

  const find = (scenario: string, contestant = 'callfold') =>
    results.find((r) => r.scenario === scenario && r.contestant === contestant);
  const columns: Column[] = [
    { title: 'contestant' },
    { title: 'median ms', align: 'right' },
    { title: 'p25–p75 ms', align: 'right' },
    { title: 'n', align: 'right' },
    { title: 'alloc MiB', align: 'right' },
    { title: 'retained (a) MiB', align: 'right' },
    { title: 'retained (b) MiB', align: 'right' },
    { title: 'peak RSS MiB', align: 'right' },
    { title: '× callfold', align: 'right' },
  ];
  const rowsFor = (id: string) => {
    const base = find(id);
    return results
      .filter((r) => r.scenario === id)
      .map((r) => [
        r.contestant,
        ms(r.time.median),
        `${ms(r.time.p25)}–${ms(r.time.p75)}`,
        String(r.time.n),
        mib(r.allocated.median),
        mib(r.retainedOverInputsBytes),
        mib(r.retainedBytes),
        mib(r.peakRssBytes),
        base === undefined ? '' : (r.time.median / base.time.median).toFixed(2),
      ]);
  };

  for (const fact of facts) {
    const inputsRss = results.find((r) => r.scenario === fact.id)?.inputsRssBytes ?? 0;
    console.log(
      `\n## ${fact.id} — ${fact.title}\n` +
        `${fact.calls} call${fact.calls === 1 ? '' : 's'}, ${count(fact.argumentChars)} argument chars ` +
        `(${count(fact.escapedChars)} escaped), ${count(fact.deltas)} deltas of ≤ 16 chars, ` +
        `${fact.publications} publications (every 64 deltas and after the last); ` +
        `inputs alone peak at ${mib(inputsRss)} MiB RSS`,
    );
    console.log(textTable(columns, rowsFor(fact.id)));
  }

  const write = find('write');
  const bash = find('bash');
  const goals: Goal[] = [
    goal('write: median time', write?.time.median ?? Number.NaN, GOALS.writeMs, ' ms'),
    goal(
      'write: cumulative allocation',
      (write?.allocated.median ?? Number.NaN) / MiB,
      GOALS.writeAllocMiB,
      ' MiB',
    ),
    goal(
      'write: retained (a), what the Assembler adds to the held events',
      (write?.retainedOverInputsBytes ?? Number.NaN) / MiB,
      GOALS.writeRetainedMiB,
      ' MiB',
    ),
    goal(
      'write: retained (b), all the Assembler keeps alive, events included',
      (write?.retainedBytes ?? Number.NaN) / MiB,
      GOALS.writeRetainedMiB,
      ' MiB',
    ),
    goal('bash: median time', bash?.time.median ?? Number.NaN, GOALS.bashMs, ' ms'),
  ];
  console.log('\n## Goals (callfold; docs/decisions/0003-benchmark-goals.md)');
  console.log(
    textTable(
      [{ title: 'goal' }, { title: 'measured', align: 'right' }, { title: 'status' }],
      goals.map((g) => [g.goal, g.measured, g.met ? 'met' : 'NOT MET']),
    ),
  );
  const alone = find('write', 'PartialArguments alone');
  const withoutRows = find('write', 'callfold, no row reads');
  if (write !== undefined && alone !== undefined && withoutRows !== undefined) {
    const share = (part: number, whole: number) => `${((100 * part) / whole).toFixed(0)}%`;
    console.log(
      `Where the write's time goes: PartialArguments alone, with the same row reads, takes ` +
        `${ms(alone.time.median)} ms (${share(alone.time.median, write.time.median)} of callfold's ` +
        `${ms(write.time.median)} ms) and allocates ${mib(alone.allocated.median)} MiB ` +
        `(${share(alone.allocated.median, write.allocated.median)}); the fold without row reads takes ` +
        `${ms(withoutRows.time.median)} ms and ${mib(withoutRows.allocated.median)} MiB. The rest is events ` +
        'through the Assembler (validation, Matches, Contexts), publication and groups.',
    );
  }
  if (write !== undefined) {
    console.log(
      `For scale, decision record 0002's write measurement (EPYC 7763, Node 24) was ${RECORDS.writeMs} ms, ` +
        `${RECORDS.writeAllocMiB} MiB allocated, ${RECORDS.writeRetainedMiB} MiB retained; this run's write is ` +
        `${(RECORDS.writeMs / write.time.median).toFixed(1)}× faster, allocates ` +
        `${(RECORDS.writeAllocMiB / (write.allocated.median / MiB)).toFixed(1)}× less and retains ` +
        `${(RECORDS.writeRetainedMiB / (write.retainedBytes / MiB)).toFixed(1)}× less (figure b) than that.`,
    );
  }

  console.log(
    '\n## Negative control (not a goal): does the benchmark see a fold that is not lazy?',
  );
  const controls: string[][] = [];
  for (const control of results.filter((r) => r.role === 'control')) {
    const base = find(control.scenario);
    if (base === undefined) continue;
    const timeGoal = control.scenario === 'write' ? GOALS.writeMs : GOALS.bashMs;
    const flagged =
      control.time.median >= timeGoal ||
      (control.scenario === 'write' && control.allocated.median / MiB >= GOALS.writeAllocMiB);
    controls.push([
      control.scenario,
      `${ms(control.time.median)} vs ${ms(base.time.median)}`,
      (control.time.median / base.time.median).toFixed(1),
      `${mib(control.allocated.median)} vs ${mib(base.allocated.median)}`,
      (control.allocated.median / base.allocated.median).toFixed(1),
      flagged ? 'yes (goal NOT MET)' : 'no',
    ]);
  }
  console.log(
    textTable(
      [
        { title: 'scenario' },
        { title: 'median ms control vs callfold', align: 'right' },
        { title: 'time ×', align: 'right' },
        { title: 'alloc MiB control vs callfold', align: 'right' },
        { title: 'alloc ×', align: 'right' },
        { title: 'caught by the goals' },
      ],
      controls,
    ),
  );

  console.log('\n## Notes');
  for (const c of CONTESTANTS) {
    console.log(
      `- ${c.name} (${c.role}; ${c.scenarios.join(', ')}): ${c.note}. ${WORKERS} workers × ` +
        `(≥ ${c.plan.warmup} warm-up runs and ≥ ${c.plan.warmupMs} ms, ${c.plan.samples} timed, ` +
        `${c.plan.allocationSamples + c.plan.retainedSamples} allocation and ${c.plan.retainedSamples} ` +
        'retained-heap runs).',
    );
  }
  console.log(
    "- Peers get the call's fragments (not events) and, at the same flushes, read the label (path or description) " +
      'and the decoded length of the big field (content or command); they have no Assembler, no groups. The floor reads nothing while streaming.',
  );
  console.log(
    '- time: wall clock of the whole run (Assembler created, every event pushed, every publication and read); ' +
      'events built before, GC forced before each sample, both outside timing.',
  );
  console.log(`- alloc: median cumulative allocation per run, ${allocationMethod}.`);
  console.log(
    "- retained (a): V8 heap used after full GC with the run's result (Assembler, last Conversation) and the " +
      'input events both reachable, over the heap with the inputs alone: what the fold adds. retained (b): the ' +
      'same after the bench dropped its inputs, over the heap before they were built: everything the Assembler ' +
      'keeps alive, the events (held until their attempt settles) included. Medians of the retained-heap runs.',
  );
  printRunFooter(WORKERS, elapsed, maxLoad);

  console.log('\n## Markdown (README)\n');
  const mdColumns: Column[] = [{ title: 'scenario' }, ...columns.filter((c) => c.title !== 'n')];
  const mdRows = facts.flatMap((fact) =>
    rowsFor(fact.id).map((row) => [fact.id, ...row.filter((_, i) => i !== 3)]),
  );
  console.log(markdownTable(mdColumns, mdRows));
  console.log('');
  console.log(
    markdownTable(
      [{ title: 'goal' }, { title: 'measured', align: 'right' }, { title: 'status' }],
      goals.map((g) => [g.goal, g.measured, g.met ? 'met' : '**not met**']),
    ),
  );

  const resultsDir = new URL('../../bench/results/', import.meta.url);
  mkdirSync(fileURLToPath(resultsDir), { recursive: true });
  const out = fileURLToPath(new URL('fold.json', resultsDir));
  writeFileSync(
    out,
    JSON.stringify(
      {
        node: process.version,
        cpu: cpus()[0]?.model,
        date: new Date().toISOString(),
        maxLoad,
        elapsedSeconds: elapsed,
        allocationMethod,
        scenarios: facts,
        goals,
        results,
      },
      null,
      2,
    ),
  );
  console.log(`\nFull results: ${out}`);
}

const [mode, scenarioArg = '', contestantArg = '', runsArg] = process.argv.slice(2);
if (mode === '--worker') {
  await worker(scenarioArg, contestantArg);
} else if (mode === '--repeat' || mode === '--allocation-sites') {
  const scenario = scenarioById(scenarioArg);
  const contestant = contestantByName(contestantArg);
  if (mode === '--repeat') await repeat(scenario, contestant, Number(runsArg ?? 200));
  else await allocationSites(scenario, contestant, Number(runsArg ?? 20));
} else {
  await parent();
}
