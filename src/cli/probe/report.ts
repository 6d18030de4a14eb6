import type { BuiltinToolName } from '../../schema/builtin-tools.js';
import type { ObjectJsonSchema } from '../../schema/json-schema.js';
import { type VariantName, variantRows } from './variants.js';
import type { ProviderName, ToolChoice } from './wire.js';

/** One request's result after its retries. */
export type SampleOutcome =
  | { readonly kind: 'call'; readonly name: string; readonly firstKey: string | null }
  | { readonly kind: 'no-call' }
  | { readonly kind: 'error'; readonly error: string; readonly status?: number };

export interface ProbeSample {
  /** Which of the cell's N requests (0-based). */
  readonly index: number;
  readonly outcome: SampleOutcome;
  /** Attempts made, retries included. */
  readonly attempts: number;
  /** Why each retried attempt failed, in order (empty when the first attempt answered). */
  readonly retried: readonly string[];
  /** From the first attempt's start to the answer, backoff included. */
  readonly ms: number;
}

/** One tool × variant × tool choice: N requests. */
export interface ProbeCell {
  readonly tool: BuiltinToolName;
  readonly variant: VariantName;
  readonly choice: ToolChoice;
  /** The field that counts as a hit when it is the first argument key. */
  readonly label: string;
  readonly requested: number;
  /** Requests that finished (fewer than `requested` when the run was stopped). */
  readonly done: number;
  readonly hits: number;
  readonly calls: number;
  readonly noCall: number;
  readonly errors: number;
  /** First argument keys seen, with counts; `(none)` for a call whose arguments had no key. */
  readonly firstKeys: Readonly<Record<string, number>>;
  readonly samples: readonly ProbeSample[];
}

/** The JSON report: settings, what was sent, and every sample. It never holds the key. */
export interface ProbeReport {
  readonly report: 'callfold-probe';
  readonly version: 1;
  readonly provider: ProviderName;
  readonly url: string;
  readonly model: string;
  readonly n: number;
  readonly tools: readonly BuiltinToolName[];
  readonly variants: readonly VariantName[];
  readonly choices: readonly ToolChoice[];
  readonly settings: {
    readonly concurrency: number;
    readonly timeoutMs: number;
    readonly retries: number;
    readonly backoffMs: number;
    readonly maxTokens: number;
  };
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly totals: {
    readonly requests: number;
    readonly done: number;
    readonly attempts: number;
    readonly retries: number;
    readonly errors: number;
  };
  /** Why the run stopped early: a fatal HTTP status, or an interruption. */
  readonly stopped?: string;
  readonly system: string;
  readonly prompts: Readonly<Partial<Record<BuiltinToolName, string>>>;
  /** The argument schema each tool was offered with, per variant. */
  readonly schemas: Readonly<
    Partial<Record<BuiltinToolName, Readonly<Partial<Record<VariantName, ObjectJsonSchema>>>>>
  >;
  readonly cells: readonly ProbeCell[];
}

/** `19/20`, with what was not a call: `17/20 (2 no call, 1 error)`. */
export function formatCell(cell: ProbeCell): string {
  const notes: string[] = [];
  if (cell.noCall > 0) notes.push(`${cell.noCall} no call`);
  if (cell.errors > 0) notes.push(`${cell.errors} error${cell.errors === 1 ? '' : 's'}`);
  const count = `${cell.hits}/${cell.done}`;
  return notes.length === 0 ? count : `${count} (${notes.join(', ')})`;
}

/**
 * The seed's table: a row per variant, a column per tool and tool choice, each cell the
 * calls whose first argument key is the label field, out of the requests that finished.
 */
export function formatProbeTable(report: ProbeReport): string {
  const cells = new Map(
    report.cells.map((cell) => [`${cell.tool}/${cell.variant}/${cell.choice}`, cell]),
  );
  const columns = report.tools.flatMap((tool) =>
    report.choices.map((choice) => ({ tool, choice })),
  );
  const header = ['Variant', 'Change', ...columns.map(({ tool, choice }) => `${tool} ${choice}`)];
  const rows = report.variants.map((variant) => [
    variantRows[variant].title,
    variantRows[variant].change,
    ...columns.map(({ tool, choice }) => {
      const cell = cells.get(`${tool}/${variant}/${choice}`);
      return cell === undefined ? '' : formatCell(cell);
    }),
  ]);
  const widths = header.map((title, i) =>
    Math.max(title.length, ...rows.map((row) => row[i]?.length ?? 0)),
  );
  const line = (row: readonly string[]) =>
    `| ${row.map((text, i) => text.padEnd(widths[i] ?? 0)).join(' | ')} |`;

  const labels = new Map<string, string[]>();
  for (const cell of report.cells) {
    const tools = labels.get(cell.label) ?? [];
    if (!tools.includes(cell.tool)) tools.push(cell.tool);
    labels.set(cell.label, tools);
  }
  const hit = [...labels].map(([label, tools]) => `${label} (${tools.join(', ')})`).join(', ');
  return [
    `callfold probe: ${report.provider} · ${report.model} · ${report.n} requests per cell`,
    `A cell counts the calls whose first argument key is the label field: ${hit}.`,
    '',
    line(header),
    `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`,
    ...rows.map(line),
    '',
  ].join('\n');
}
