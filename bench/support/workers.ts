import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';

/**
 * The parent side of a benchmark: each measurement runs in a fresh `node --expose-gc`
 * process (fresh JIT, fresh heap, honest peak RSS), one after another so that workers
 * never compete for the two cores. A worker prints exactly one report line.
 */
const REPORT_PREFIX = '@@bench-report ';

export function sendReport(report: unknown): void {
  process.stdout.write(REPORT_PREFIX + JSON.stringify(report) + '\n');
}

export interface WorkerRun {
  /** The script to run (usually the benchmark itself, in worker mode). */
  readonly script: string;
  readonly args: readonly string[];
  /** Extra Node flags besides `--expose-gc`. */
  readonly nodeArgs?: readonly string[];
  readonly timeoutMs?: number;
}

export async function runWorker<Report>(run: WorkerRun): Promise<Report> {
  const nodeArgs = ['--expose-gc', ...(run.nodeArgs ?? []), run.script, ...run.args];
  const child = spawn(process.execPath, nodeArgs, { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), run.timeoutMs ?? 300_000);
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  clearTimeout(timer);
  const line = stdout.split('\n').find((l) => l.startsWith(REPORT_PREFIX));
  if (code !== 0 || line === undefined) {
    throw new Error(
      `worker \`node ${nodeArgs.join(' ')}\` failed (exit ${code}):\n${stderr || stdout}`,
    );
  }
  return JSON.parse(line.slice(REPORT_PREFIX.length)) as Report;
}

/** One measurement to repeat in fresh workers, with the label its progress line shows. */
export interface WorkerJob {
  readonly label: string;
  readonly run: WorkerRun;
}

/**
 * Runs `rounds` fresh workers for every job, one at a time, in rounds (one worker per job per
 * round), so a burst of load from other processes spreads over every job instead of skewing
 * one job's figures. Prints a progress line per worker on stderr. Returns each job's reports,
 * in job order, and the highest 1-minute load average seen: with one worker at a time, a load
 * above the core count means other processes competed for the CPU.
 */
export async function runRounds<Report>(
  jobs: readonly WorkerJob[],
  rounds: number,
): Promise<{ reports: Report[][]; maxLoad: number }> {
  const reports = jobs.map((): Report[] => []);
  let maxLoad = loadavg()[0] ?? 0;
  for (let round = 1; round <= rounds; round++) {
    for (const [i, job] of jobs.entries()) {
      maxLoad = Math.max(maxLoad, loadavg()[0] ?? 0);
      process.stderr.write(`  ${round}/${rounds} · ${job.label} …`);
      const t = performance.now();
      reports[i]?.push(await runWorker<Report>(job.run));
      process.stderr.write(` ${((performance.now() - t) / 1000).toFixed(1)} s\n`);
    }
  }
  return { reports, maxLoad: Math.max(maxLoad, loadavg()[0] ?? 0) };
}
