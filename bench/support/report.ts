/**
 * The report every suite benchmark prints (`runSuite`), in this order:
 *
 * 1. a header line: Node, CPU, workers per row;
 * 2. per scenario, `## <heading>` and its table (one row per contestant);
 * 3. `## Goals <title>`: the goal table, then the suite's lines under it;
 * 4. `## Ratios measured in the same workers, the two sides interleaved`, when it has pairings;
 * 5. the suite's own sections (the fold's negative control);
 * 6. `## Notes`: one line per contestant (its plan), the suite's method notes, the run footer;
 * 7. `## Markdown (README)`: every scenario's rows in one table, the goals, the ratios;
 * 8. the path of the JSON results (bench/results/<name>.json; `<name>-quick.json` in quick mode).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { allocationMethod } from './allocation.js';
import { goalTable } from './goals.js';
import type { SamplePlan } from './measure.js';
import { printRunFooter } from './run-footer.js';
import { MiB } from './stats.js';
import type { Outcome, Row, RowColumn, Suite, SuiteContestant, SuiteScenario } from './suite.js';
import { type Column, markdownTable, textTable } from './table.js';

/** Bytes in MiB, for table cells and goal values. */
export const mib = (bytes: number, digits = 2): string => (bytes / MiB).toFixed(digits);
/** Milliseconds: whole above 100, one decimal below. */
export const ms = (value: number): string => (value >= 100 ? value.toFixed(0) : value.toFixed(1));
export const count = (n: number): string => n.toLocaleString('en');

/** The columns most scenario tables share; a suite picks and orders them. */
export const columns = {
  contestant<S extends SuiteScenario, C extends SuiteContestant, F>(
    title: string,
  ): RowColumn<S, C, F> {
    return { title, cell: (r) => r.contestant.name };
  },
  median<S extends SuiteScenario, C extends SuiteContestant, F>(): RowColumn<S, C, F> {
    return { title: 'median ms', align: 'right', cell: (r) => ms(r.time.median) };
  },
  quartiles<S extends SuiteScenario, C extends SuiteContestant, F>(
    markdown = true,
  ): RowColumn<S, C, F> {
    return {
      title: 'p25–p75 ms',
      align: 'right',
      markdown,
      cell: (r) => `${ms(r.time.p25)}–${ms(r.time.p75)}`,
    };
  },
  /** The median over workers of each one's first run, in a fresh process. */
  cold<S extends SuiteScenario, C extends SuiteContestant, F>(): RowColumn<S, C, F> {
    return { title: 'first run ms', align: 'right', cell: (r) => ms(r.cold.median) };
  },
  samples<S extends SuiteScenario, C extends SuiteContestant, F>(): RowColumn<S, C, F> {
    return { title: 'n', align: 'right', markdown: false, cell: (r) => String(r.time.n) };
  },
  /** A figure in MiB, given to `digits` decimals. */
  mib<S extends SuiteScenario, C extends SuiteContestant, F>(
    title: string,
    bytes: (row: Row<S, C>) => number,
    digits: number,
  ): RowColumn<S, C, F> {
    return { title, align: 'right', cell: (r) => mib(bytes(r), digits) };
  },
  /** Median time over the baseline's on the same scenario. */
  timesBaseline<S extends SuiteScenario, C extends SuiteContestant, F>(
    baseline: string,
  ): RowColumn<S, C, F> {
    return {
      title: `× ${baseline}`,
      align: 'right',
      cell: (r, { base }) =>
        base === undefined ? '' : (r.time.median / base.time.median).toFixed(2),
    };
  },
};

/** How many runs of each kind a plan gives, per worker. */
export function planText(plan: SamplePlan, workers: number): string {
  return (
    `${workers} workers × (≥ ${plan.warmup} warm-up runs and ≥ ${plan.warmupMs} ms, ` +
    `${plan.samples} timed, ${plan.allocationSamples + plan.retainedSamples} allocation ` +
    `and ${plan.retainedSamples} retained-heap runs)`
  );
}

const RATIO_COLUMNS: readonly Column[] = [
  { title: 'ratio' },
  { title: 'top ms', align: 'right' },
  { title: 'bottom ms', align: 'right' },
  { title: 'n each', align: 'right' },
  { title: 'top / bottom', align: 'right' },
];

export function writeReport<S extends SuiteScenario, C extends SuiteContestant, Input, Held, F>(
  suite: Suite<S, C, Input, Held, F>,
  outcome: Outcome<S, C>,
): void {
  const { workers, quick, plan } = outcome;
  console.log(
    `bench:${suite.name} — Node ${process.version}, ${cpus()[0]?.model ?? 'unknown CPU'} × ` +
      `${availableParallelism()}, ${workers} fresh workers per row, one at a time, in rounds` +
      (quick ? ' (BENCH_QUICK=1: plans cut short, figures are not measurements)' : ''),
  );
  const facts = suite.scenarios.map((scenario) => ({ scenario, facts: suite.facts(scenario) }));
  const rowsOf = (scenario: S) => outcome.rows.filter((r) => r.scenario === scenario);
  const cells = (scenario: S, factsOf: F, keep: (column: RowColumn<S, C, F>) => boolean) => {
    const base = outcome.row(scenario.id);
    const kept = suite.columns.filter(keep);
    return rowsOf(scenario).map((row) =>
      kept.map((column) => column.cell(row, { base, facts: factsOf })),
    );
  };

  for (const { scenario, facts: f } of facts) {
    console.log(`\n## ${suite.heading(f, rowsOf(scenario))}`);
    console.log(
      textTable(
        suite.columns,
        cells(scenario, f, () => true),
      ),
    );
  }

  const goals = suite.goals(outcome);
  console.log(`\n## Goals ${suite.goalsTitle}`);
  console.log(goalTable(goals, 'text'));
  for (const line of suite.afterGoals?.(outcome) ?? []) console.log(line);

  const ratioRows = outcome.ratios.map((r) => [
    `${r.top.contestant} ${r.top.scenario} / ${r.bottom.contestant} ${r.bottom.scenario}`,
    ms(r.topTime.median),
    ms(r.bottomTime.median),
    String(r.topTime.n),
    `${r.ratio.toFixed(2)}×`,
  ]);
  if (ratioRows.length > 0) {
    console.log('\n## Ratios measured in the same workers, the two sides interleaved');
    console.log(textTable(RATIO_COLUMNS, ratioRows));
  }

  for (const section of suite.sections?.(outcome) ?? []) {
    console.log(`\n## ${section.title}`);
    for (const line of section.lines) console.log(line);
  }

  console.log('\n## Notes');
  for (const c of suite.contestants) {
    const where = c.scenarios === undefined ? 'all scenarios' : c.scenarios.join(', ');
    const role = c.role === undefined ? '' : `${c.role}; `;
    console.log(`- ${c.name} (${role}${where}): ${c.note}. ${planText(plan(c), workers)}.`);
  }
  for (const line of suite.notes(outcome)) console.log(line);
  printRunFooter(workers, outcome.elapsedSeconds, outcome.maxLoad);

  console.log('\n## Markdown (README)\n');
  const inMarkdown = (column: RowColumn<S, C, F>) => column.markdown !== false;
  console.log(
    markdownTable(
      [{ title: 'scenario' }, ...suite.columns.filter(inMarkdown)],
      facts.flatMap(({ scenario, facts: f }) =>
        cells(scenario, f, inMarkdown).map((row) => [scenario.id, ...row]),
      ),
    ),
  );
  console.log(`\n${goalTable(goals, 'markdown')}`);
  if (ratioRows.length > 0) console.log(`\n${markdownTable(RATIO_COLUMNS, ratioRows)}`);

  const resultsDir = new URL('../../../bench/results/', import.meta.url);
  mkdirSync(fileURLToPath(resultsDir), { recursive: true });
  const out = fileURLToPath(new URL(`${suite.name}${quick ? '-quick' : ''}.json`, resultsDir));
  const factsById = new Map(facts.map(({ scenario, facts: f }) => [scenario, f]));
  writeFileSync(
    out,
    JSON.stringify(
      {
        node: process.version,
        cpu: cpus()[0]?.model,
        date: new Date().toISOString(),
        quick,
        workers,
        maxLoad: outcome.maxLoad,
        elapsedSeconds: outcome.elapsedSeconds,
        allocationMethod,
        scenarios: facts.map(({ facts: f }) => f),
        goals,
        results: outcome.rows.map((row) => {
          const { scenario, contestant, ...figures } = row;
          return {
            scenario: scenario.id,
            contestant: contestant.name,
            ...(contestant.role === undefined ? {} : { role: contestant.role }),
            note: contestant.note,
            plan: plan(contestant),
            ...suite.rowJson?.(row, factsById.get(scenario) as F),
            ...figures,
          };
        }),
        ratios: outcome.ratios,
      },
      null,
      2,
    ),
  );
  console.log(`\nFull results: ${out}`);
}
