import type { ToolCallDeltaEvent } from '../../src/events/types.js';
import { prng } from '../../test/support/prng.js';
import { codeContent, cutFragments, decodedLengthsAt, proseContent } from './content.js';

/**
 * Deterministic inputs of the fold benchmark: tool calls whose argument text streams as
 * `stream/tool-call-delta` events, and the answers a row and a group must show at every
 * publication, computed from the text alone (not through callfold).
 */

/** What a row of the call reads at each publication (elements/README.md, "What a row shows"). */
export type RowKind =
  /** path once `file_path` is complete, and `stringLength('content', { step })`. */
  | 'write'
  /** path once complete, and old + new `stringLength(…, { step })`. */
  | 'edit'
  /** `text('description')`. */
  | 'bash';

export interface StreamedCall {
  readonly callId: string;
  readonly name: string;
  readonly row: RowKind;
  readonly block: number;
  /** The decoded argument values, in text order. */
  readonly values: Readonly<Record<string, string>>;
  /** `JSON.stringify(values)`. */
  readonly text: string;
  /** `text` in 16-unit fragments, each a fresh flat string (see `cutFragments`). */
  readonly fragments: readonly string[];
  /** Per publication: what the row must read (the label text, or undefined before it is complete). */
  readonly expectedLabels: readonly (string | undefined)[];
  /** Per publication: the stepped decoded size the row must read; -1 for none yet / not read. */
  readonly expectedSizes: Int32Array;
  /** The detail a group shows while this call is its latest, once the label is complete. */
  readonly expectedDetail: string;
  /** First publication at which the label is complete. */
  readonly labelCompleteAt: number;
}

export interface FoldInput {
  readonly id: string;
  readonly calls: readonly StreamedCall[];
  /** Every delta, in arrival order; built before anything is timed. */
  readonly events: readonly ToolCallDeltaEvent[];
  /** A publication after every `flushEvery` events, and one after the last event. */
  readonly flushEvery: number;
  readonly publications: number;
  readonly step: number;
}

export const ATTEMPT = 'attempt-1';
export const FRAGMENT = 16;
export const FLUSH_EVERY = 64;
export const STEP = 1024;
/** Shown group details: at most this many grapheme clusters, then "…" (src/tools/detail.ts). */
const DETAIL_CLUSTERS = 160;

interface CallSpec {
  readonly callId: string;
  readonly name: string;
  readonly row: RowKind;
  readonly values: Readonly<Record<string, string>>;
}

/** The label key a row and the group detail read, and the keys whose sizes a row shows. */
function rowKeys(row: RowKind): { label: string; sized: readonly string[] } {
  switch (row) {
    case 'write':
      return { label: 'file_path', sized: ['content'] };
    case 'edit':
      return { label: 'file_path', sized: ['old_string', 'new_string'] };
    case 'bash':
      return { label: 'description', sized: [] };
    default:
      return row satisfies never;
  }
}

/** Independent of callfold: whitespace runs collapsed, trimmed, cut at 160 clusters (ASCII labels only). */
function expectedDetailOf(label: string): string {
  if (!/^[\x20-\x7e]*$/.test(label)) throw new Error('fixture labels must be printable ASCII');
  const text = label.replace(/\s+/g, ' ').trim();
  return text.length <= DETAIL_CLUSTERS ? text : text.slice(0, DETAIL_CLUSTERS) + '…';
}

/** Where the value of a top-level string `key` starts (past its quote) and where its closing quote is. */
function valueRange(text: string, key: string, value: string): { start: number; close: number } {
  const head = `${JSON.stringify(key)}:"`;
  const at = text.indexOf(head);
  if (at === -1) throw new Error(`no ${key} in the fixture text`);
  const start = at + head.length;
  return { start, close: start + JSON.stringify(value).length - 2 };
}

/**
 * Interleaves the calls' fragments round-robin (one fragment of each call in turn; calls
 * that run out drop out) and computes every expected answer at every publication.
 */
function streamCalls(id: string, specs: readonly CallSpec[]): FoldInput {
  const cut = specs.map((spec) => {
    const text = JSON.stringify(spec.values);
    return { spec, text, fragments: cutFragments(text, FRAGMENT) };
  });
  const events: ToolCallDeltaEvent[] = [];
  /** Per call, raw offset received after each event. */
  const received = cut.map(() => 0);
  const offsets: number[][] = cut.map(() => []);
  const longest = Math.max(...cut.map((c) => c.fragments.length));
  let count = 0;
  const afterEvent = () => {
    count++;
    if (count % FLUSH_EVERY === 0)
      for (let c = 0; c < cut.length; c++) offsets[c]!.push(received[c]!);
  };
  for (let f = 0; f < longest; f++) {
    for (let c = 0; c < cut.length; c++) {
      const { spec, fragments } = cut[c]!;
      const fragment = fragments[f];
      if (fragment === undefined) continue;
      events.push({
        type: 'stream/tool-call-delta',
        attemptId: ATTEMPT,
        block: c,
        callId: spec.callId,
        ...(f === 0 ? { name: spec.name } : {}),
        args: fragment,
      });
      received[c]! += fragment.length;
      afterEvent();
    }
  }
  if (count % FLUSH_EVERY !== 0)
    for (let c = 0; c < cut.length; c++) offsets[c]!.push(received[c]!);
  const publications = Math.ceil(count / FLUSH_EVERY);

  const calls = cut.map(({ spec, text, fragments }, c): StreamedCall => {
    const at = offsets[c]!;
    const { label, sized } = rowKeys(spec.row);
    const labelValue = spec.values[label]!;
    const labelRange = valueRange(text, label, labelValue);
    const expectedLabels = at.map((offset) => (offset > labelRange.close ? labelValue : undefined));
    const labelCompleteAt = expectedLabels.findIndex((l) => l !== undefined);
    const expectedSizes = new Int32Array(publications).fill(-1);
    for (const key of sized) {
      const value = spec.values[key]!;
      const range = valueRange(text, key, value);
      const decoded = decodedLengthsAt(text, range.start, at);
      for (let p = 0; p < publications; p++) {
        const offset = at[p]!;
        if (offset < range.start) continue;
        const units = offset > range.close ? value.length : decoded[p]! - (decoded[p]! % STEP);
        expectedSizes[p] = Math.max(0, expectedSizes[p]!) + units;
      }
    }
    return {
      callId: spec.callId,
      name: spec.name,
      row: spec.row,
      block: c,
      values: spec.values,
      text,
      fragments,
      expectedLabels,
      expectedSizes,
      expectedDetail: expectedDetailOf(labelValue),
      labelCompleteAt,
    };
  });
  return { id, calls, events, flushEvery: FLUSH_EVERY, publications, step: STEP };
}

function exactLength(text: string, length: number, filler: string): string {
  return text.length >= length ? text.slice(0, length) : text + filler.repeat(length - text.length);
}

/** One `write` of `contentLength` units, file_path first (bench/README.md, "Fold benchmark"). */
export function writeInput(kind: 'prose' | 'code', contentLength: number): FoldInput {
  const random = prng(0x5eed);
  const content =
    kind === 'prose' ? proseContent(random, contentLength) : codeContent(random, contentLength);
  const path = kind === 'prose' ? '/src/docs/streaming-notes.md' : '/src/arguments/generated.ts';
  return streamCalls(kind === 'prose' ? 'write' : 'write-code', [
    { callId: 'call-write', name: 'write', row: 'write', values: { file_path: path, content } },
  ]);
}

/** A 240-character description, then a `commandLength`-unit command (a heredoc of code). */
export function bashInput(commandLength: number): FoldInput {
  const description = exactLength(
    proseContent(prng(0xba54), 400).replace(/\s+/g, ' ').trim(),
    240,
    '.',
  );
  const head = "cat > /tmp/callfold/generated.ts <<'EOF'\n";
  const tail = '\nEOF\nnode --check /tmp/callfold/generated.ts && wc -c /tmp/callfold/generated.ts';
  const body = codeContent(prng(0xc0de), commandLength - head.length - tail.length);
  const command = head + body + tail;
  if (command.length !== commandLength) throw new Error('bash fixture: wrong command length');
  return streamCalls('bash', [
    { callId: 'call-bash', name: 'bash', row: 'bash', values: { description, command } },
  ]);
}

/** `{"file_path", "old_string", "new_string"}` with code-like strings of `each` units. */
export function editInput(each: number): FoldInput {
  return streamCalls('edit', [
    {
      callId: 'call-edit',
      name: 'edit',
      row: 'edit',
      values: {
        file_path: '/src/arguments/argument-index.ts',
        old_string: codeContent(prng(0xe1), each),
        new_string: codeContent(prng(0xe2), each),
      },
    },
  ]);
}

/** `calls` writes of `each` units whose deltas interleave round-robin; prose and code alternate. */
export function interleavedInput(calls: number, each: number): FoldInput {
  const specs: CallSpec[] = [];
  for (let i = 0; i < calls; i++) {
    const random = prng(0x1000 + i);
    const kind = i % 2 === 0 ? 'prose' : 'code';
    const name = String(i).padStart(2, '0');
    specs.push({
      callId: `call-${name}`,
      name: 'write',
      row: 'write',
      values: {
        file_path: `/src/generated/part-${name}.${kind === 'prose' ? 'md' : 'ts'}`,
        content: kind === 'prose' ? proseContent(random, each) : codeContent(random, each),
      },
    });
  }
  return streamCalls(`interleaved-${calls}`, specs);
}
