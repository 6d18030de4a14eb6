import type { BuiltinToolName } from '../../schema/builtin-tools.js';
import type { ObjectJsonSchema } from '../../schema/json-schema.js';
import { anthropicWire } from './anthropic-wire.js';
import { attempt } from './attempt.js';
import { hostFetch, type ProbeFetch } from './host.js';
import { openAIWire } from './openai-wire.js';
import type { ProbeCell, ProbeReport, ProbeSample, SampleOutcome } from './report.js';
import {
  builtinVariant,
  labelFields,
  probePrompts,
  probeSystem,
  type VariantName,
} from './variants.js';
import type { ProviderName, ToolChoice, Wire } from './wire.js';

export const wires: Readonly<Record<ProviderName, Wire>> = {
  openai: openAIWire,
  anthropic: anthropicWire,
};

export interface ProbeOptions {
  readonly provider: ProviderName;
  readonly model: string;
  /** Defaults to the provider's public API. */
  readonly baseUrl?: string;
  /** Sent only in the provider's auth header; never reported. Omit for a local server. */
  readonly apiKey?: string;
  /** Requests per cell (tool × variant × tool choice). */
  readonly n: number;
  readonly tools: readonly BuiltinToolName[];
  readonly variants: readonly VariantName[];
  readonly choices: readonly ToolChoice[];
  /** Requests in flight at once. Default 4. */
  readonly concurrency?: number;
  /** Per attempt, from sending to knowing the first key (or the end of the stream). Default 120 s. */
  readonly timeoutMs?: number;
  /** Further attempts after a 408/409/425/429/5xx, a timeout, a network error or a transient error event. Default 4. */
  readonly retries?: number;
  /** First backoff; doubles per retry, with jitter; `retry-after(-ms)` wins when sent. Default 1 s. */
  readonly backoffMs?: number;
  /** Anthropic's required `max_tokens`. Default 1024. */
  readonly maxTokens?: number;
  readonly fetch?: ProbeFetch;
  readonly now?: () => number;
  readonly random?: () => number;
  readonly onProgress?: (progress: ProbeProgress) => void;
  /** Asked before each request: a reason to stop (requests in flight finish), or undefined. */
  readonly shouldStop?: () => string | undefined;
}

export interface ProbeProgress {
  readonly total: number;
  readonly done: number;
  readonly running: number;
  readonly retries: number;
  readonly errors: number;
}

interface Job {
  readonly cell: MutableCell;
  readonly index: number;
  readonly body: string;
}

interface MutableCell {
  tool: BuiltinToolName;
  variant: VariantName;
  choice: ToolChoice;
  label: string;
  samples: ProbeSample[];
}

const maxBackoffMs = 60_000;

/**
 * Runs the experiment of decision record 0002 (`docs/decisions/0002-lazy-arguments-and-argument-order.md`): for each
 * tool, variant and tool choice, `n`
 * streamed requests offering that one tool, recording the first argument key of the first
 * call. Reading stops as soon as that key is known.
 *
 * Requests go out sample by sample across all cells (so a stopped run has even cells), at
 * most `concurrency` at a time. A 401, 403 or 404 stops the run: every later request would
 * fail the same way.
 */
export async function runProbe(options: ProbeOptions): Promise<ProbeReport> {
  const wire = wires[options.provider];
  const fetch = options.fetch ?? hostFetch();
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  const concurrency = Math.max(1, options.concurrency ?? 4);
  const timeoutMs = options.timeoutMs ?? 120_000;
  const retries = options.retries ?? 4;
  const backoffMs = options.backoffMs ?? 1000;
  const maxTokens = options.maxTokens ?? 1024;
  const url = wire.url(options.baseUrl ?? wire.defaultBaseUrl);
  const headers = wire.headers(options.apiKey);
  const startedAt = now();

  const schemas: Partial<Record<BuiltinToolName, Partial<Record<VariantName, ObjectJsonSchema>>>> =
    {};
  const cells: MutableCell[] = [];
  const bodies = new Map<MutableCell, string>();
  for (const tool of options.tools) {
    const perVariant: Partial<Record<VariantName, ObjectJsonSchema>> = {};
    schemas[tool] = perVariant;
    for (const variant of options.variants) {
      const offered = builtinVariant(tool, variant);
      perVariant[variant] = offered.jsonSchema;
      for (const choice of options.choices) {
        const cell: MutableCell = { tool, variant, choice, label: labelFields[tool], samples: [] };
        cells.push(cell);
        const request = {
          model: options.model,
          system: probeSystem,
          prompt: probePrompts[tool],
          tool: offered,
          choice,
          maxTokens,
        };
        bodies.set(cell, JSON.stringify(wire.body(request)));
      }
    }
  }
  const jobs: Job[] = [];
  for (let index = 0; index < options.n; index++) {
    for (const cell of cells) jobs.push({ cell, index, body: bodies.get(cell) as string });
  }

  let next = 0;
  let running = 0;
  let done = 0;
  let attempts = 0;
  let retried = 0;
  let errors = 0;
  let stopped: string | undefined;
  const progress = () =>
    options.onProgress?.({ total: jobs.length, done, running, retries: retried, errors });

  async function sample(job: Job): Promise<ProbeSample> {
    const start = now();
    const retriedBecause: string[] = [];
    for (let made = 1; ; made++) {
      attempts++;
      const result = await attempt(fetch, { url, headers, body: job.body, wire, timeoutMs, now });
      if (result.kind === 'retry' && made <= retries && stopped === undefined) {
        retried++;
        retriedBecause.push(result.error);
        progress();
        const base = backoffMs * 2 ** (made - 1);
        const jittered = base / 2 + (random() * base) / 2;
        await sleep(Math.min(maxBackoffMs, result.afterMs ?? jittered));
        continue;
      }
      let outcome: SampleOutcome;
      if (result.kind === 'outcome') outcome = result.outcome;
      else {
        if (result.kind === 'fatal') stopped ??= result.error;
        outcome =
          result.status === undefined
            ? { kind: 'error', error: result.error }
            : { kind: 'error', error: result.error, status: result.status };
      }
      return {
        index: job.index,
        outcome,
        attempts: made,
        retried: retriedBecause,
        ms: now() - start,
      };
    }
  }

  async function worker(): Promise<void> {
    while (stopped === undefined && next < jobs.length) {
      const reason = options.shouldStop?.();
      if (reason !== undefined) {
        stopped = reason;
        break;
      }
      const job = jobs[next++] as Job;
      running++;
      progress();
      const result = await sample(job);
      running--;
      done++;
      if (result.outcome.kind === 'error') errors++;
      job.cell.samples.push(result);
      progress();
    }
  }

  await Promise.all(Array.from({ length: Math.min(concurrency, jobs.length) }, worker));

  const report: ProbeReport = {
    report: 'callfold-probe',
    version: 1,
    provider: options.provider,
    url,
    model: options.model,
    n: options.n,
    tools: [...options.tools],
    variants: [...options.variants],
    choices: [...options.choices],
    settings: { concurrency, timeoutMs, retries, backoffMs, maxTokens },
    startedAt: new Date(startedAt).toISOString(),
    finishedAt: new Date(now()).toISOString(),
    totals: { requests: jobs.length, done, attempts, retries: retried, errors },
    ...(stopped === undefined ? {} : { stopped }),
    system: probeSystem,
    prompts: Object.fromEntries(options.tools.map((tool) => [tool, probePrompts[tool]])),
    schemas,
    cells: cells.map((cell) => summarize(cell, options.n)),
  };
  return report;
}

function summarize(cell: MutableCell, requested: number): ProbeCell {
  const samples = [...cell.samples].sort((a, b) => a.index - b.index);
  const firstKeys: Record<string, number> = {};
  let hits = 0;
  let calls = 0;
  let noCall = 0;
  let errors = 0;
  for (const { outcome } of samples) {
    if (outcome.kind === 'call') {
      calls++;
      if (outcome.firstKey === cell.label) hits++;
      const key = outcome.firstKey ?? '(none)';
      Object.defineProperty(firstKeys, key, {
        value: (Object.hasOwn(firstKeys, key) ? (firstKeys[key] as number) : 0) + 1,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    } else if (outcome.kind === 'no-call') noCall++;
    else errors++;
  }
  return {
    tool: cell.tool,
    variant: cell.variant,
    choice: cell.choice,
    label: cell.label,
    requested,
    done: samples.length,
    hits,
    calls,
    noCall,
    errors,
    firstKeys,
    samples,
  };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
