/**
 * fast-check arbitraries for well-formed CallfoldEvents and transcripts.
 *
 * Values are JSON-faithful (no -0, no undefined), so a JSON round trip must give back an
 * equal value. Optional fields are sometimes absent; records sometimes have a null prototype.
 */
import fc from 'fast-check';
import type { CallfoldEvent, CallfoldEventType, MessageBlock } from '../../src/events/types.js';
import type { TranscriptEntry } from '../../src/wire/transcript.js';

/** Strings rich in what a line codec must survive: newlines, CR, U+2028, quotes, surrogates. */
export const text = fc.oneof(
  fc.string({ maxLength: 24 }),
  fc.string({
    unit: fc.constantFrom('a', ' ', '\n', '\r', '\u2028', '"', '\\', '\ud800', '\udc00', '😀', 'é'),
    maxLength: 24,
  }),
);
const id = fc.oneof(
  fc.string({ minLength: 1, maxLength: 8 }),
  text.filter((s) => s !== ''),
);
const noNegativeZero = (x: number) => (x === 0 ? 0 : x);
const number = fc
  .oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }))
  .map(noNegativeZero);
const index = fc.nat({ max: 64 });
const json = fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.parse(JSON.stringify(v)) as unknown);
const argsObject = fc
  .dictionary(text, json, { maxKeys: 5 })
  .map((v) => JSON.parse(JSON.stringify(v)) as Record<string, unknown>);

const textInput = fc.constant('text' as const);
const provider = fc.constant('provider' as const);

const block: fc.Arbitrary<MessageBlock> = fc.oneof(
  fc.record({ type: fc.constantFrom('text' as const, 'reasoning' as const), text }),
  fc.record(
    {
      type: fc.constant('tool-use' as const),
      callId: id,
      name: id,
      argsText: text,
      input: textInput,
      executor: provider,
      providerCallId: id,
      incomplete: fc.boolean(),
    },
    { requiredKeys: ['type', 'callId', 'name', 'argsText'] },
  ),
);

/** One arbitrary per variant, so tests can require that every variant was exercised. */
export const eventsByType: { readonly [K in CallfoldEventType]: fc.Arbitrary<CallfoldEvent> } = {
  'turn/start': fc.record(
    { type: fc.constant('turn/start' as const), seq: number, at: number, turnId: id },
    { requiredKeys: ['type', 'seq', 'turnId'] },
  ),
  'turn/end': fc.record(
    { type: fc.constant('turn/end' as const), seq: number, at: number, turnId: id },
    { requiredKeys: ['type', 'seq', 'turnId'] },
  ),
  'assistant/message': fc.record(
    {
      type: fc.constant('assistant/message' as const),
      seq: number,
      at: number,
      messageId: id,
      attemptId: id,
      blocks: fc.array(block, { maxLength: 4 }),
      stopReason: fc.oneof(
        fc.constantFrom('end', 'tool-calls', 'length', 'content-filter', 'pause', 'error'),
        id,
      ),
    },
    { requiredKeys: ['type', 'seq', 'messageId', 'attemptId', 'blocks'] },
  ),
  'tool/call': fc.oneof(
    fc.record(
      {
        type: fc.constant('tool/call' as const),
        seq: number,
        at: number,
        callId: id,
        name: id,
        args: fc.oneof(text, argsObject),
        executor: provider,
        providerCallId: id,
      },
      { requiredKeys: ['type', 'seq', 'callId', 'name', 'args'] },
    ),
    fc.record(
      {
        type: fc.constant('tool/call' as const),
        seq: number,
        callId: id,
        name: id,
        args: text,
        input: textInput,
      },
      { requiredKeys: ['type', 'seq', 'callId', 'name', 'args', 'input'] },
    ),
  ),
  'tool/result': fc.record(
    {
      type: fc.constant('tool/result' as const),
      seq: number,
      at: number,
      callId: id,
      output: json,
      isError: fc.boolean(),
      executor: provider,
    },
    { requiredKeys: ['type', 'seq', 'callId', 'output'] },
  ),
  'tool/approval-request': fc.record(
    {
      type: fc.constant('tool/approval-request' as const),
      seq: number,
      at: number,
      callId: id,
      approvalId: id,
    },
    { requiredKeys: ['type', 'seq', 'callId'] },
  ),
  'tool/approval': fc.record(
    {
      type: fc.constant('tool/approval' as const),
      seq: number,
      at: number,
      callId: id,
      approved: fc.boolean(),
      reason: text,
      approvalId: id,
    },
    { requiredKeys: ['type', 'seq', 'callId', 'approved'] },
  ),
  'stream/text-delta': fc.record(
    {
      type: fc.constant('stream/text-delta' as const),
      attemptId: id,
      block: index,
      text,
      reasoning: fc.boolean(),
    },
    { requiredKeys: ['type', 'attemptId', 'block', 'text'] },
  ),
  'stream/tool-call-delta': fc.record(
    {
      type: fc.constant('stream/tool-call-delta' as const),
      attemptId: id,
      block: index,
      callId: id,
      name: id,
      args: text,
      input: textInput,
      executor: provider,
      providerCallId: id,
    },
    { requiredKeys: ['type', 'attemptId', 'block', 'callId', 'args'] },
  ),
  'stream/block-end': fc.record(
    {
      type: fc.constant('stream/block-end' as const),
      attemptId: id,
      block: index,
      callId: id,
      text,
      input: textInput,
    },
    { requiredKeys: ['type', 'attemptId', 'block', 'text'] },
  ),
  'stream/settle': fc.record({ type: fc.constant('stream/settle' as const), attemptId: id }),
};

export const event: fc.Arbitrary<CallfoldEvent> = fc.oneof(...Object.values(eventsByType));

/** Entries with non-decreasing times from 0, as a recorder writes them. */
export const entries: fc.Arbitrary<TranscriptEntry[]> = fc
  .array(fc.tuple(fc.double({ min: 0, max: 1e12, noNaN: true }).map(noNegativeZero), event), {
    maxLength: 12,
  })
  .map((pairs) => {
    const times = pairs.map(([at]) => at).sort((a, b) => a - b);
    return pairs.map(([, e], i) => ({ at: times[i]!, event: e }));
  });

/** Sorted cut positions within a text of `length` units. */
export function cuts(length: number): fc.Arbitrary<number[]> {
  return fc
    .array(fc.nat({ max: length }), { maxLength: 16 })
    .map((points) => [...new Set(points)].sort((a, b) => a - b));
}

/** `text` cut at `points`, in order; empty pieces included where points repeat an edge. */
export function split(text: string, points: readonly number[]): string[] {
  const pieces: string[] = [];
  let start = 0;
  for (const point of points) {
    pieces.push(text.slice(start, point));
    start = point;
  }
  pieces.push(text.slice(start));
  return pieces;
}

/** `text` cut at any offsets: wrapped into its length, deduplicated and sorted, then `split`. */
export function cutAt(text: string, offsets: readonly number[]): string[] {
  const points = new Set(offsets.map((offset) => offset % (text.length + 1)));
  const sorted = [...points].sort((a, b) => a - b);
  return split(text, sorted);
}
