/**
 * A benchmark declared as data: scenarios × contestants (× the ratios to time paired) × goals.
 * `runSuite` is the whole program of such a benchmark. Run plainly, it is the parent: it runs
 * every (scenario, contestant) row in fresh workers, in rounds (`runRounds`), then every
 * pairing, and hands the outcome to the report writer (`report.ts`). Run with
 * `--worker <scenario> <contestant>` or `--paired <pairing>`, it is that worker (`measure`,
 * `measurePaired`).
 *
 * To add a scenario or a contestant, add an entry to the bench's list; to add a goal, add a
 * line to its `goals`. bench/README.md ("Writing a benchmark") walks through it.
 *
 * `BENCH_QUICK=1` runs one worker per row and cuts every plan short (`quickPlan`): a check
 * that the benchmark runs end to end and prints every table, not a measurement.
 */
import { fileURLToPath } from 'node:url';
import type { Goal } from './goals.js';
import {
  measure,
  measurePaired,
  type PairedReport,
  type SamplePlan,
  type Subject,
  type WorkerReport,
} from './measure.js';
import { writeReport } from './report.js';
import { type Summary, summarize } from './stats.js';
import type { Column } from './table.js';
import { runRounds, sendReport } from './workers.js';

export interface SuiteScenario {
  readonly id: string;
}

export interface SuiteContestant {
  readonly name: string;
  /** What it does, for the notes. */
  readonly note: string;
  readonly plan: SamplePlan;
  /** Scenario ids it runs in; every scenario when absent. */
  readonly scenarios?: readonly string[];
  /** Its part in the comparison (subject, piece, control, peer), shown in the notes. */
  readonly role?: string;
}

/** One side of a ratio: a contestant on a scenario. */
export interface Side {
  readonly scenario: string;
  readonly contestant: string;
}

/**
 * A ratio between two rows, timed in the same workers with the two sides interleaved sample
 * by sample (`measurePaired`): rows in separate workers run minutes apart, and on two shared
 * cores their medians drift by up to 1.5× on their own.
 */
export interface Pairing {
  readonly id: string;
  readonly top: Side;
  readonly bottom: Side;
}

/** One (scenario, contestant) row: its workers' figures pooled. */
export interface Row<S extends SuiteScenario, C extends SuiteContestant> {
  readonly scenario: S;
  readonly contestant: C;
  /** Every timed sample of every worker. */
  readonly time: Summary;
  /** The first run of each worker (`WorkerReport.coldMs`). */
  readonly cold: Summary;
  /** Every allocation sample of every worker. */
  readonly allocated: Summary;
  /** Median over workers of what the run keeps alive once the inputs are dropped. */
  readonly retainedBytes: number;
  /** Median over workers of what the run adds while the inputs are still held. */
  readonly retainedOverInputsBytes: number;
  readonly inputsRssBytes: number;
  readonly peakRssBytes: number;
  readonly reports: readonly WorkerReport[];
}

export interface Ratio extends Pairing {
  readonly topTime: Summary;
  readonly bottomTime: Summary;
  /** Median of the top side's samples over the bottom side's, all workers pooled. */
  readonly ratio: number;
  readonly reports: readonly PairedReport[];
}

export interface Outcome<S extends SuiteScenario, C extends SuiteContestant> {
  readonly rows: readonly Row<S, C>[];
  readonly ratios: readonly Ratio[];
  /** The row of a contestant (the baseline when absent) on a scenario, if it ran. */
  row(scenario: string, contestant?: string): Row<S, C> | undefined;
  /** Median time of a row; NaN when it did not run. */
  time(scenario: string, contestant?: string): number;
  /** A pairing's ratio; NaN when it did not run. */
  ratio(id: string): number;
  /** Workers per row; 1 in quick mode. */
  readonly workers: number;
  /** `BENCH_QUICK=1`: plans cut short. */
  readonly quick: boolean;
  /** The plan a contestant ran with (cut short in quick mode). */
  plan(contestant: C): SamplePlan;
  readonly maxLoad: number;
  readonly elapsedSeconds: number;
}

/** A column of a scenario's table; `base` is the baseline's row on the same scenario. */
export interface RowColumn<S extends SuiteScenario, C extends SuiteContestant, F> extends Column {
  /** Left out of the Markdown copy when false. */
  readonly markdown?: boolean;
  cell(
    row: Row<S, C>,
    context: { readonly base: Row<S, C> | undefined; readonly facts: F },
  ): string;
}

export interface Section {
  readonly title: string;
  readonly lines: readonly string[];
}

export interface Suite<S extends SuiteScenario, C extends SuiteContestant, Input, Held, F> {
  /** `bench:<name>`; the results go to bench/results/<name>.json. */
  readonly name: string;
  /** The compiled benchmark (`import.meta.url`): workers run it again. */
  readonly script: string;
  /** Fresh workers per row (and per pairing). */
  readonly workers: number;
  readonly scenarios: readonly S[];
  readonly contestants: readonly C[];
  /** The contestant the `× <baseline>` figures and `row(scenario)` refer to. */
  readonly baseline: string;
  /** What a worker measures for one row: built, run and checked by `measure`. */
  subject(scenario: S, contestant: C): Subject<Input, Held>;
  readonly pairings?: readonly Pairing[];

  /** Figures of a scenario's input, built once in the parent: its heading, and the JSON. */
  facts(scenario: S): F;
  /** The text after `## ` that introduces a scenario's table. */
  heading(facts: F, rows: readonly Row<S, C>[]): string;
  readonly columns: readonly RowColumn<S, C, F>[];
  /** After `## Goals `, e.g. `(callfold)`. */
  readonly goalsTitle: string;
  goals(outcome: Outcome<S, C>): Goal[];
  /** Lines under the goals table. */
  afterGoals?(outcome: Outcome<S, C>): string[];
  /** Sections after the goals and the ratios (the fold's negative control). */
  sections?(outcome: Outcome<S, C>): Section[];
  /** Method notes, after one line per contestant. */
  notes(outcome: Outcome<S, C>): string[];
  /** Further fields of a row in the JSON results. */
  rowJson?(row: Row<S, C>, facts: F): Record<string, unknown>;
}

export const QUICK = process.env.BENCH_QUICK === '1';

/** A plan cut short for `BENCH_QUICK=1`; the forced GCs and the retained-heap run stay. */
export function quickPlan(plan: SamplePlan): SamplePlan {
  return {
    warmup: Math.min(plan.warmup, 2),
    warmupMs: 0,
    samples: Math.min(plan.samples, 3),
    allocationSamples: Math.min(plan.allocationSamples, 1),
    retainedSamples: 1,
  };
}

export function planOf(contestant: SuiteContestant): SamplePlan {
  return QUICK ? quickPlan(contestant.plan) : contestant.plan;
}

export function runsIn(contestant: SuiteContestant, scenario: SuiteScenario): boolean {
  return contestant.scenarios === undefined || contestant.scenarios.includes(scenario.id);
}

export async function runSuite<S extends SuiteScenario, C extends SuiteContestant, Input, Held, F>(
  suite: Suite<S, C, Input, Held, F>,
  argv: readonly string[] = process.argv.slice(2),
): Promise<void> {
  const [mode, first = '', second = ''] = argv;
  if (mode === '--worker') {
    const contestant = byName(suite, second);
    sendReport(await measure(suite.subject(byId(suite, first), contestant), planOf(contestant)));
  } else if (mode === '--paired') {
    sendReport(await pairedWorker(suite, first));
  } else {
    writeReport(suite, await runParent(suite));
  }
}

async function runParent<S extends SuiteScenario, C extends SuiteContestant, Input, Held, F>(
  suite: Suite<S, C, Input, Held, F>,
): Promise<Outcome<S, C>> {
  const script = fileURLToPath(suite.script);
  const started = performance.now();
  const workers = QUICK ? 1 : suite.workers;
  const grid = suite.scenarios.flatMap((scenario) =>
    suite.contestants
      .filter((contestant) => runsIn(contestant, scenario))
      .map((contestant) => ({ scenario, contestant })),
  );
  const single = await runRounds<WorkerReport>(
    grid.map(({ scenario, contestant }) => ({
      label: `${scenario.id} · ${contestant.name}`,
      run: { script, args: ['--worker', scenario.id, contestant.name] },
    })),
    workers,
  );
  const pairings = suite.pairings ?? [];
  const paired = await runRounds<PairedReport>(
    pairings.map((p) => ({
      label: `${p.top.scenario} ${p.top.contestant} ⇄ ${p.bottom.scenario} ${p.bottom.contestant}`,
      run: { script, args: ['--paired', p.id] },
    })),
    workers,
  );
  const rows = grid.map(({ scenario, contestant }, i): Row<S, C> => {
    const reports = single.reports[i] ?? [];
    const medianOf = (pick: (r: WorkerReport) => number) => summarize(reports.map(pick)).median;
    return {
      scenario,
      contestant,
      time: summarize(reports.flatMap((r) => r.timesMs)),
      cold: summarize(reports.map((r) => r.coldMs)),
      allocated: summarize(reports.flatMap((r) => r.allocatedBytes)),
      retainedBytes: medianOf((r) => r.retainedBytes),
      retainedOverInputsBytes: medianOf((r) => r.retainedOverInputsBytes),
      inputsRssBytes: medianOf((r) => r.inputsRssBytes),
      peakRssBytes: medianOf((r) => r.peakRssBytes),
      reports,
    };
  });
  const ratios = pairings.map((p, i): Ratio => {
    const reports = paired.reports[i] ?? [];
    const bottomTime = summarize(reports.flatMap((r) => r.timesMs[0] ?? []));
    const topTime = summarize(reports.flatMap((r) => r.timesMs[1] ?? []));
    return { ...p, topTime, bottomTime, ratio: topTime.median / bottomTime.median, reports };
  });
  const row = (scenario: string, contestant = suite.baseline) =>
    rows.find((r) => r.scenario.id === scenario && r.contestant.name === contestant);
  return {
    rows,
    ratios,
    row,
    time: (scenario, contestant) => row(scenario, contestant)?.time.median ?? Number.NaN,
    ratio: (id) => ratios.find((r) => r.id === id)?.ratio ?? Number.NaN,
    workers,
    quick: QUICK,
    plan: planOf,
    maxLoad: Math.max(single.maxLoad, paired.maxLoad),
    elapsedSeconds: (performance.now() - started) / 1000,
  };
}

/** Both sides of a pairing in one worker, bottom first; the longer of their two plans. */
async function pairedWorker<S extends SuiteScenario, C extends SuiteContestant, Input, Held, F>(
  suite: Suite<S, C, Input, Held, F>,
  id: string,
): Promise<PairedReport> {
  const pairing = suite.pairings?.find((p) => p.id === id);
  if (pairing === undefined) throw new Error(`unknown pairing ${id}`);
  const sides = [pairing.bottom, pairing.top].map((side) => ({
    scenario: byId(suite, side.scenario),
    contestant: byName(suite, side.contestant),
  }));
  // The longer plan of the two, so a cheap side gets as many samples as it would alone.
  const plan = sides
    .map(({ contestant }) => planOf(contestant))
    .reduce((a, b) => (a.samples >= b.samples ? a : b));
  return measurePaired(
    sides.map(({ scenario, contestant }) => suite.subject(scenario, contestant)),
    plan,
  );
}

function byId<S extends SuiteScenario>(suite: { scenarios: readonly S[] }, id: string): S {
  const found = suite.scenarios.find((s) => s.id === id);
  if (found === undefined) throw new Error(`unknown scenario ${id}`);
  return found;
}

function byName<C extends SuiteContestant>(suite: { contestants: readonly C[] }, name: string): C {
  const found = suite.contestants.find((c) => c.name === name);
  if (found === undefined) throw new Error(`unknown contestant ${name}`);
  return found;
}
