import type { StopReason, ToolResultEvent } from '../../../src/events/types.js';
import type { ScriptAttempt, Timed } from '../session-script.js';

/** One server-sent event message of a provider's response body, at its time in the recording. */
export interface TimedChunk {
  readonly at: number;
  /** The SSE text: `event:` (when the format names events), `data:`, and the blank line. */
  readonly data: string;
}

/**
 * What a response says besides the recording: the model's name and, where the format has
 * it, the creation time (s since the epoch). The demo's own values are `demoResponse`; the
 * fixture generator (`scripts/make-provider-fixtures.mjs`) passes a real model's.
 */
export interface ResponseConstants {
  readonly model: string;
  readonly created: number;
}

/**
 * Writes one recorded model response in a provider's wire format. The demo and the fixture
 * generator share these encoders: each wire format is written in one typed place.
 */
export type Encoder = (attempt: ScriptAttempt, response?: ResponseConstants) => TimedChunk[];

/** An SSE message: `data: <JSON>`, preceded by `event: <name>` when given. */
export function sseMessage(data: unknown, event?: string): string {
  const line = `data: ${JSON.stringify(data)}\n\n`;
  return event === undefined ? line : `event: ${event}\n${line}`;
}

/** The response's model name in every encoded format (the recording is provider-neutral). */
export const MODEL = 'callfold-demo-1';

/** The demo's response constants: its model and a fixed creation time. */
export const demoResponse: ResponseConstants = { model: MODEL, created: 1796029200 };

/** Whether the response dispatched any tool call the host runs (its stop reason). */
export function hasCalls(attempt: ScriptAttempt): boolean {
  return attempt.records.some(
    ({ event }) => event.type === 'tool/call' && event.executor !== 'provider',
  );
}

/** The recorded stop reason of a finished response (`length`: its token limit cut it). */
export function stopReasonOf(attempt: ScriptAttempt): StopReason | undefined {
  for (const { event } of attempt.records) {
    if (event.type === 'assistant/message') return event.stopReason;
  }
  return undefined;
}

/** The callId of the call a token limit cut (the response's `incomplete` tool-use block). */
export function cutCallOf(attempt: ScriptAttempt): string | undefined {
  for (const { event } of attempt.records) {
    if (event.type !== 'assistant/message') continue;
    for (const block of event.blocks) {
      if (block.type === 'tool-use' && block.incomplete) return block.callId;
    }
  }
  return undefined;
}

/** The provider's result of a call it ran in this response, at its time. */
export function providerResultOf(
  attempt: ScriptAttempt,
  callId: string,
): Timed<ToolResultEvent> | undefined {
  for (const record of attempt.records) {
    if (record.event.type === 'tool/result' && record.event.callId === callId) {
      return record as Timed<ToolResultEvent>;
    }
  }
  return undefined;
}

/** When the response's first chunk goes out: its first event, or its end for an empty one. */
export function firstAt(attempt: ScriptAttempt): number {
  return attempt.stream[0]?.at ?? attempt.end;
}
