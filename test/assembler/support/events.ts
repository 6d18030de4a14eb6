/**
 * Short builders for the events the Assembler tests push, and an Assembler with a fixed clock
 * whose `onError` reports are collected instead of printed.
 */
import { Assembler, type AssemblerOptions } from '../../../src/conversation/assembler.js';
import type { Conversation } from '../../../src/conversation/conversation.js';
import type { AssistantNode } from '../../../src/definitions/assistant-definition.js';
import type { ToolNode } from '../../../src/definitions/tool-definition.js';
import type {
  AssistantMessageEvent,
  BlockEndEvent,
  MessageBlock,
  SessionEvent,
  SettleEvent,
  TextDeltaEvent,
  ToolCallDeltaEvent,
  ToolCallEvent,
  ToolResultEvent,
  TurnEvent,
} from '../../../src/events/types.js';
import type { GroupNode } from '../../../src/groups/builder.js';

export function textDelta(
  attemptId: string,
  block: number,
  text: string,
  reasoning?: boolean,
): TextDeltaEvent {
  return reasoning === undefined
    ? { type: 'stream/text-delta', attemptId, block, text }
    : { type: 'stream/text-delta', attemptId, block, text, reasoning };
}

/** A tool-call delta; `name` only when given. */
export function toolDelta(
  attemptId: string,
  block: number,
  callId: string,
  args: string,
  name?: string,
): ToolCallDeltaEvent {
  return name === undefined
    ? { type: 'stream/tool-call-delta', attemptId, block, callId, args }
    : { type: 'stream/tool-call-delta', attemptId, block, callId, name, args };
}

/**
 * The deltas of a `Write` call streaming `text` (attempt `live`, block 0, call `callId`; the
 * first delta names the tool), `size` characters each. The timeline bench streams these too.
 */
export function writeDeltas(text: string, size = 16, callId = 'live'): ToolCallDeltaEvent[] {
  const deltas: ToolCallDeltaEvent[] = [];
  for (let at = 0; at < text.length; at += size) {
    deltas.push(
      toolDelta('live', 0, callId, text.slice(at, at + size), at === 0 ? 'Write' : undefined),
    );
  }
  return deltas;
}

/**
 * The deltas of `writeDeltas(text, size)` grouped in batches of `perBatch` characters (a
 * multiple of `size`): one batch per push.
 */
export function liveWriteBatches(
  text: string,
  perBatch: number,
  size = 16,
): ToolCallDeltaEvent[][] {
  if (perBatch % size !== 0) {
    throw new RangeError(`perBatch ${perBatch} is not a multiple of ${size}`);
  }
  const deltas = writeDeltas(text, size);
  const perPush = perBatch / size;
  const batches: ToolCallDeltaEvent[][] = [];
  for (let at = 0; at < deltas.length; at += perPush) batches.push(deltas.slice(at, at + perPush));
  return batches;
}

/** A block end; a tool block's when `callId` is given. */
export function blockEnd(
  attemptId: string,
  block: number,
  text: string,
  callId?: string,
): BlockEndEvent {
  return callId === undefined
    ? { type: 'stream/block-end', attemptId, block, text }
    : { type: 'stream/block-end', attemptId, block, callId, text };
}

export function settle(attemptId: string): SettleEvent {
  return { type: 'stream/settle', attemptId };
}

export function message(
  seq: number,
  attemptId: string,
  blocks: MessageBlock[],
  messageId = `m-${attemptId}`,
): AssistantMessageEvent {
  return { type: 'assistant/message', seq, messageId, attemptId, blocks };
}

export function call(
  seq: number,
  callId: string,
  name: string,
  args: string | Record<string, unknown>,
): ToolCallEvent {
  return { type: 'tool/call', seq, callId, name, args };
}

export function result(
  seq: number,
  callId: string,
  output: unknown,
  isError?: boolean,
): ToolResultEvent {
  return isError === undefined
    ? { type: 'tool/result', seq, callId, output }
    : { type: 'tool/result', seq, callId, output, isError };
}

/** A durable log of `tools` settled Read calls, a line of assistant text before every third. */
export function settledLog(tools: number): SessionEvent[] {
  const log: SessionEvent[] = [];
  let seq = 1;
  for (let i = 0; i < tools; i++) {
    if (i % 3 === 0) log.push(message(seq++, `a${i}`, [{ type: 'text', text: `step ${i}` }]));
    log.push(call(seq++, `c${i}`, 'Read', `{"file_path":"/src/f${i}.ts"}`));
    log.push(result(seq++, `c${i}`, `out ${i}`));
  }
  return log;
}

export function turn(type: 'turn/start' | 'turn/end', seq: number, turnId: string): TurnEvent {
  return { type, seq, turnId };
}

/** What the fixed clock reads: every event without `at` is stamped with it. */
export const NOW = 1_700_000_000_000;

export interface Reported {
  readonly error: unknown;
  readonly definition: string;
  readonly key: string;
}

/** An Assembler with a fixed clock; what it reports through `onError` lands in `errors`. */
export function assembler(options: Omit<AssemblerOptions, 'onError' | 'now'> = {}): {
  readonly assembler: Assembler;
  readonly errors: Reported[];
} {
  const errors: Reported[] = [];
  const instance = new Assembler({
    ...options,
    now: () => NOW,
    onError: (error, definition, key) => errors.push({ error, definition, key }),
  });
  return { assembler: instance, errors };
}

/** The published tool node of `callId`; fails when there is none. */
export function toolOf(conversation: Conversation, callId: string): ToolNode {
  const node = conversation.tools.get(callId);
  if (!node) throw new Error(`no tool node for ${callId}`);
  return node;
}

export function groups(conversation: Conversation): GroupNode[] {
  return conversation.items.filter((item): item is GroupNode => item.kind === 'group');
}

export function assistants(conversation: Conversation): AssistantNode[] {
  return conversation.items.filter((item): item is AssistantNode => item.kind === 'assistant');
}

const isGroup = (item: { readonly kind: string }): item is GroupNode => item.kind === 'group';
const isAssistant = (item: { readonly kind: string }): item is AssistantNode =>
  item.kind === 'assistant';

function unexpected(item: unknown): never {
  throw new Error(`unexpected item ${JSON.stringify(item)}`);
}

/**
 * The items as short labels, in order: `assistant:<id>`, `group:<callId>,<callId>…`, and for
 * a custom Definition's node (`Extra`) what `label` makes of it.
 */
export function outline<Extra extends { readonly kind: string } = never>(
  conversation: Conversation<Extra>,
  label: (item: Extra) => string = unexpected,
): string[] {
  return conversation.items.map((item) => {
    if (isGroup(item)) return `group:${item.tools.map((tool) => tool.callId).join(',')}`;
    if (isAssistant(item)) return `assistant:${item.id}`;
    return label(item);
  });
}

/**
 * What a publication shows, comparable with `deep.equal`: items (groups with their tools'
 * callId, stage and argument length, summary and detail), the tools map in order, its size.
 * Tests compare an incremental publication with a full rebuild's through it.
 */
export function conversationShape(conversation: Conversation): unknown {
  return {
    items: conversation.items.map((item) =>
      item.kind === 'group'
        ? {
            id: item.id,
            tools: item.tools.map((t) => `${t.callId}:${t.stage}:${t.argsRaw?.length}`),
            summary: item.summary,
            detail: item.detail,
          }
        : { id: item.id, kind: item.kind },
    ),
    tools: [...conversation.tools].map(
      ([callId, tool]) => `${callId}:${tool.stage}:${tool.argsRaw?.length}`,
    ),
    size: conversation.tools.size,
  };
}
