/**
 * Small agent sessions for the RxJS tests: a few calls on two attempts, so that random
 * sequences hit naming, dispatch, results, settles and assistant text.
 */
import fc from 'fast-check';
import type { Conversation } from '../../src/conversation/conversation.js';
import type { CallfoldEvent, ToolCallEvent, ToolResultEvent } from '../../src/events/types.js';

export const delta = (
  callId: string,
  args: string,
  name?: string,
  attemptId = 'a1',
): CallfoldEvent =>
  name === undefined
    ? { type: 'stream/tool-call-delta', attemptId, block: 0, callId, args }
    : { type: 'stream/tool-call-delta', attemptId, block: 0, callId, name, args };
export const call = (seq: number, callId: string, args = '{}'): ToolCallEvent => ({
  type: 'tool/call',
  seq,
  callId,
  name: 'Read',
  args,
});
export const result = (seq: number, callId: string): ToolResultEvent => ({
  type: 'tool/result',
  seq,
  callId,
  output: 'ok',
});
export const text = (value: string, attemptId = 'a1'): CallfoldEvent => ({
  type: 'stream/text-delta',
  attemptId,
  block: 1,
  text: value,
});
export const settle = (attemptId = 'a1'): CallfoldEvent => ({ type: 'stream/settle', attemptId });

const callId = fc.constantFrom('c0', 'c1', 'c2');
const attemptId = fc.constantFrom('a1', 'a2');

/** One event without seq; `numbered` gives durable ones increasing seqs. */
const step: fc.Arbitrary<CallfoldEvent> = fc.oneof(
  fc
    .tuple(callId, fc.constantFrom('{"file_path":"a', 'b', '"}', ''), fc.boolean(), attemptId)
    .map(([id, args, named, attempt]) => delta(id, args, named ? 'Read' : undefined, attempt)),
  callId.map((id) => call(0, id)),
  callId.map((id) => result(0, id)),
  fc.tuple(fc.constantFrom('Hello', ' world'), attemptId).map(([value, a]) => text(value, a)),
  attemptId.map(settle),
);

function numbered(events: readonly CallfoldEvent[]): CallfoldEvent[] {
  let seq = 0;
  return events.map((event) => ('seq' in event ? { ...event, seq: ++seq } : event));
}

/** A session as ticks: each tick holds the events that arrive in it (maybe none). */
export const ticks: fc.Arbitrary<CallfoldEvent[][]> = fc
  .array(fc.array(step, { maxLength: 4 }), { minLength: 1, maxLength: 10 })
  .map((groups) => {
    const flat = numbered(groups.flat());
    let i = 0;
    return groups.map((group) => group.map(() => flat[i++] as CallfoldEvent));
  });

/** What a Conversation shows, as plain data, to compare Conversations of two Assemblers. */
export function shape(conversation: Conversation): unknown {
  return conversation.items.map((item) =>
    item.kind === 'group'
      ? item.tools.map((tool) => [tool.callId, tool.name, tool.stage, tool.argsRaw])
      : item.kind,
  );
}
