import type { ScriptAttempt } from '../session-script.js';

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

/** Whether the response dispatched any tool call (its stop reason). */
export function hasCalls(attempt: ScriptAttempt): boolean {
  return attempt.records.some(({ event }) => event.type === 'tool/call');
}

/** When the response's first chunk goes out: its first event, or its end for an empty one. */
export function firstAt(attempt: ScriptAttempt): number {
  return attempt.stream[0]?.at ?? attempt.end;
}
