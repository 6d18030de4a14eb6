import { PartialArguments } from '../arguments/partial-arguments.js';
import type { Definition } from '../assembler/definition.js';
import type { Match } from '../assembler/match.js';
import { isJoined } from '../direct/joined-ends.js';
import { jsonText } from '../events/json-text.js';
import type {
  CallfoldEvent,
  MessageBlock,
  StopReason,
  ToolExecutor,
  ToolInput,
  ToolUseBlock,
} from '../events/types.js';
import { encodeInput, encodeInputFragment, inputOpening } from './free-form-input.js';

/** A tool call's stage: `preparing` while the model writes it, `start` once dispatched, `result` once answered. */
export type ToolStage = 'preparing' | 'start' | 'result';

/**
 * The published view of one tool call, one per callId across all three stages. A frozen
 * plain object; `args` is the one mutable part, a lazy reader whose answers the node's
 * Definition observes at publication: the node is replaced only when its stage, its result
 * or an argument answer someone read has changed.
 */
export interface ToolNode {
  readonly kind: 'tool';
  readonly callId: string;
  /** The tool's name; '' for a result whose call lies outside the loaded window. */
  readonly name: string;
  readonly stage: ToolStage;
  /** The same reader across stages wherever the authoritative text matched the fragments. */
  readonly args: PartialArguments;
  /** The full argument text once known (block end or dispatch); JSON text for object arguments. */
  readonly argsRaw: string | null;
  /** The dispatched call (`tool/call`); null before dispatch and for an unpaired result. */
  readonly call: { readonly name: string; readonly argsRaw: string } | null;
  readonly result: { readonly output: unknown; readonly isError: boolean } | null;
  /** When the call first became known (its first event), ms since the Unix epoch. */
  readonly startedAt?: number;
  /** When its first argument character arrived. */
  readonly firstTokenAt?: number;
  /**
   * `'text'`: free-form input (an OpenAI custom tool). `argsRaw` and `call.argsRaw` are the
   * raw text; `args` reads it as one string field, `input`.
   */
  readonly input?: ToolInput;
  /** `'provider'`: the provider ran the call (a server or hosted tool); the host runs nothing. */
  readonly executor?: ToolExecutor;
  /** The provider's own id for the call, when `callId` had to differ from it. */
  readonly providerCallId?: string;
  /**
   * The response was cut inside this call (its settled message marked the block
   * `incomplete`): the node stays `preparing` with closed `args`, never dispatched, no result.
   */
  readonly incomplete?: boolean;
  /** Why the response that cut this call ended (`'length'`, `'content-filter'`, …); only with `incomplete`. */
  readonly stopReason?: StopReason;
  /** Human approval: absent or null when none was asked for. */
  readonly approval?: ToolApproval | null;
}

/** A call's approval: requested (the host must not run it yet), approved, or denied (never run). */
export interface ToolApproval {
  readonly state: 'requested' | 'approved' | 'denied';
  readonly reason?: string;
}

interface ToolState {
  callId: string;
  name: string | undefined;
  /** Created when the name is known; argument text that came before the name is not kept. */
  args: PartialArguments | null;
  argsRaw: string | null;
  /** The authoritative text has sealed the arguments (block end or dispatch): later deltas are stale. */
  sealed: boolean;
  call: ToolNode['call'];
  result: ToolNode['result'];
  startedAt: number;
  firstTokenAt: number | undefined;
  input: ToolInput | undefined;
  /** The streamed reader holds encoded free-form text (see free-form-input.ts). */
  textReader: boolean;
  executor: ToolExecutor | undefined;
  providerCallId: string | undefined;
  incomplete: boolean;
  stopReason: StopReason | undefined;
  approval: ToolApproval | null;
}

function stageOf(state: ToolState): ToolStage {
  return state.result ? 'result' : state.call ? 'start' : 'preparing';
}

function foldDelta(state: ToolState, at: number, event: ToolCallDelta): void {
  if (state.sealed) return;
  const { args } = event;
  if (args.length > 0) state.firstTokenAt ??= at;
  state.executor ??= event.executor;
  state.providerCallId ??= event.providerCallId;
  if (state.args) {
    state.args.append(state.textReader ? encodeInputFragment(args) : args);
  } else if (event.name !== undefined) {
    state.name = event.name;
    state.input = event.input;
    state.textReader = event.input === 'text';
    state.args = PartialArguments.streaming();
    if (state.textReader) state.args.append(inputOpening + encodeInputFragment(args));
    else state.args.append(args);
  }
}

type ToolCallDelta = Extract<CallfoldEvent, { type: 'stream/tool-call-delta' }>;

/**
 * Seals the streamed reader with the authoritative text, or opens a fresh view on conflict.
 * Free-form text is sealed in its encoded form, which the streamed reader continues when its
 * fragments were the same text. `joined`: the text is known to be the fragments the reader
 * received, joined (a block end `assemble()`'s direct path vouched for: `isJoined`), so it is
 * sealed without comparing them (`PartialArguments.sealJoined`).
 */
function reconcile(
  state: ToolState,
  args: string | Record<string, unknown>,
  input: ToolInput | undefined,
  joined = false,
): void {
  state.input = input;
  if (typeof args === 'string' && input === 'text') {
    const encoded = PartialArguments.fromText(encodeInput(args));
    state.args = state.args?.absorb(encoded) ? state.args : encoded;
    state.argsRaw = args;
  } else if (typeof args === 'string') {
    state.args = !state.args
      ? PartialArguments.fromText(args)
      : joined
        ? state.args.sealJoined(args)
        : state.args.seal(args);
    state.argsRaw = args;
  } else {
    state.args = PartialArguments.fromObject(args);
    // Any depth: parseEvent has checked that the object is JSON data (no cycle, no BigInt).
    state.argsRaw = jsonText(args) as string;
  }
  state.sealed = true;
}

function fold(state: ToolState, match: Match, at: number): ToolState {
  const { event } = match;
  switch (event.type) {
    case 'stream/tool-call-delta':
      foldDelta(state, at, event);
      break;
    case 'stream/block-end':
      if (!state.sealed && state.name !== undefined) {
        reconcile(state, event.text, event.input ?? state.input, isJoined(event));
      }
      break;
    case 'tool/call':
      state.name = event.name;
      state.executor = event.executor ?? state.executor;
      state.providerCallId = event.providerCallId ?? state.providerCallId;
      reconcile(state, event.args, event.input);
      state.call = Object.freeze({ name: event.name, argsRaw: state.argsRaw as string });
      break;
    case 'tool/result':
      // A repeated result replaces the earlier one: the later record wins.
      state.result = Object.freeze({ output: event.output, isError: event.isError === true });
      state.executor ??= event.executor;
      break;
    case 'assistant/message': {
      const block = cutBlock(event.blocks, state.callId);
      if (!block) break;
      state.incomplete = true;
      state.stopReason = event.stopReason;
      state.executor ??= block.executor;
      state.providerCallId ??= block.providerCallId;
      // A dispatched call's own record is authoritative; a cut one has only the block.
      if (!state.call) {
        state.name = block.name;
        reconcile(state, block.argsText, block.input);
      }
      break;
    }
    case 'tool/approval-request':
      state.approval = requested;
      break;
    case 'tool/approval':
      state.approval = Object.freeze({
        state: event.approved ? 'approved' : 'denied',
        ...(event.reason === undefined ? {} : { reason: event.reason }),
      });
      break;
    default:
      break;
  }
  return state;
}

const requested: ToolApproval = Object.freeze({ state: 'requested' });

/** The tool-use block of `callId` that its response was cut inside, if any. */
function cutBlock(blocks: readonly MessageBlock[], callId: string): ToolUseBlock | undefined {
  for (const block of blocks) {
    if (block.type === 'tool-use' && block.incomplete === true && block.callId === callId) {
      return block;
    }
  }
  return undefined;
}

/**
 * After a replay (a settle, a reconnection, an older page) the State holds fresh copies of
 * what was already published: the same argument text in a new view, equal call and result
 * records. Keeping the published ones keeps the node, and every answer already read.
 */
function keepPublished(state: ToolState, previous: ToolNode): void {
  const published = previous.args;
  if (state.args && state.args !== published) {
    // A reader whose text the new one continues absorbs it; a closed reader of the same
    // final text (object arguments included) simply stays.
    const sameText =
      state.argsRaw !== null && state.argsRaw === previous.argsRaw && published.closed();
    if (sameText || published.absorb(state.args)) state.args = published;
  }
  const { call, result } = previous;
  if (call && state.call && call.name === state.call.name && call.argsRaw === state.call.argsRaw) {
    state.call = call;
  }
  if (
    result &&
    state.result &&
    result.output === state.result.output &&
    result.isError === state.result.isError
  ) {
    state.result = result;
  }
  const { approval } = previous;
  if (
    approval &&
    state.approval &&
    approval.state === state.approval.state &&
    approval.reason === state.approval.reason
  ) {
    state.approval = approval;
  }
  // Times come from the earliest evidence seen, live or durable.
  if (previous.startedAt !== undefined)
    state.startedAt = Math.min(state.startedAt, previous.startedAt);
  state.firstTokenAt ??= previous.firstTokenAt;
}

function keyOf(event: CallfoldEvent): string | undefined {
  switch (event.type) {
    case 'stream/tool-call-delta':
    case 'tool/call':
    case 'tool/result':
    case 'tool/approval-request':
    case 'tool/approval':
      return event.callId;
    case 'stream/block-end':
      return event.callId;
    default:
      return undefined;
  }
}

/**
 * The Tool Definition: one Context per callId, three stages.
 *
 * - Every `stream/tool-call-delta`, `tool/call` and `tool/result` is a start candidate; a
 *   tool block's `stream/block-end` only updates. The node is published once a name is known.
 * - A delta only appends its fragment to the reader. The reader is created by the first
 *   named delta; argument text that arrived before the name is not kept, so such a view sees
 *   a non-object prefix, turns invalid and shows no fields (the row falls back to its title)
 *   until the authoritative text replaces it.
 * - `stream/block-end` and `tool/call` reconcile: text equal to the fragments seals the same
 *   reader (its index kept); a conflict or a gap gives a new `fromText` view. Object
 *   arguments use `fromObject`. Deltas after that are stale and ignored. A block end is not a
 *   dispatch: the stage stays `preparing` until `tool/call`.
 * - A `tool/result` without its call yields a `result` node with `PartialArguments.empty`
 *   and `call: null`. Undispatched calls never get a synthetic result.
 */
export const toolDefinition: Definition<ToolState, ToolNode> = {
  name: 'tool',

  match(event, emit) {
    if (event.type === 'assistant/message') {
      // Only a cut call's block: every other call is known from its deltas or its tool/call.
      for (const block of event.blocks) {
        if (block.type === 'tool-use' && block.incomplete === true) emit(block.callId, 'start');
      }
      return;
    }
    const key = keyOf(event);
    if (key !== undefined) emit(key, event.type === 'stream/block-end' ? 'update' : 'start');
  },

  start(match, at, key) {
    const state: ToolState = {
      callId: key,
      name: undefined,
      args: null,
      argsRaw: null,
      sealed: false,
      call: null,
      result: null,
      startedAt: at,
      firstTokenAt: undefined,
      input: undefined,
      textReader: false,
      executor: undefined,
      providerCallId: undefined,
      incomplete: false,
      stopReason: undefined,
      approval: null,
    };
    return fold(state, match, at);
  },

  update: fold,

  build(state, previous) {
    if (state.name === undefined && !state.result) return undefined;
    if (previous) keepPublished(state, previous);
    const args = state.args ?? PartialArguments.empty;
    const changed = args.refresh();
    const name = state.name ?? '';
    const stage = stageOf(state);
    if (
      previous &&
      !changed &&
      previous.args === args &&
      previous.stage === stage &&
      previous.name === name &&
      previous.call === state.call &&
      previous.result === state.result &&
      previous.argsRaw === state.argsRaw &&
      previous.input === state.input &&
      previous.executor === state.executor &&
      previous.providerCallId === state.providerCallId &&
      (previous.incomplete ?? false) === state.incomplete &&
      previous.stopReason === (state.incomplete ? state.stopReason : undefined) &&
      (previous.approval ?? null) === state.approval
    ) {
      return previous;
    }
    const node: ToolNode = {
      kind: 'tool',
      callId: state.callId,
      name,
      stage,
      args,
      argsRaw: state.argsRaw,
      call: state.call,
      result: state.result,
      startedAt: state.startedAt,
      ...(state.firstTokenAt === undefined ? {} : { firstTokenAt: state.firstTokenAt }),
      ...(state.input === undefined ? {} : { input: state.input }),
      ...(state.executor === undefined ? {} : { executor: state.executor }),
      ...(state.providerCallId === undefined ? {} : { providerCallId: state.providerCallId }),
      ...(state.incomplete ? { incomplete: true } : {}),
      ...(state.incomplete && state.stopReason !== undefined
        ? { stopReason: state.stopReason }
        : {}),
      ...(state.approval ? { approval: state.approval } : {}),
    };
    return Object.freeze(node);
  },
};
