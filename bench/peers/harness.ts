/**
 * `npm run bench:peers`'s runner: every (scenario, contestant) pair in a fresh worker per
 * round, the rounds alternated (the order reversed every other round), a worker past the
 * limit killed and reported as over it; then medians, the ratio to callfold on the same
 * wire, the growth from the smallest to the largest write, and the goals of issue 29.
 */
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { type Goal, goal } from '../support/goals.js';
import { median } from '../support/stats.js';
import { type Column, textTable } from '../support/table.js';
import { sendReport } from '../support/workers.js';
import { CONTESTANTS, type Contestant, contestantByName, type Outcome } from './contestants.js';
import { expectedOf, type Scenario, scenarioById } from './streams.js';

export interface PeersOptions {
  /** Write sizes in KiB. */
  readonly sizes: readonly number[];
  /** Calls in the session scenario; 0 leaves it out. */
  readonly sessionCalls: number;
  readonly rounds: number;
  /** Seconds a timed run may take before its worker is killed. */
  readonly limitS: number;
  /** The compiled bench script, run as `--worker <contestant> <scenario>`. */
  readonly script: string;
  /** Contestants by name; all when absent. */
  readonly only?: readonly string[];
  /**
   * Runs every pair in this process instead of a worker each (no limit enforced): for the
   * test that keeps the harness from rotting, not for measuring.
   */
  readonly inProcess?: boolean;
  /** Progress lines (stderr by default). */
  readonly progress?: (line: string) => void;
}

/** One worker's report. */
export interface Sample {
  readonly wallMs: number;
  readonly cpuMs: number;
  readonly outcome: Outcome;
}

export interface Cell {
  readonly scenario: string;
  readonly contestant: Contestant;
  readonly samples: Sample[];
  /** Killed at the limit, or not run because a smaller write already was. */
  over: 'killed' | 'skipped' | undefined;
}

export interface PeersResult {
  readonly options: PeersOptions;
  readonly scenarios: readonly string[];
  readonly cells: readonly Cell[];
  readonly maxLoad: number;
  readonly seconds: number;
}

/** The worker side: one timed run, reported to the parent. */
export async function runWorkerMode(contestantName: string, scenarioId: string): Promise<void> {
  sendReport(await measureOnce(contestantByName(contestantName), scenarioId));
}

/**
 * One warm-up on a small scenario of the same kind, then one timed run, its outcome checked
 * against the scenario (a contestant that misses a call or a byte throws).
 */
export async function measureOnce(contestant: Contestant, scenarioId: string): Promise<Sample> {
  const scenario = scenarioById(scenarioId);
  const warm = scenarioById(scenarioId.startsWith('session') ? 'session-4' : 'write-1');
  checked(contestant, warm, await contestant.prepare(warm)());
  const run = contestant.prepare(scenario);
  (globalThis as { gc?: () => void }).gc?.();
  const cpu = process.cpuUsage();
  const started = performance.now();
  const outcome = await run();
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  checked(contestant, scenario, outcome);
  return { wallMs, cpuMs: (used.user + used.system) / 1000, outcome };
}

function checked(contestant: Contestant, scenario: Scenario, outcome: Outcome): Outcome {
  const expected = expectedOf(scenario);
  if (
    outcome.calls !== expected.calls ||
    outcome.path !== expected.path ||
    outcome.contentLength !== expected.contentLength
  ) {
    throw new Error(
      `${contestant.name} on ${scenario.id}: saw ${JSON.stringify(outcome)}, expected ${JSON.stringify(expected)}`,
    );
  }
  return outcome;
}

/** The parent side. */
export async function runPeers(options: PeersOptions): Promise<PeersResult> {
  const began = performance.now();
  const progress = options.progress ?? ((line: string) => process.stderr.write(`${line}\n`));
  const contestants = CONTESTANTS.filter((c) => options.only?.includes(c.name) ?? true);
  const scenarios = [
    ...options.sizes.map((kib) => `write-${kib}`),
    ...(options.sessionCalls > 0 ? [`session-${options.sessionCalls}`] : []),
  ];
  const cells: Cell[] = scenarios.flatMap((scenario) =>
    contestants.map((contestant) => ({ scenario, contestant, samples: [], over: undefined })),
  );
  let maxLoad = loadavg()[0] ?? 0;
  for (let round = 0; round < options.rounds; round++) {
    for (const cell of round % 2 === 0 ? cells : [...cells].reverse()) {
      if (cell.over !== undefined) continue;
      if (smallerWriteOver(cells, cell)) {
        cell.over = 'skipped';
        continue;
      }
      maxLoad = Math.max(maxLoad, loadavg()[0] ?? 0);
      const sample = options.inProcess
        ? await measureOnce(cell.contestant, cell.scenario)
        : await runWorker(options, cell);
      if (sample === undefined) cell.over = 'killed';
      else cell.samples.push(sample);
      const took = sample ? `${sample.cpuMs.toFixed(0)} ms CPU` : `> ${options.limitS} s`;
      progress(
        `  ${round + 1}/${options.rounds} · ${cell.scenario} · ${cell.contestant.name}: ${took}`,
      );
    }
  }
  maxLoad = Math.max(maxLoad, loadavg()[0] ?? 0);
  return { options, scenarios, cells, maxLoad, seconds: (performance.now() - began) / 1000 };
}

/** A write larger than one this contestant already ran past the limit would too. */
function smallerWriteOver(cells: readonly Cell[], cell: Cell): boolean {
  const kib = writeKiB(cell.scenario);
  return cells.some(
    (other) =>
      other.contestant === cell.contestant &&
      other.over !== undefined &&
      kib !== undefined &&
      (writeKiB(other.scenario) ?? Number.POSITIVE_INFINITY) < kib,
  );
}

const writeKiB = (scenario: string): number | undefined =>
  scenario.startsWith('write-') ? Number(scenario.slice('write-'.length)) : undefined;

const PREFIX = '@@bench-report ';

/** One worker; `undefined` when it ran past the limit (plus 10 s to start and build). */
async function runWorker(options: PeersOptions, cell: Cell): Promise<Sample | undefined> {
  const args = ['--expose-gc', options.script, '--worker', cell.contestant.name, cell.scenario];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  let killed = false;
  const timer = setTimeout(
    () => {
      killed = true;
      child.kill('SIGKILL');
    },
    (options.limitS + 10) * 1000,
  );
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  clearTimeout(timer);
  if (killed) return undefined;
  const line = stdout.split('\n').find((l) => l.startsWith(PREFIX));
  if (code !== 0 || line === undefined) {
    throw new Error(`worker ${args.slice(2).join(' ')} failed (exit ${code}):\n${stderr}`);
  }
  const sample = JSON.parse(line.slice(PREFIX.length)) as Sample;
  return sample.wallMs > options.limitS * 1000 ? undefined : sample;
}

const cpuOf = (cell: Cell | undefined): number =>
  cell && cell.samples.length > 0 ? median(cell.samples.map((s) => s.cpuMs)) : Number.NaN;

function cellOf(result: PeersResult, scenario: string, name: string): Cell | undefined {
  return result.cells.find((c) => c.scenario === scenario && c.contestant.name === name);
}

function callfoldOf(result: PeersResult, cell: Cell): Cell | undefined {
  return result.cells.find(
    (c) =>
      c.scenario === cell.scenario &&
      c.contestant.wire === cell.contestant.wire &&
      c.contestant.name.startsWith('callfold'),
  );
}

/**
 * CPU of `cell` over callfold's on the same wire; a peer over the limit gives a lower bound
 * (`atLeast`), from the limit itself.
 */
export function ratioToCallfold(
  result: PeersResult,
  cell: Cell,
): { value: number; atLeast: boolean } {
  const base = cpuOf(callfoldOf(result, cell));
  if (cell.over !== undefined)
    return { value: (result.options.limitS * 1000) / base, atLeast: true };
  return { value: cpuOf(cell) / base, atLeast: false };
}

const fmtMs = (ms: number): string =>
  Number.isNaN(ms)
    ? '–'
    : ms >= 10_000
      ? `${(ms / 1000).toFixed(1)} s`
      : `${ms.toFixed(ms < 100 ? 1 : 0)} ms`;

/** The table: a row per contestant, per scenario its median CPU and × callfold, then growth. */
export function peersTable(result: PeersResult, format: 'text' | 'markdown' = 'text'): string {
  const names = [...new Set(result.cells.map((c) => c.contestant.name))];
  const writes = result.scenarios.filter((s) => s.startsWith('write-'));
  const first = writes[0];
  const last = writes[writes.length - 1];
  const columns: Column[] = [
    { title: 'contestant' },
    ...result.scenarios.map((s) => ({
      title: s.replace('-', ' ') + (s.startsWith('write') ? ' KiB' : ' calls'),
      align: 'right' as const,
    })),
    { title: `growth ${first?.slice(6)}→${last?.slice(6)} KiB`, align: 'right' },
  ];
  const rows = names.map((name) => {
    const cells = result.scenarios.map((scenario) => {
      const cell = cellOf(result, scenario, name);
      if (cell === undefined) return '';
      const over = `> ${result.options.limitS} s`;
      if (cell.over !== undefined && cell.samples.length === 0) {
        const { value } = ratioToCallfold(result, cell);
        return cell.contestant.name.startsWith('callfold')
          ? over
          : `${over} (> ${value.toFixed(0)}×)`;
      }
      const ms = fmtMs(cpuOf(cell));
      if (cell.contestant.name.startsWith('callfold')) return ms;
      return `${ms} (${ratioToCallfold(result, cell).value.toFixed(1)}×)`;
    });
    const a = cellOf(result, first ?? '', name);
    const b = cellOf(result, last ?? '', name);
    const growth =
      first === last || a === undefined || b === undefined
        ? '–'
        : b.over !== undefined
          ? `> ${((result.options.limitS * 1000) / cpuOf(a)).toFixed(0)}×`
          : `${(cpuOf(b) / cpuOf(a)).toFixed(1)}×`;
    return [name, ...cells, growth];
  });
  if (format === 'text') return textTable(columns, rows);
  const rule = columns.map((c) => (c.align === 'right' ? '---:' : ':---'));
  return [
    `| ${columns.map((c) => c.title).join(' | ')} |`,
    `| ${rule.join(' | ')} |`,
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ].join('\n');
}

/** Issue 29's Node goals, at the largest write. */
export function peersGoals(result: PeersResult): Goal[] {
  const writes = result.scenarios.filter((s) => s.startsWith('write-'));
  const last = writes[writes.length - 1];
  if (last === undefined) return [];
  return result.cells
    .filter(
      (c) =>
        c.scenario === last &&
        !c.contestant.name.startsWith('callfold') &&
        !c.contestant.name.startsWith('floor'),
    )
    .map((cell) => {
      const bound = cell.contestant.name.startsWith('AI SDK') ? 100 : 10;
      const { value, atLeast } = ratioToCallfold(result, cell);
      return goal(
        `${last.slice(6)} KiB: ${cell.contestant.name} CPU ÷ callfold (${cell.contestant.wire})${atLeast ? ', lower bound (over the limit)' : ''}`,
        value,
        { op: '≥', bound, unit: '×', digits: 1 },
      );
    });
}

/**
 * Per write, callfold's CPU on the SSE wire beside the floor's (decoding and parsing that
 * wire and nothing else): how much of callfold's time any client of the wire spends, and
 * what is left for the fold itself.
 */
export function floorLines(result: PeersResult): string[] {
  const lines: string[] = [];
  for (const scenario of result.scenarios) {
    const floor = result.cells.find(
      (c) => c.scenario === scenario && c.contestant.name.startsWith('floor'),
    );
    if (floor === undefined) continue;
    const own = callfoldOf(result, floor);
    const peer = result.cells.find(
      (c) =>
        c.scenario === scenario &&
        c.contestant.wire === floor.contestant.wire &&
        !c.contestant.name.startsWith('floor') &&
        !c.contestant.name.startsWith('callfold'),
    );
    const f = cpuOf(floor);
    const c = cpuOf(own);
    const p = cpuOf(peer);
    lines.push(
      `- ${scenario}: floor ${fmtMs(f)}; callfold (${floor.contestant.wire}) ${fmtMs(c)} = floor + ${fmtMs(c - f)} (${((100 * f) / c).toFixed(0)}% floor)` +
        (peer
          ? `; ${peer.contestant.name} ${fmtMs(p)} = floor + ${fmtMs(p - f)}; ÷ callfold over the floor: ${((p - f) / (c - f)).toFixed(1)}×; the ratio were callfold only the floor: ${(p / f).toFixed(1)}×`
          : ''),
    );
  }
  return lines;
}
