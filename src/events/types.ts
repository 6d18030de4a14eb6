/**
 * The events callfold folds: durable session records and live stream events, in one stream.
 *
 * These are plain data, checked at the edge by `parseEvent` (validate.ts) when they come from
 * outside the program (a transcript, an SSE connection, a `postMessage`).
 */

/**
 * What every durable event carries.
 *
 * Invariants:
 * 1. `seq` is a finite number, strictly increasing per session: it orders the log, lets a
 *    history page be placed before the events already held, and resumes a connection
 *    (the SSE `id:`).
 * 2. `at`, when present, is the producer's wall-clock time in milliseconds since the Unix
 *    epoch. It is informational: order comes from `seq`, never from `at`.
 */
export type Durable = { seq: number; at?: number };

/** A user turn begins (`turn/start`) or ends (`turn/end`). Durable. */
export type TurnEvent = TurnStartEvent | TurnEndEvent;

/**
 * A user turn begins. Durable.
 *
 * `prompt` (an extension of the design's event model, optional so that older transcripts stay
 * valid) is the user's message that started the turn, as plain text: a `<tool-timeline>`
 * shows it in the turn's separator, as text, never as HTML. Give the text the user typed
 * (not the whole context sent to the model). See docs/decisions/0007-turn-separator.md.
 */
export type TurnStartEvent = Durable & { type: 'turn/start'; turnId: string; prompt?: string };

/** A user turn ends. Durable. */
export type TurnEndEvent = Durable & { type: 'turn/end'; turnId: string };

/**
 * One settled model response, as persisted. Durable.
 *
 * A producer emits it when the attempt `attemptId` finished, before the attempt's
 * `tool/call` records and before `stream/settle`. History pages carry it whole: they never
 * expand a settled message back into deltas.
 */
export type AssistantMessageEvent = Durable & {
  type: 'assistant/message';
  messageId: string;
  attemptId: string;
  blocks: MessageBlock[];
  /**
   * Why the response ended, when the producer knows: `'length'` (token limit) or
   * `'content-filter'` mark a response cut short, whose last tool-use block may be
   * `incomplete`. Absent in transcripts written before it existed.
   */
  stopReason?: StopReason;
};

/**
 * Why a response ended: `'end'` (the model finished), `'tool-calls'` (it stopped to let its
 * calls run), `'length'` (the token limit), `'content-filter'`, `'pause'` (the provider paused
 * a long turn, e.g. Anthropic `pause_turn`), `'error'`, or the provider's own word when it
 * fits none of these.
 */
export type StopReason =
  | 'end'
  | 'tool-calls'
  | 'length'
  | 'content-filter'
  | 'pause'
  | 'error'
  | (string & {});

/**
 * How a call's input is written. Absent: JSON object text (the arguments of a function
 * tool). `'text'`: free-form text (an OpenAI custom tool, e.g. a grammar-constrained patch),
 * which the node's reader shows as one string field, `input`.
 */
export type ToolInput = 'text';

/**
 * Who runs the call. Absent: the host. `'provider'`: the provider ran it (Anthropic server
 * tools, OpenAI Responses hosted tools); its `tool/call` and `tool/result` come from the
 * adapter as soon as the provider reports them, and the host runs nothing.
 */
export type ToolExecutor = 'provider';

/**
 * A tool call was dispatched. Durable; moves the call's node to the `start` stage.
 *
 * `args` is the raw argument text exactly as the model produced it, or an already-parsed
 * object for a programmatic call.
 */
export type ToolCallEvent = Durable & {
  type: 'tool/call';
  callId: string;
  name: string;
  args: string | Record<string, unknown>;
  /** `'text'`: `args` is free-form text, not JSON (always a string then). */
  input?: ToolInput;
  /** `'provider'`: the provider ran the call; the host must not. */
  executor?: ToolExecutor;
  /** The provider's own id for the call, when `callId` had to differ (a reused id). */
  providerCallId?: string;
};

/**
 * A tool call's result. Durable; moves the call's node to the `result` stage.
 *
 * `output` is opaque to callfold and may be any value (absent reads as `undefined`); it must
 * be a JSON value to survive a transcript or SSE round trip. `isError` absent means false.
 * The call it answers may lie outside the loaded window of history.
 */
export type ToolResultEvent = Durable & {
  type: 'tool/result';
  callId: string;
  output: unknown;
  isError?: boolean;
  /** `'provider'`: the provider's own result for a call it ran. */
  executor?: ToolExecutor;
};

/**
 * The call `callId` waits for a human's approval before it may run. Durable; it follows the
 * call's `tool/call` (the arguments are complete). The host must not run the call until a
 * `tool/approval` with `approved: true`. `approvalId` is the provider's id for the request,
 * when it has one (the AI SDK's), to answer it with.
 */
export type ToolApprovalRequestEvent = Durable & {
  type: 'tool/approval-request';
  callId: string;
  approvalId?: string;
};

/**
 * The answer to an approval request. Durable. A denied call (`approved: false`) is never
 * run and gets no result; `reason` is the human's (or the policy's) explanation.
 */
export type ToolApprovalEvent = Durable & {
  type: 'tool/approval';
  callId: string;
  approved: boolean;
  reason?: string;
  approvalId?: string;
};

/** The durable, persisted family: it comes back in history pages. */
export type SessionEvent =
  | TurnEvent
  | AssistantMessageEvent
  | ToolCallEvent
  | ToolResultEvent
  | ToolApprovalRequestEvent
  | ToolApprovalEvent;

/** A block of visible text or of reasoning in a settled assistant message. */
export type TextBlock = { type: 'text' | 'reasoning'; text: string };

/**
 * A tool-use block in a settled assistant message: the call's identity and full argument
 * text (free-form text when `input: 'text'`). `incomplete: true` marks the block the response
 * was cut inside (see `AssistantMessageEvent.stopReason`): that call is never dispatched, and
 * its node stays `preparing` with closed arguments.
 */
export type ToolUseBlock = {
  type: 'tool-use';
  callId: string;
  name: string;
  argsText: string;
  input?: ToolInput;
  executor?: ToolExecutor;
  providerCallId?: string;
  incomplete?: boolean;
};

/** One block of an `assistant/message`, in the order the model produced them. */
export type MessageBlock = TextBlock | ToolUseBlock;

/**
 * A fragment of a text block (or, with `reasoning: true`, of a reasoning block) of a live
 * attempt. `block` is the block's index within the attempt; `text` may be empty.
 */
export type TextDeltaEvent = {
  type: 'stream/text-delta';
  attemptId: string;
  block: number;
  text: string;
  reasoning?: boolean;
};

/**
 * A fragment of a tool call's arguments in a live attempt.
 *
 * Invariants:
 * 1. `args` is one fragment, not the text so far; it may be empty. The call's argument text
 *    is the concatenation of its deltas' `args` in order.
 * 2. `name` may be missing on any delta, the first included; once given it does not change.
 * 3. `callId` is always present: adapters synthesise `attemptId:index` when a provider gives
 *    only an index.
 */
export type ToolCallDeltaEvent = {
  type: 'stream/tool-call-delta';
  attemptId: string;
  block: number;
  callId: string;
  name?: string;
  args: string;
  /** `'text'`: the fragments are free-form text, not JSON. Given from the delta that names the tool on. */
  input?: ToolInput;
  executor?: ToolExecutor;
  /** The provider's own id, when `callId` had to differ from it. */
  providerCallId?: string;
};

/**
 * The end of block `block` of a live attempt. `text` is the authoritative full text of the
 * block: for a tool block (`callId` present) its full argument text, which wins over the
 * deltas whenever they disagree. A block end is not a dispatch: a tool stays `preparing`
 * until its `tool/call`.
 */
export type BlockEndEvent = {
  type: 'stream/block-end';
  attemptId: string;
  block: number;
  callId?: string;
  text: string;
  /** `'text'`: `text` is the call's free-form input, not JSON. */
  input?: ToolInput;
};

/**
 * The attempt `attemptId` is over: every stream event of that attempt is withdrawn.
 *
 * A producer emits the attempt's durable records (`assistant/message`, then `tool/call` for
 * each dispatched call) before it. An aborted or retried attempt settles without them, and
 * its preparing tools disappear.
 */
export type SettleEvent = { type: 'stream/settle'; attemptId: string };

/**
 * The live family: stream events exist only while an attempt (one model response) is live.
 * They carry no `seq`, are never persisted, and are withdrawn by `stream/settle` or on
 * reconnection.
 */
export type StreamEvent = TextDeltaEvent | ToolCallDeltaEvent | BlockEndEvent | SettleEvent;

/** Any event callfold folds, discriminated by `type`. */
export type CallfoldEvent = SessionEvent | StreamEvent;

/** The `type` of some CallfoldEvent. */
export type CallfoldEventType = CallfoldEvent['type'];

const family = {
  'turn/start': 'durable',
  'turn/end': 'durable',
  'assistant/message': 'durable',
  'tool/call': 'durable',
  'tool/result': 'durable',
  'tool/approval-request': 'durable',
  'tool/approval': 'durable',
  'stream/text-delta': 'stream',
  'stream/tool-call-delta': 'stream',
  'stream/block-end': 'stream',
  'stream/settle': 'stream',
} as const satisfies Record<CallfoldEventType, 'durable' | 'stream'>;

/** Whether `e` is a live stream event (withdrawn on settle or reconnection). */
export function isStreamEvent(e: CallfoldEvent): e is StreamEvent {
  return family[e.type] === 'stream';
}

/** Whether `e` is a durable session event (persisted, ordered by `seq`). */
export function isDurableEvent(e: CallfoldEvent): e is SessionEvent {
  return family[e.type] === 'durable';
}
