import { type BuiltinToolName, builtinTools } from '../../schema/builtin-tools.js';
import { wires } from './run-probe.js';
import { type VariantName, variantNames } from './variants.js';
import type { ProviderName, ToolChoice } from './wire.js';

export const usage = `Usage: callfold probe --model NAME [options]

Measures which argument a model writes first for each tool schema variant (the experiment
of callfold's decision record 0002, docs/decisions/) against an OpenAI-compatible or Anthropic endpoint,
then prints the table and writes a JSON report.

Options:
  --provider openai|anthropic  wire format (default: openai)
  --base-url URL               default: https://api.openai.com/v1 (openai),
                               https://api.anthropic.com (anthropic)
  --model NAME                 the model to probe (required)
  --n N                        requests per cell, a cell being tool x variant x choice
                               (default: 10)
  --tools LIST                 comma-separated from bash,pwsh,run_code,write,edit,read,
                               or all (default: bash,run_code,write,edit)
  --variants LIST              comma-separated from baseline,properties,required,sentence
                               (default: all four)
  --choice free|forced|both    tool_choice auto, forced to the tool, or both (default: both)
  --concurrency N              requests in flight (default: 4)
  --timeout DURATION           per attempt, e.g. 90s, 500ms, 2m (default: 120s)
  --retries N                  retries after 408/409/425/429/5xx, timeouts and network
                               errors (default: 4)
  --backoff DURATION           first retry delay, doubling with jitter (default: 1s)
  --max-tokens N               Anthropic max_tokens (default: 1024)
  --key-env NAME               the environment variable holding the key
                               (default: OPENAI_API_KEY or ANTHROPIC_API_KEY)
  --report PATH                where to write the JSON report
                               (default: callfold-probe-<time>.json)
  --no-report                  write no report
  -h, --help                   show this help

The key is read from the environment only, sent only in the provider's auth header, and
never printed or written. A server on localhost, 127.x or [::1] may run without a key.
`;

const valueFlags = new Set([
  'provider',
  'base-url',
  'model',
  'n',
  'concurrency',
  'timeout',
  'retries',
  'backoff',
  'tools',
  'variants',
  'choice',
  'max-tokens',
  'key-env',
  'report',
]);
const booleanFlags = new Set(['help', 'no-report']);

/** A bad command line: printed with a pointer to `--help`, exit status 2. */
export class UsageError extends Error {}

export function parseFlags(args: readonly string[]): Map<string, string> {
  const flags = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '-h') {
      flags.set('help', '');
      continue;
    }
    if (!arg.startsWith('--')) throw new UsageError(`unexpected argument "${arg}"`);
    const equals = arg.indexOf('=');
    const name = arg.slice(2, equals < 0 ? undefined : equals);
    if (booleanFlags.has(name)) {
      if (equals >= 0) throw new UsageError(`--${name} takes no value`);
      flags.set(name, '');
    } else if (valueFlags.has(name)) {
      const value = equals >= 0 ? arg.slice(equals + 1) : args[++i];
      if (value === undefined) throw new UsageError(`--${name} needs a value`);
      flags.set(name, value);
    } else throw new UsageError(`unknown option --${name}`);
  }
  return flags;
}

function integer(flags: Map<string, string>, name: string, fallback: number, min: number): number {
  const text = flags.get(name);
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min) {
    throw new UsageError(`--${name} must be a whole number of at least ${min}, got "${text}"`);
  }
  return value;
}

/** `90`, `90s`, `500ms`, `2m` (no unit: seconds). */
function duration(flags: Map<string, string>, name: string, fallbackMs: number, minMs = 0): number {
  const text = flags.get(name);
  if (text === undefined) return fallbackMs;
  const match = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(text);
  if (match === null)
    throw new UsageError(`--${name} must be a duration like 90s or 500ms, got "${text}"`);
  const unit = match[2] === 'ms' ? 1 : match[2] === 'm' ? 60_000 : 1000;
  const ms = Math.round(Number(match[1]) * unit);
  if (ms < minMs) throw new UsageError(`--${name} must be at least ${minMs} ms, got "${text}"`);
  return ms;
}

function list<T extends string>(
  flags: Map<string, string>,
  name: string,
  allowed: readonly T[],
  fallback: readonly T[],
): T[] {
  const text = flags.get(name);
  if (text === undefined) return [...fallback];
  if (text === 'all') return [...allowed];
  const items = text
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
  for (const item of items) {
    if (!(allowed as readonly string[]).includes(item)) {
      throw new UsageError(`--${name}: unknown "${item}"; choose from ${allowed.join(', ')}`);
    }
  }
  if (items.length === 0) throw new UsageError(`--${name} is empty`);
  return [...new Set(items)] as T[];
}

const loopback = /^https?:\/\/(localhost|127\.\d{1,3}\.\d{1,3}\.\d{1,3}|\[::1\])(:\d+)?(\/|$)/i;

/**
 * The probe's settings from parsed flags, with defaults; the key from the environment
 * (`--key-env`, else the provider's usual variable). Throws a UsageError.
 */
export function readSettings(
  flags: Map<string, string>,
  env: Readonly<Record<string, string | undefined>>,
  now: () => number,
) {
  const provider = (flags.get('provider') ?? 'openai') as ProviderName;
  if (provider !== 'openai' && provider !== 'anthropic') {
    throw new UsageError(`--provider must be openai or anthropic, got "${provider}"`);
  }
  const wire = wires[provider];
  const model = flags.get('model');
  if (model === undefined || model === '') throw new UsageError('--model is required');
  const baseUrl = flags.get('base-url') ?? wire.defaultBaseUrl;
  if (!/^https?:\/\//i.test(baseUrl)) throw new UsageError('--base-url must be an http(s) URL');
  const choice = flags.get('choice') ?? 'both';
  if (choice !== 'free' && choice !== 'forced' && choice !== 'both') {
    throw new UsageError(`--choice must be free, forced or both, got "${choice}"`);
  }
  let reportPath: string | undefined = flags.get('report');
  if (flags.has('no-report')) {
    if (reportPath !== undefined) throw new UsageError('--report and --no-report conflict');
  } else {
    const time = new Date(now()).toISOString().replace(/[:.]/g, '-');
    reportPath ??= `callfold-probe-${time}.json`;
  }
  const settings = {
    provider,
    model,
    baseUrl,
    reportPath,
    n: integer(flags, 'n', 10, 1),
    tools: list(flags, 'tools', Object.keys(builtinTools) as BuiltinToolName[], [
      'bash',
      'run_code',
      'write',
      'edit',
    ]),
    variants: list<VariantName>(flags, 'variants', variantNames, variantNames),
    choices: (choice === 'both' ? ['free', 'forced'] : [choice]) as ToolChoice[],
    concurrency: integer(flags, 'concurrency', 4, 1),
    timeoutMs: duration(flags, 'timeout', 120_000, 1),
    retries: integer(flags, 'retries', 4, 0),
    backoffMs: duration(flags, 'backoff', 1000),
    maxTokens: integer(flags, 'max-tokens', 1024, 1),
  };

  const keyVariable = flags.get('key-env') ?? wire.keyVariable;
  const key = env[keyVariable];
  const apiKey = key === undefined || key === '' ? undefined : key;
  if (apiKey === undefined && !loopback.test(baseUrl)) {
    throw new UsageError(
      `set ${keyVariable} to the API key (or name another variable with --key-env)`,
    );
  }
  return { ...settings, apiKey };
}
