import type { CallfoldEvent, MessageBlock } from '../events/types.js';
import type { Session } from './session.js';

/** Who emits `tool/call` and `stream/settle` when a response ends normally. */
export type Dispatch = 'adapter' | 'host';

interface TextBlockState {
  readonly kind: 'text' | 'reasoning';
  readonly block: number;
  readonly parts: string[];
  /** A non-empty delta of this block was emitted. */
  shown: boolean;
  /** The authoritative text, once the block ended. */
  final: string | undefined;
}

interface ToolBlockState {
  readonly kind: 'tool';
  readonly block: number;
  providerId: string | undefined;
  name: string | undefined;
  /** Fixed when the first delta is emitted, which is when the name is known. */
  callId: string | undefined;
  readonly parts: string[];
  final: string | undefined;
}

type BlockState = TextBlockState | ToolBlockState;

/** What an adapter knows of a tool call from one chunk; every part is optional. */
export interface ToolPart {
  readonly id?: unknown;
  readonly name?: unknown;
  readonly args?: unknown;
}

/**
 * One attempt (one model response) being translated into CallfoldEvents. Adapters feed it
 * provider chunks as block operations keyed by the provider's own block identity (an index,
 * an item id); it numbers blocks in order of first appearance and emits:
 *
 * 1. `stream/text-delta` for each non-empty text or reasoning fragment.
 * 2. `stream/tool-call-delta` for a tool call only once its name is known: the first delta
 *    carries the name, the call's callId and every argument fragment received so far
 *    (arguments that arrive before the name are held, not dropped); later deltas carry one
 *    non-empty fragment each. The callId is the provider's id when one arrived by then and is
 *    not already used in this attempt, else `${attemptId}:${block}`; it never changes.
 * 3. `stream/block-end` when the provider ends a block (or at `finish` for blocks it never
 *    ends), with the authoritative text: the provider's full text when it sends one, else the
 *    fragments joined. A tool call whose argument text is empty or blank gets `{}`.
 * 4. At `finish`: the `assistant/message` (text and reasoning blocks with text, and tool-use
 *    blocks of named calls, in block order), then with `dispatch: 'adapter'` a `tool/call`
 *    per complete call and `stream/settle`. A call is complete when it is named and ended,
 *    unless the response was truncated and it is the response's last block (its arguments
 *    were cut by the token limit).
 * 5. At `abort`: `stream/settle` alone.
 */
export class Attempt {
  readonly attemptId: string;
  /** The provider's id of the response; the attemptId stands in when it has none. */
  messageId: string | undefined;
  readonly #session: Session;
  readonly #dispatch: Dispatch;
  readonly #emit: (event: CallfoldEvent) => void;
  readonly #blocks = new Map<string, BlockState>();
  readonly #callIds = new Set<string>();
  #state: 'live' | 'finished' | 'aborted' = 'live';

  constructor(
    attemptId: string,
    session: Session,
    dispatch: Dispatch,
    emit: (event: CallfoldEvent) => void,
  ) {
    this.attemptId = attemptId;
    this.#session = session;
    this.#dispatch = dispatch;
    this.#emit = emit;
  }

  get live(): boolean {
    return this.#state === 'live';
  }

  /** Whether a tool call of this attempt has `callId` (the emitted one). */
  hasCall(callId: string): boolean {
    return this.#callIds.has(callId);
  }

  /** Makes sure block `key` exists, so it takes its place in the block order. */
  open(key: string, kind: 'text' | 'reasoning' | 'tool'): void {
    if (this.#blocks.has(key) || !this.live) return;
    const block = this.#blocks.size;
    this.#blocks.set(
      key,
      kind === 'tool'
        ? {
            kind,
            block,
            providerId: undefined,
            name: undefined,
            callId: undefined,
            parts: [],
            final: undefined,
          }
        : { kind, block, parts: [], shown: false, final: undefined },
    );
  }

  /** A fragment of text (or reasoning) block `key`. */
  text(key: string, delta: unknown, reasoning = false): void {
    if (typeof delta !== 'string' || !this.live) return;
    this.open(key, reasoning ? 'reasoning' : 'text');
    const state = this.#blocks.get(key) as BlockState;
    if (state.kind === 'tool' || state.final !== undefined) return;
    state.parts.push(delta);
    if (delta.length === 0) return;
    state.shown = true;
    this.#textDelta(state, delta);
  }

  #textDelta(state: BlockState, text: string): void {
    this.#emit(
      state.kind === 'reasoning'
        ? {
            type: 'stream/text-delta',
            attemptId: this.attemptId,
            block: state.block,
            text,
            reasoning: true,
          }
        : { type: 'stream/text-delta', attemptId: this.attemptId, block: state.block, text },
    );
  }

  /** What one chunk says of tool call `key`: its provider id, its name, an argument fragment. */
  tool(key: string, part: ToolPart): void {
    if (!this.live) return;
    this.open(key, 'tool');
    const state = this.#blocks.get(key) as BlockState;
    if (state.kind !== 'tool') return;
    if (state.callId === undefined && state.providerId === undefined && nonEmpty(part.id)) {
      state.providerId = part.id;
    }
    const args = typeof part.args === 'string' && state.final === undefined ? part.args : '';
    if (args.length > 0) state.parts.push(args);
    if (state.callId !== undefined) {
      if (args.length > 0) this.#toolDelta(state, args);
      return;
    }
    if (state.name === undefined && nonEmpty(part.name)) state.name = part.name;
    if (state.name !== undefined) this.#show(state);
  }

  /** Whether tool call `key` already has a name. */
  named(key: string): boolean {
    const state = this.#blocks.get(key);
    return state?.kind === 'tool' && state.name !== undefined;
  }

  /** The argument fragments of tool call `key` received so far, joined. */
  argsText(key: string): string | undefined {
    const state = this.#blocks.get(key);
    return state?.kind === 'tool' ? state.parts.join('') : undefined;
  }

  /** The provider ended block `key`; `text`, when given, is its authoritative full text. */
  end(key: string, text?: unknown): void {
    const state = this.#blocks.get(key);
    if (!state || state.final !== undefined || !this.live) return;
    const given = typeof text === 'string' ? text : undefined;
    if (state.kind === 'tool') {
      const final = given ?? state.parts.join('');
      state.final = final.trim() === '' ? '{}' : final;
      if (state.callId !== undefined) this.#toolEnd(state);
      return;
    }
    state.final = given ?? state.parts.join('');
    if (state.final.length === 0) return;
    if (!state.shown) {
      state.shown = true;
      this.#textDelta(state, state.final);
    }
    this.#emit({
      type: 'stream/block-end',
      attemptId: this.attemptId,
      block: state.block,
      text: state.final,
    });
  }

  /**
   * The response ended normally: ends open blocks, then emits the durable records and the
   * settle (see rule 4). `truncated`: the provider stopped at its token limit.
   */
  finish(truncated = false): void {
    if (!this.live) return;
    for (const [key] of this.#blocks) this.end(key);
    const blocks: MessageBlock[] = [];
    const calls: ToolBlockState[] = [];
    let last: BlockState | undefined;
    for (const state of this.#blocks.values()) {
      if (state.kind === 'tool') {
        if (state.callId === undefined || state.name === undefined) continue;
        const argsText = state.final as string;
        blocks.push({ type: 'tool-use', callId: state.callId, name: state.name, argsText });
        calls.push(state);
        last = state;
      } else if (state.final) {
        blocks.push({ type: state.kind, text: state.final });
        last = state;
      }
    }
    this.#state = 'finished';
    this.#emit(
      this.#session.record({
        type: 'assistant/message',
        messageId: this.messageId ?? this.attemptId,
        attemptId: this.attemptId,
        blocks,
      }),
    );
    if (this.#dispatch === 'host') return;
    for (const call of calls) {
      if (truncated && call === last) continue;
      this.#emit(
        this.#session.call(call.callId as string, call.name as string, call.final as string),
      );
    }
    this.#emit({ type: 'stream/settle', attemptId: this.attemptId });
  }

  /** The response was cut, failed or was abandoned: settles without durable records. */
  abort(): void {
    if (!this.live) return;
    this.#state = 'aborted';
    this.#emit({ type: 'stream/settle', attemptId: this.attemptId });
  }

  #show(state: ToolBlockState): void {
    const id = state.providerId;
    const callId =
      id !== undefined && !this.#callIds.has(id) ? id : `${this.attemptId}:${state.block}`;
    state.callId = callId;
    this.#callIds.add(callId);
    this.#emit({
      type: 'stream/tool-call-delta',
      attemptId: this.attemptId,
      block: state.block,
      callId,
      name: state.name as string,
      args: state.parts.join(''),
    });
    if (state.final !== undefined) this.#toolEnd(state);
  }

  #toolDelta(state: ToolBlockState, args: string): void {
    this.#emit({
      type: 'stream/tool-call-delta',
      attemptId: this.attemptId,
      block: state.block,
      callId: state.callId as string,
      args,
    });
  }

  #toolEnd(state: ToolBlockState): void {
    this.#emit({
      type: 'stream/block-end',
      attemptId: this.attemptId,
      block: state.block,
      callId: state.callId as string,
      text: state.final as string,
    });
  }
}

function nonEmpty(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0;
}
