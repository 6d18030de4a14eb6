/**
 * The AG-UI events `toAGUI()` writes, typed here so that callfold needs no runtime
 * dependency on `@ag-ui/core`: each shape is a subset of the event of the same `type` in
 * `@ag-ui/core` (`sdks/typescript/packages/core/src/events.ts`), and the tests validate every
 * event written against `@ag-ui/core`'s own schemas (`EventSchemas`).
 *
 * `metadata.callfold` carries what AG-UI has no field for (the attemptId, a call's
 * `executor`/`input`/`providerCallId`, a structured or failed tool output); AG-UI clients
 * keep `metadata` and ignore what they do not know. `fromAGUI` reads it back.
 */
export type AGUIEvent =
  | AGUIRunStarted
  | AGUIRunFinished
  | AGUIRunError
  | AGUITextMessageStart
  | AGUIMessageContent
  | AGUIMessageEnd
  | AGUIReasoningMessageStart
  | AGUIToolCallStart
  | AGUIToolCallArgs
  | AGUIToolCallEnd
  | AGUIToolCallResult
  | AGUICustom;

/** What every AG-UI event may carry. */
export interface AGUIBase {
  readonly timestamp?: number;
  readonly metadata?: { readonly callfold?: CallfoldMetadata } & Record<string, unknown>;
}

/** callfold's own fields on an AG-UI event (see `AGUIEvent`). */
export interface CallfoldMetadata {
  /** The attempt a message or call belongs to. */
  readonly attemptId?: string;
  readonly executor?: 'provider';
  readonly input?: 'text';
  readonly providerCallId?: string;
  /** `TOOL_CALL_RESULT.content` is the output written as JSON (it was not a string). */
  readonly json?: true;
  readonly isError?: true;
  /** A run that stands for no turn of the session (no `turn/start`/`turn/end`). */
  readonly synthetic?: true;
  /** `TOOL_CALL_END`: the call's authoritative argument text, when it is not its `ARGS` joined. */
  readonly text?: string;
}

export interface AGUIRunStarted extends AGUIBase {
  readonly type: 'RUN_STARTED';
  readonly threadId: string;
  readonly runId: string;
  readonly input?: {
    readonly threadId: string;
    readonly runId: string;
    readonly state: Record<string, never>;
    readonly messages: readonly { id: string; role: 'user'; content: string }[];
    readonly tools: readonly never[];
    readonly context: readonly never[];
    readonly forwardedProps: Record<string, never>;
  };
}

export interface AGUIRunFinished extends AGUIBase {
  readonly type: 'RUN_FINISHED';
  readonly threadId: string;
  readonly runId: string;
}

export interface AGUIRunError extends AGUIBase {
  readonly type: 'RUN_ERROR';
  readonly message: string;
}

export interface AGUITextMessageStart extends AGUIBase {
  readonly type: 'TEXT_MESSAGE_START';
  readonly messageId: string;
  readonly role: 'assistant';
}

export interface AGUIReasoningMessageStart extends AGUIBase {
  readonly type: 'REASONING_MESSAGE_START';
  readonly messageId: string;
  readonly role: 'reasoning';
}

export interface AGUIMessageContent extends AGUIBase {
  readonly type: 'TEXT_MESSAGE_CONTENT' | 'REASONING_MESSAGE_CONTENT';
  readonly messageId: string;
  readonly delta: string;
}

export interface AGUIMessageEnd extends AGUIBase {
  readonly type: 'TEXT_MESSAGE_END' | 'REASONING_MESSAGE_END';
  readonly messageId: string;
}

export interface AGUIToolCallStart extends AGUIBase {
  readonly type: 'TOOL_CALL_START';
  readonly toolCallId: string;
  readonly toolCallName: string;
  readonly parentMessageId?: string;
}

export interface AGUIToolCallArgs extends AGUIBase {
  readonly type: 'TOOL_CALL_ARGS';
  readonly toolCallId: string;
  readonly delta: string;
}

export interface AGUIToolCallEnd extends AGUIBase {
  readonly type: 'TOOL_CALL_END';
  readonly toolCallId: string;
}

export interface AGUIToolCallResult extends AGUIBase {
  readonly type: 'TOOL_CALL_RESULT';
  readonly messageId: string;
  readonly toolCallId: string;
  readonly content: string;
  readonly role: 'tool';
}

/**
 * callfold's records that AG-UI has no event for, as `CUSTOM` events (AG-UI clients pass
 * them to `onCustomEvent` and otherwise ignore them):
 * - `callfold.message` { attemptId, messageId, stopReason?, incomplete? }: the attempt's
 *   `assistant/message` (its blocks went out as messages and calls);
 * - `callfold.settle` { attemptId }: the attempt was abandoned: its messages and calls are
 *   withdrawn;
 * - `callfold.approval-request` { callId, approvalId? } and `callfold.approval`
 *   { callId, approved, reason?, approvalId? }.
 */
export interface AGUICustom extends AGUIBase {
  readonly type: 'CUSTOM';
  readonly name: string;
  readonly value: Record<string, unknown>;
}
