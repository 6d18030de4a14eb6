import type { MessageBlock, SessionEvent } from '../events/types.js';
import type { AdapterRun } from './adapter-run.js';
import { isRecord } from './read-chunk.js';

/** What a fold already recorded: AG-UI message ids of its responses, callIds with a result. */
export interface Known {
  readonly messages: Set<string>;
  readonly results: Set<string>;
}

/**
 * A `MESSAGES_SNAPSHOT` as history: durable events only, never deltas, and only for what
 * the stream has not produced already.
 *
 * 1. An `assistant` message becomes an `assistant/message` (its string `content` a text
 *    block, each of its `toolCalls` a tool-use block) and a `tool/call` per tool call, unless
 *    its id names a response already recorded, or one of its calls is already known to the
 *    session (recorded live, or in the live response: `live(toolCallId)`).
 * 2. A `tool` message becomes a `tool/result` (`output`: its `content`; `isError` when it
 *    carries an `error`), unless the call already has one.
 * 3. A `reasoning` message becomes an `assistant/message` with one reasoning block. Other
 *    roles (user, system, developer, activity) are not the agent's output and are skipped.
 * 4. Non-string arguments are written as JSON; anything that is not an object is skipped.
 */
export function snapshotEvents(
  run: AdapterRun,
  messages: unknown,
  known: Known,
  live: (toolCallId: string) => boolean,
): void {
  if (!Array.isArray(messages)) return;
  const { session } = run;
  const emit = (event: SessionEvent) => run.emit(event);
  for (const message of messages as unknown[]) {
    if (!isRecord(message) || typeof message.id !== 'string' || message.id === '') continue;
    const id = message.id;
    if (message.role === 'tool') {
      const toolCallId = message.toolCallId;
      if (typeof toolCallId !== 'string' || toolCallId === '' || live(toolCallId)) continue;
      const callId = session.callIdOf(toolCallId) ?? toolCallId;
      if (known.results.has(callId)) continue;
      known.results.add(callId);
      const failed = typeof message.error === 'string' && message.error !== '';
      emit(session.result(callId, message.content, failed ? true : undefined));
      continue;
    }
    if (message.role !== 'assistant' && message.role !== 'reasoning') continue;
    if (known.messages.has(id)) continue;
    const calls = Array.isArray(message.toolCalls) ? (message.toolCalls as unknown[]) : [];
    if (calls.some((call) => isRecord(call) && isKnownCall(run, call.id, live))) continue;
    known.messages.add(id);
    const attemptId = session.nextAttemptId();
    const blocks: MessageBlock[] = [];
    if (typeof message.content === 'string' && message.content !== '') {
      blocks.push({
        type: message.role === 'reasoning' ? 'reasoning' : 'text',
        text: message.content,
      });
    }
    const dispatched: {
      callId: string;
      name: string;
      args: string;
      shape: { providerCallId?: string };
    }[] = [];
    if (message.role === 'assistant') {
      for (const call of calls) {
        if (!isRecord(call) || !isRecord(call.function)) continue;
        const { name, arguments: given } = call.function;
        if (typeof name !== 'string' || name === '') continue;
        const text =
          typeof given === 'string' ? given : run.json(given ?? {}, 'tool call arguments');
        if (text === undefined) continue;
        const args = text.trim() === '' ? '{}' : text;
        const providerId = typeof call.id === 'string' && call.id !== '' ? call.id : undefined;
        const callId = session.claimCallId(providerId, `${attemptId}:${blocks.length}`);
        const shape =
          providerId !== undefined && providerId !== callId ? { providerCallId: providerId } : {};
        blocks.push({ type: 'tool-use', callId, name, argsText: args, ...shape });
        dispatched.push({ callId, name, args, shape });
      }
    }
    if (blocks.length === 0) continue;
    emit(
      session.record({
        type: 'assistant/message',
        messageId: id,
        attemptId,
        blocks,
        stopReason: dispatched.length > 0 ? 'tool-calls' : 'end',
      }),
    );
    for (const call of dispatched)
      emit(session.call(call.callId, call.name, call.args, call.shape));
  }
}

function isKnownCall(run: AdapterRun, id: unknown, live: (toolCallId: string) => boolean): boolean {
  return (
    typeof id === 'string' && id !== '' && (live(id) || run.session.callIdOf(id) !== undefined)
  );
}
