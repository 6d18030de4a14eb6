import { spawn } from 'node:child_process';

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

/** Runs `count` fresh workers in sequence and returns every report. */
export async function runWorkers<Report>(run: WorkerRun, count: number): Promise<Report[]> {
  const reports: Report[] = [];
  for (let i = 0; i < count; i++) reports.push(await runWorker<Report>(run));
  return reports;
}
