import {
  type AssistantMessageEvent,
  type CallfoldEvent,
  isDurableEvent,
  type SessionEvent,
  type StreamEvent,
  type ToolApprovalRequestEvent,
  type ToolCallEvent,
  type ToolResultEvent,
} from '../../src/events/types.js';
import type { TranscriptEntry } from '../../src/wire/transcript.js';

/** An event at its time in the recording, in ms since the session started. */
export interface Timed<E extends CallfoldEvent = CallfoldEvent> {
  readonly at: number;
  readonly event: E;
}

/** One model response (one attempt) of a recorded session, as a provider would stream it. */
export interface ScriptAttempt {
  readonly attemptId: string;
  /** The provider's id of the response: the recorded `assistant/message.messageId`, else the attemptId. */
  readonly messageId: string;
  /** Its text, reasoning and tool-call deltas and block ends, in order (no settle). */
  readonly stream: readonly Timed<Exclude<StreamEvent, { type: 'stream/settle' }>>[];
  /** When it ended: its `assistant/message` (a normal end) or its settle (a cut stream). */
  readonly end: number;
  /** The response ended normally: its records were written. False: the stream was cut. */
  readonly finished: boolean;
  /**
   * Its records, as the adapter must rebuild them: the `assistant/message` and the `tool/call`s
   * of its tool-use blocks, and, for a call the provider ran (`executor: 'provider'`), its
   * `tool/call` and `tool/result` at their times inside the response.
   */
  readonly records: readonly Timed<AssistantMessageEvent | ToolCallEvent | ToolResultEvent>[];
  /**
   * The approval requests for its calls. The host records them (they are host items too); a
   * wire that carries approval requests (the AI SDK's `tool-approval-request`) encodes them.
   * Absent: none.
   */
  readonly approvals?: readonly Timed<ToolApprovalRequestEvent>[];
}

/** What a replay does at one time: a model response streams, or the host records an event. */
export type ScriptItem =
  | { readonly kind: 'attempt'; readonly at: number; readonly attempt: ScriptAttempt }
  | { readonly kind: 'host'; readonly at: number; readonly event: SessionEvent };

/** A recorded session split into model responses and host events, in time order. */
export interface Script {
  readonly entries: readonly TranscriptEntry[];
  readonly items: readonly ScriptItem[];
  /** The time of the last entry. */
  readonly duration: number;
}

/**
 * Splits a transcript into what a provider streams (one attempt per `attemptId`: its stream
 * events, then its `assistant/message` and the `tool/call`s of its tool-use blocks) and what
 * the host records itself (turns, tool results, approvals, and calls it dispatched on its
 * own). A call the provider ran belongs to the response that streamed it, with its result.
 * An attempt takes its place at its first event; a host event at its own time.
 */
export function scriptOf(entries: readonly TranscriptEntry[]): Script {
  const attempts = new Map<string, { at: number; attempt: MutableAttempt }>();
  const callOwner = new Map<string, MutableAttempt>();
  /** The attempt that streamed each call. */
  const streamedBy = new Map<string, MutableAttempt>();
  const items: ScriptItem[] = [];
  const attemptOf = (attemptId: string, at: number): MutableAttempt => {
    let found = attempts.get(attemptId);
    if (!found) {
      const attempt: MutableAttempt = {
        attemptId,
        messageId: attemptId,
        stream: [],
        end: at,
        finished: false,
        records: [],
        approvals: [],
      };
      found = { at, attempt };
      attempts.set(attemptId, found);
      items.push({ kind: 'attempt', at, attempt });
    }
    return found.attempt;
  };
  for (const { at, event } of entries) {
    switch (event.type) {
      case 'stream/tool-call-delta':
        streamedBy.set(event.callId, attemptOf(event.attemptId, at));
        attemptOf(event.attemptId, at).stream.push({ at, event });
        break;
      case 'stream/text-delta':
      case 'stream/block-end':
        attemptOf(event.attemptId, at).stream.push({ at, event });
        break;
      case 'stream/settle': {
        const attempt = attemptOf(event.attemptId, at);
        if (!attempt.finished) attempt.end = at;
        break;
      }
      case 'assistant/message': {
        const attempt = attemptOf(event.attemptId, at);
        attempt.messageId = event.messageId;
        attempt.finished = true;
        attempt.end = at;
        attempt.records.push({ at, event });
        for (const block of event.blocks) {
          if (block.type === 'tool-use') callOwner.set(block.callId, attempt);
        }
        break;
      }
      case 'tool/call': {
        const owner =
          event.executor === 'provider'
            ? streamedBy.get(event.callId)
            : callOwner.get(event.callId);
        if (owner) owner.records.push({ at, event });
        else items.push({ kind: 'host', at, event });
        break;
      }
      case 'tool/result': {
        const owner = event.executor === 'provider' ? streamedBy.get(event.callId) : undefined;
        if (owner) owner.records.push({ at, event });
        else items.push({ kind: 'host', at, event });
        break;
      }
      case 'tool/approval-request':
        callOwner.get(event.callId)?.approvals.push({ at, event });
        items.push({ kind: 'host', at, event });
        break;
      case 'tool/approval':
      case 'turn/start':
      case 'turn/end':
        items.push({ kind: 'host', at, event });
        break;
      default:
        event satisfies never;
    }
  }
  items.sort((a, b) => a.at - b.at);
  return { entries, items, duration: entries.at(-1)?.at ?? 0 };
}

type MutableAttempt = {
  -readonly [K in keyof ScriptAttempt]-?: K extends 'stream' | 'records' | 'approvals'
    ? NonNullable<ScriptAttempt[K]> extends readonly (infer T)[]
      ? T[]
      : never
    : ScriptAttempt[K];
};

/** The durable events of a transcript, without the producer's `at`: what every replay must record. */
export function durableRecords(entries: readonly TranscriptEntry[]): SessionEvent[] {
  return entries.flatMap(({ event }) => (isDurableEvent(event) ? [withoutTime(event)] : []));
}

/** A durable event without its `at` stamp (a Session stamps its own clock). */
export function withoutTime(event: SessionEvent): SessionEvent {
  const { at: _at, ...rest } = event;
  return rest as SessionEvent;
}
