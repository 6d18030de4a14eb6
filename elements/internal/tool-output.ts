import { isRecord } from './is-record.js';

/** A tool result as a row shows it: text, and the exit code when the output carries one. */
export interface OutputView {
  readonly text: string;
  readonly exitCode: number | undefined;
}

const EXIT_FIELDS = ['exitCode', 'exit_code', 'returncode', 'returnCode', 'exitStatus', 'status'];
const TEXT_FIELDS = ['output', 'stdout', 'stderr', 'content', 'text', 'result', 'message', 'error'];
/** "Exit code: 1", "exit status 2", "Process exited with code 127", on the first or last line. */
const EXIT_LINE =
  /^(?:exit(?:ed)?(?: with)?(?: code| status)|process exited with code)[:=]?\s*(-?\d+)\b/i;

/** The note shown for an output that cannot be written as text, from the row's labels. */
type NotShown = (reason: string | undefined) => string;

/**
 * JSON text of any value, never throwing: indented when `JSON.stringify` can write it; a
 * note for a value it cannot (a cycle, a BigInt, nesting past the engine's stack).
 */
function json(value: unknown, notShown: NotShown): string {
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch (error) {
    return notShown(error instanceof Error ? error.message : undefined);
  }
}

/** Content blocks (MCP, Anthropic): their text joined; other blocks by type. */
function blocksText(blocks: readonly unknown[]): string | undefined {
  if (!blocks.every((block) => isRecord(block) && typeof block.type === 'string')) return undefined;
  return (blocks as Record<string, unknown>[])
    .map((block) => (typeof block.text === 'string' ? block.text : `[${String(block.type)}]`))
    .join('\n');
}

function exitLine(text: string): number | undefined {
  const first = text.slice(0, 200).split('\n', 1)[0] ?? '';
  const lastBreak = text.lastIndexOf('\n', text.length - 2);
  const last = text.slice(lastBreak + 1, lastBreak + 201).trim();
  const match = EXIT_LINE.exec(first.trim()) ?? EXIT_LINE.exec(last);
  return match ? Number(match[1]) : undefined;
}

function recordView(record: Record<string, unknown>, notShown: NotShown): OutputView {
  let exitCode: number | undefined;
  for (const field of EXIT_FIELDS) {
    const value = Object.hasOwn(record, field) ? record[field] : undefined;
    if (typeof value === 'number' && Number.isInteger(value)) {
      exitCode = value;
      break;
    }
  }
  const parts: string[] = [];
  for (const field of TEXT_FIELDS) {
    const value = Object.hasOwn(record, field) ? record[field] : undefined;
    if (typeof value === 'string' && value.length > 0) parts.push(value);
    else if (Array.isArray(value)) {
      const text = blocksText(value);
      if (text !== undefined) parts.push(text);
    }
  }
  const text = parts.length > 0 ? parts.join('\n') : json(record, notShown);
  return { text, exitCode: exitCode ?? (parts.length > 0 ? exitLine(text) : undefined) };
}

/**
 * What a row shows of a tool's output, which may be anything: a string as it is; content
 * blocks (`[{ type: 'text', text }]`) as their text; an object with `stdout`, `stderr`,
 * `output`, `content`… as those strings joined, with an integer `exitCode`, `exit_code` or
 * `returncode` as the exit code; anything else as JSON. A text whose first or last line reads
 * "Exit code: N" gives that code. The result is only ever rendered as text. `notShown` writes
 * the note for an output JSON cannot write (the labels' `outputNotShown`).
 */
export function outputView(output: unknown, notShown: NotShown): OutputView {
  if (typeof output === 'string') return { text: output, exitCode: exitLine(output) };
  if (output === undefined || output === null) return { text: '', exitCode: undefined };
  if (Array.isArray(output)) {
    return { text: blocksText(output) ?? json(output, notShown), exitCode: undefined };
  }
  if (isRecord(output)) return recordView(output, notShown);
  return { text: String(output), exitCode: undefined };
}

/** Views by labels, then by result. */
const views = new WeakMap<NotShown, WeakMap<object, OutputView>>();

/**
 * `outputView` of a published result, computed once per result object (results are frozen)
 * and labels' note.
 */
export function resultView(result: { readonly output: unknown }, notShown: NotShown): OutputView {
  let byResult = views.get(notShown);
  if (byResult === undefined) {
    byResult = new WeakMap();
    views.set(notShown, byResult);
  }
  let view = byResult.get(result);
  if (view === undefined) {
    view = outputView(result.output, notShown);
    byResult.set(result, view);
  }
  return view;
}
