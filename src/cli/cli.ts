import { parseFlags, readSettings, UsageError, usage } from './probe/cli-options.js';
import type { ProbeFetch } from './probe/host.js';
import { formatProgress } from './probe/progress.js';
import { formatProbeTable, type ProbeReport } from './probe/report.js';
import { type ProbeProgress, runProbe } from './probe/run-probe.js';

/**
 * What the CLI needs from its host; `bin/callfold.mjs` passes Node's. Everything the CLI
 * prints or writes goes through here, after the key is redacted.
 */
export interface CliIo {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly stderrIsTTY?: boolean;
  readonly writeFile: (path: string, text: string) => Promise<void>;
  readonly fetch?: ProbeFetch;
  readonly now?: () => number;
  /** Registers a handler for the first interrupt (Ctrl-C): the run stops and reports. */
  readonly onInterrupt?: (handler: () => void) => void;
}

const generalUsage = `Usage: callfold <command>

Commands:
  probe   measure which argument a model writes first, per tool schema variant

Run "callfold probe --help" for its options.
`;

function elapsed(ms: number): string {
  const seconds = Math.round(ms / 1000);
  return seconds < 60 ? `${seconds}s` : `${Math.floor(seconds / 60)}m ${seconds % 60}s`;
}

/**
 * The `callfold` command line. Returns the exit status: 0 when the run finished (some
 * requests may have failed: see the table), 1 when it stopped on an error that every request
 * would hit (401, 403, 404) or could not write its report, 2 for a usage error, 130 when
 * interrupted.
 */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  let redact = (text: string) => text;
  const out = (text: string) => io.stdout(redact(text));
  const err = (text: string) => io.stderr(redact(text));

  const [command, ...rest] = argv;
  if (command === undefined || command === '-h' || command === '--help' || command === 'help') {
    out(generalUsage);
    return command === undefined ? 2 : 0;
  }
  if (command !== 'probe') {
    err(`callfold: unknown command "${command}"\n\n${generalUsage}`);
    return 2;
  }

  let settings: ReturnType<typeof readSettings>;
  try {
    const flags = parseFlags(rest);
    if (flags.has('help')) {
      out(usage);
      return 0;
    }
    settings = readSettings(flags, io.env, io.now ?? Date.now);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    err(`callfold probe: ${error.message}\nRun "callfold probe --help" for usage.\n`);
    return 2;
  }
  const { apiKey, reportPath, ...options } = settings;
  if (apiKey !== undefined) redact = (text) => text.split(apiKey).join('[redacted key]');

  let interrupted = false;
  io.onInterrupt?.(() => {
    interrupted = true;
  });
  const now = io.now ?? Date.now;
  const started = now();
  let shownTenth = -1;
  const onProgress = (progress: ProbeProgress) => {
    if (io.stderrIsTTY) {
      err(`\r${formatProgress(progress)}\u001b[K`);
      return;
    }
    const tenth = progress.total === 0 ? 10 : Math.floor((progress.done / progress.total) * 10);
    if (tenth !== shownTenth) {
      shownTenth = tenth;
      err(`${formatProgress(progress)}\n`);
    }
  };

  const tools = options.tools.join(', ');
  err(
    `callfold probe: ${options.provider} ${options.model}, ${options.n} x ${options.tools.length} tools (${tools}) x ${options.variants.length} variants x ${options.choices.length} choices\n`,
  );
  const report: ProbeReport = await runProbe({
    ...options,
    ...(apiKey === undefined ? {} : { apiKey }),
    ...(io.fetch === undefined ? {} : { fetch: io.fetch }),
    now,
    onProgress,
    shouldStop: () => (interrupted ? 'interrupted' : undefined),
  });
  if (io.stderrIsTTY) err('\r\u001b[K');

  out(formatProbeTable(report));
  const { totals } = report;
  const summary = [
    `${totals.done}/${totals.requests} requests in ${elapsed(now() - started)}`,
    `${totals.attempts} attempts`,
    `${totals.retries} ${totals.retries === 1 ? 'retry' : 'retries'}`,
    `${totals.errors} error${totals.errors === 1 ? '' : 's'}`,
  ];
  err(`${summary.join(' · ')}\n`);
  const reasons = new Map<string, number>();
  for (const cell of report.cells) {
    for (const { outcome } of cell.samples) {
      if (outcome.kind === 'error')
        reasons.set(outcome.error, (reasons.get(outcome.error) ?? 0) + 1);
    }
  }
  const common = [...reasons].sort((a, b) => b[1] - a[1]).slice(0, 5);
  for (const [reason, count] of common) err(`  ${count} x ${reason}\n`);
  if (report.stopped !== undefined) err(`stopped early: ${report.stopped}\n`);

  let status = report.stopped === undefined ? 0 : interrupted ? 130 : 1;
  if (reportPath !== undefined) {
    try {
      await io.writeFile(reportPath, redact(`${JSON.stringify(report, null, 2)}\n`));
      err(`report: ${reportPath}\n`);
    } catch (error) {
      err(`callfold probe: could not write the report to ${reportPath}: ${String(error)}\n`);
      status = status === 0 ? 1 : status;
    }
  }
  return status;
}
