import type { Definition } from '../assembler/definition.js';
import type { Match } from '../assembler/match.js';
import type { CallfoldEvent } from '../events/types.js';

/** A block of an assistant response as shown: text, reasoning, or a tool call's identity. */
export type AssistantBlock =
  | { readonly type: 'text' | 'reasoning'; readonly text: string }
  | { readonly type: 'tool-use'; readonly callId: string; readonly name: string };

/**
 * The published view of one assistant response (one attempt), live or settled. Frozen.
 * Published once it has text or reasoning; a response of tool calls alone shows only its
 * tools. Argument text is not here: each tool's node owns it.
 */
export interface AssistantNode {
  readonly kind: 'assistant';
  /** The attempt's id: stable from the first delta to the settled message. */
  readonly id: string;
  readonly messageId: string | null;
  readonly stage: 'streaming' | 'settled';
  readonly blocks: readonly AssistantBlock[];
  /** The text blocks, joined by blank lines. */
  readonly text: string;
  /** The reasoning blocks, joined by blank lines. */
  readonly reasoning: string;
  readonly startedAt?: number;
  readonly firstTokenAt?: number;
}

type LiveBlock =
  | { type: 'text' | 'reasoning'; text: string }
  | { type: 'tool-use'; callId: string; name: string | undefined };

interface AssistantState {
  attemptId: string;
  messageId: string | null;
  /** Live blocks by index, from deltas and block ends. */
  live: Map<number, LiveBlock>;
  /** The settled message's blocks; authoritative once present. */
  settled: readonly AssistantBlock[] | null;
  startedAt: number;
  firstTokenAt: number | undefined;
}

function attemptOf(event: CallfoldEvent): string | undefined {
  switch (event.type) {
    case 'stream/text-delta':
    case 'stream/block-end':
    case 'assistant/message':
      return event.attemptId;
    case 'stream/tool-call-delta':
      // Only a delta that names its tool carries identity; argument-only deltas don't match.
      return event.name === undefined ? undefined : event.attemptId;
    default:
      return undefined;
  }
}

function fold(state: AssistantState, match: Match, at: number): AssistantState {
  const { event } = match;
  switch (event.type) {
    case 'stream/text-delta': {
      const type = event.reasoning ? 'reasoning' : 'text';
      const block = state.live.get(event.block);
      if (block && block.type === type) block.text += event.text;
      else state.live.set(event.block, { type, text: event.text });
      if (event.text.length > 0) state.firstTokenAt ??= at;
      break;
    }
    case 'stream/tool-call-delta': {
      // Only identity matters here; argument-only deltas leave the State as it is.
      const block = state.live.get(event.block);
      if (block?.type === 'tool-use' && (event.name === undefined || block.name === event.name))
        break;
      if (block?.type === 'tool-use') block.name ??= event.name;
      else
        state.live.set(event.block, { type: 'tool-use', callId: event.callId, name: event.name });
      state.firstTokenAt ??= at;
      break;
    }
    case 'stream/block-end': {
      const block = state.live.get(event.block);
      if (event.callId === undefined && block && block.type !== 'tool-use') block.text = event.text;
      break;
    }
    case 'assistant/message':
      state.messageId = event.messageId;
      state.settled = event.blocks.map((block) =>
        block.type === 'tool-use'
          ? { type: 'tool-use', callId: block.callId, name: block.name }
          : { type: block.type, text: block.text },
      );
      break;
    default:
      break;
  }
  return state;
}

function liveBlocks(state: AssistantState): AssistantBlock[] {
  return [...state.live.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, block]) =>
      block.type === 'tool-use'
        ? { type: 'tool-use', callId: block.callId, name: block.name ?? '' }
        : { type: block.type, text: block.text },
    );
}

function joined(blocks: readonly AssistantBlock[], type: 'text' | 'reasoning'): string {
  const texts: string[] = [];
  for (const block of blocks)
    if (block.type === type && block.text.length > 0) texts.push(block.text);
  return texts.join('\n\n');
}

function sameBlocks(a: readonly AssistantBlock[], b: readonly AssistantBlock[]): boolean {
  if (a.length !== b.length) return false;
  return a.every((block, i) => {
    const other = b[i] as AssistantBlock;
    if (block.type !== other.type) return false;
    if (block.type === 'tool-use' && other.type === 'tool-use') {
      return block.callId === other.callId && block.name === other.name;
    }
    return block.type !== 'tool-use' && other.type !== 'tool-use' && block.text === other.text;
  });
}

/**
 * The Assistant Definition: one Context per attempt, keyed by attemptId. Text and reasoning
 * deltas accumulate per block; a block end's text replaces its block; the durable
 * `assistant/message` is authoritative. Tool deltas record only the tool's identity
 * (callId, name); a delta that adds nothing leaves the State untouched.
 */
export const assistantDefinition: Definition<AssistantState, AssistantNode> = {
  name: 'assistant',

  match(event, emit) {
    const attemptId = attemptOf(event);
    if (attemptId !== undefined) {
      emit(attemptId, event.type === 'stream/block-end' ? 'update' : 'start');
    }
  },

  start(match, at) {
    const state: AssistantState = {
      attemptId: attemptOf(match.event) as string,
      messageId: null,
      live: new Map(),
      settled: null,
      startedAt: at,
      firstTokenAt: undefined,
    };
    return fold(state, match, at);
  },

  update: fold,

  build(state, previous) {
    const blocks = state.settled ?? liveBlocks(state);
    const text = joined(blocks, 'text');
    const reasoning = joined(blocks, 'reasoning');
    if (text.length === 0 && reasoning.length === 0) return undefined;
    const stage = state.settled ? 'settled' : 'streaming';
    if (
      previous &&
      previous.stage === stage &&
      previous.messageId === state.messageId &&
      previous.text === text &&
      previous.reasoning === reasoning &&
      sameBlocks(previous.blocks, blocks)
    ) {
      return previous;
    }
    return Object.freeze({
      kind: 'assistant',
      id: state.attemptId,
      messageId: state.messageId,
      stage,
      blocks: Object.freeze(blocks.map((block) => Object.freeze(block))),
      text,
      reasoning,
      startedAt: state.startedAt,
      ...(state.firstTokenAt === undefined ? {} : { firstTokenAt: state.firstTokenAt }),
    });
  },
};
