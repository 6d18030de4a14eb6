import { PartialArguments } from '../arguments/partial-arguments.js';
import type { Definition } from '../assembler/definition.js';
import type { Match } from '../assembler/match.js';
import type { CallfoldEvent } from '../events/types.js';

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
}

function stageOf(state: ToolState): ToolStage {
  return state.result ? 'result' : state.call ? 'start' : 'preparing';
}

function foldDelta(state: ToolState, at: number, name: string | undefined, args: string): void {
  if (state.sealed) return;
  if (args.length > 0) state.firstTokenAt ??= at;
  if (state.args) {
    state.args.append(args);
  } else if (name !== undefined) {
    state.name = name;
    state.args = PartialArguments.streaming();
    state.args.append(args);
  }
}

/** Seals the streamed reader with the authoritative text, or opens a fresh view on conflict. */
function reconcile(state: ToolState, args: string | Record<string, unknown>): void {
  if (typeof args === 'string') {
    state.args = state.args ? state.args.seal(args) : PartialArguments.fromText(args);
    state.argsRaw = args;
  } else {
    state.args = PartialArguments.fromObject(args);
    state.argsRaw = JSON.stringify(args);
  }
  state.sealed = true;
}

function fold(state: ToolState, match: Match, at: number): ToolState {
  const { event } = match;
  switch (event.type) {
    case 'stream/tool-call-delta':
      foldDelta(state, at, event.name, event.args);
      break;
    case 'stream/block-end':
      if (!state.sealed && state.name !== undefined) reconcile(state, event.text);
      break;
    case 'tool/call':
      state.name = event.name;
      reconcile(state, event.args);
      state.call = Object.freeze({ name: event.name, argsRaw: state.argsRaw as string });
      break;
    case 'tool/result':
      // A repeated result replaces the earlier one: the later record wins.
      state.result = Object.freeze({ output: event.output, isError: event.isError === true });
      break;
    default:
      break;
  }
  return state;
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
    const key = keyOf(event);
    if (key !== undefined) emit(key, event.type === 'stream/block-end' ? 'update' : 'start');
  },

  start(match, at) {
    const state: ToolState = {
      callId: keyOf(match.event) as string,
      name: undefined,
      args: null,
      argsRaw: null,
      sealed: false,
      call: null,
      result: null,
      startedAt: at,
      firstTokenAt: undefined,
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
      previous.argsRaw === state.argsRaw
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
    };
    return Object.freeze(node);
  },
};
