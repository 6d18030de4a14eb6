import type { EventSink } from '../direct/direct-events.js';
import { jsonText } from '../events/json-text.js';
import type {
  BlockEndEvent,
  CallfoldEvent,
  MessageBlock,
  StopReason,
  ToolExecutor,
  ToolInput,
  ToolUseBlock,
} from '../events/types.js';
import { jsonStringText } from '../internal/json-string-text.js';
import { type GrowingText, TextBuffer } from '../internal/text-buffer.js';
import { TextBlockStream, ToolBlockStream } from './block-stream.js';
import { isRecord } from './read-chunk.js';
import type { CallShape, Session } from './session.js';

/** Who emits `tool/call` and `stream/settle` when a response ends normally. */
export type Dispatch = 'adapter' | 'host';

interface TextBlockState {
  readonly kind: 'text' | 'reasoning';
  readonly block: number;
  readonly parts: TextBuffer;
  /** How its deltas are written (see `EventSink.continuation`). */
  readonly stream: TextBlockStream;
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
  readonly parts: TextBuffer;
  final: string | undefined;
  /** Object arguments as the provider sent them (`parts` then holds their JSON text). */
  object: Record<string, unknown> | undefined;
  input: ToolInput | undefined;
  executor: ToolExecutor | undefined;
  /** A provider-executed call's `tool/call` was emitted. */
  recorded: boolean;
  /** The response was cut inside this call. */
  cut: boolean;
  /** How its deltas are written, from its first delta on (see `EventSink.continuation`). */
  stream: ToolBlockStream | undefined;
  /** `final` is the text of every delta of the call, joined (see `EventSink.joinedEnd`). */
  joined: boolean;
}

type BlockState = TextBlockState | ToolBlockState;

/** What an adapter knows of a tool call from one chunk; every part is optional. */
export interface ToolPart {
  readonly id?: unknown;
  readonly name?: unknown;
  /** A fragment of argument text, or the whole arguments as an object (OpenAI-compatible servers). */
  readonly args?: unknown;
  /** `'text'`: the fragments are free-form text (a custom tool), not JSON. */
  readonly input?: ToolInput;
  /** `'provider'`: the provider runs this call (a server or hosted tool). */
  readonly executor?: ToolExecutor;
}

/** How a response ended, as `finish` takes it. */
export interface Ending {
  /** The provider's reason, already in callfold's words where one fits (see `stopReasonOf`). */
  readonly stopReason?: StopReason;
  /** The provider stopped inside the response (token limit, content filter): its last block, if a call, is cut. */
  readonly truncated?: boolean;
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
 *    not already used in the session (`Session.claimCallId`), else `${attemptId}:${block}`
 *    with the provider's id as `providerCallId`; it never changes. `input` and `executor`
 *    travel on every delta of the call, the tool-use block and the `tool/call`. Object
 *    arguments are streamed as their JSON text and dispatched as the object.
 * 3. `stream/block-end` when the provider ends a block (or at `finish` for blocks it never
 *    ends), with the authoritative text: the provider's full text when it sends one, else the
 *    fragments joined. A tool call whose argument text is empty or blank gets `{}`.
 * 4. At `finish`: the `assistant/message` (text and reasoning blocks with text, and tool-use
 *    blocks of named calls, in block order, with the `stopReason`), then with
 *    `dispatch: 'adapter'` a `tool/call` per complete client call and `stream/settle`. A
 *    call is complete when it is named and ended, unless the response was truncated and it
 *    is the response's last block: then its arguments were cut, its block is marked
 *    `incomplete` and it is never dispatched.
 * 5. A provider-executed call (`executor: 'provider'`) gets its durable `tool/call` as soon
 *    as its block ends, and its `tool/result` when the provider reports it (`providerResult`),
 *    whatever `dispatch` says: the host runs nothing for it.
 * 6. At `abort`: `stream/settle` alone (a provider-executed call already recorded stays).
 */
export class Attempt {
  readonly attemptId: string;
  /** The provider's id of the response; the attemptId stands in when it has none. */
  messageId: string | undefined;
  readonly #session: Session;
  readonly #dispatch: Dispatch;
  readonly #sink: Pick<EventSink, 'next' | 'continuation' | 'joinedEnd'>;
  readonly #blocks = new Map<string, BlockState>();
  readonly #callIds = new Set<string>();
  #state: 'live' | 'finished' | 'aborted' = 'live';

  constructor(
    attemptId: string,
    session: Session,
    dispatch: Dispatch,
    sink: Pick<EventSink, 'next' | 'continuation' | 'joinedEnd'>,
  ) {
    this.attemptId = attemptId;
    this.#session = session;
    this.#dispatch = dispatch;
    this.#sink = sink;
  }

  #emit(event: CallfoldEvent): void {
    this.#sink.next(event);
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
    const parts = new TextBuffer();
    this.#blocks.set(
      key,
      kind === 'tool'
        ? {
            kind,
            block,
            providerId: undefined,
            name: undefined,
            callId: undefined,
            parts,
            final: undefined,
            object: undefined,
            input: undefined,
            executor: undefined,
            recorded: false,
            cut: false,
            stream: undefined,
            joined: false,
          }
        : {
            kind,
            block,
            parts,
            stream: new TextBlockStream(parts, this.attemptId, block, kind === 'reasoning'),
            shown: false,
            final: undefined,
          },
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
    this.#continue(state.stream, delta);
  }

  /**
   * An argument fragment of tool call `key`, when that is all a chunk says of it: the hot
   * path, a shown call's next fragment, without a `ToolPart` per chunk. Same as
   * `tool(key, { args })`.
   */
  args(key: string, args: unknown): void {
    if (!this.live) return;
    const shown = this.#blocks.get(key);
    if (shown?.kind !== 'tool' || shown.callId === undefined || typeof args !== 'string') {
      this.tool(key, { args });
      return;
    }
    if (shown.final === undefined && args.length > 0) {
      shown.parts.push(args);
      this.#continue(shown.stream as ToolBlockStream, args);
    }
  }

  /**
   * A piece of decoded string text inside call `key`'s argument JSON, in a string left open:
   * the same as `args(key, jsonStringText(decoded))`. While a sink holds the call's run (no
   * continuation is written), the piece is escaped later, with the pieces next to it
   * (`TextBuffer.pushJsonString`).
   */
  argsString(key: string, decoded: string): void {
    const shown = this.#blocks.get(key);
    if (this.live && shown?.kind === 'tool' && shown.final === undefined && shown.stream?.held) {
      shown.parts.pushJsonString(decoded);
      return;
    }
    this.args(key, jsonStringText(decoded));
  }

  /** What one chunk says of tool call `key`: its provider id, its name, an argument fragment. */
  tool(key: string, part: ToolPart): void {
    if (!this.live) return;
    const shown = this.#blocks.get(key);
    if (shown?.kind === 'tool' && shown.callId !== undefined && typeof part.args === 'string') {
      // A shown call's next fragment: only its text counts.
      if (shown.final === undefined && part.args.length > 0) {
        shown.parts.push(part.args);
        this.#continue(shown.stream as ToolBlockStream, part.args);
      }
      return;
    }
    this.open(key, 'tool');
    const state = this.#blocks.get(key) as BlockState;
    if (state.kind !== 'tool') return;
    if (state.callId === undefined && state.providerId === undefined && nonEmpty(part.id)) {
      state.providerId = part.id;
    }
    if (state.callId === undefined) {
      state.input ??= part.input;
      state.executor ??= part.executor;
    }
    let args = typeof part.args === 'string' && state.final === undefined ? part.args : '';
    if (isPlainRecord(part.args) && state.final === undefined && state.input === undefined) {
      // Whole arguments as an object: shown as their JSON text, dispatched as the object.
      const text = writeJson(part.args);
      if (text !== undefined && state.parts.empty) {
        state.object = part.args;
        args = text;
      }
    }
    if (args.length > 0) state.parts.push(args);
    if (state.callId !== undefined) {
      if (args.length > 0) this.#continue(state.stream as ToolBlockStream, args);
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

  /** Whether a named call of this attempt has not ended: its input was still streaming. */
  hasOpenCall(): boolean {
    for (const state of this.#blocks.values()) {
      if (state.kind === 'tool' && state.name !== undefined && state.final === undefined) {
        return true;
      }
    }
    return false;
  }

  /** The argument fragments of tool call `key` received so far, joined. */
  argsText(key: string): string | undefined {
    return this.argsSoFar(key)?.text();
  }

  /** The argument text of tool call `key` as it grows: its length and text, read when asked. */
  argsSoFar(key: string): GrowingText | undefined {
    const state = this.#blocks.get(key);
    return state?.kind === 'tool' ? state.parts : undefined;
  }

  /**
   * The provider ended block `key`; `text`, when given, is its authoritative full text (for a
   * call, an object stands for its arguments). A provider-executed call is recorded at once.
   */
  end(key: string, text?: unknown): void {
    const state = this.#blocks.get(key);
    if (!state || state.final !== undefined || !this.live) return;
    const given = typeof text === 'string' ? text : undefined;
    if (state.kind === 'tool') {
      if (given === undefined && isPlainRecord(text) && state.input === undefined) {
        const json = writeJson(text);
        if (json !== undefined) {
          state.object = text;
          state.final = json;
        }
      }
      if (given !== undefined && state.object !== undefined && given !== state.parts.text()) {
        state.object = undefined;
      }
      // The fragments' own text is joined, not flattened (see TextBuffer), and never read here.
      const joined = state.final === undefined && given === undefined;
      const final = state.final ?? given ?? state.parts.text();
      const blank = joined ? state.parts.blank() : final.trim() === '';
      const empty = blank && state.input === undefined;
      state.final = empty ? '{}' : final;
      state.joined = joined && !empty;
      if (state.callId !== undefined) {
        this.#toolEnd(state);
        if (state.executor === 'provider' && !state.cut) this.#record(state);
      }
      return;
    }
    state.final = given ?? state.parts.text();
    if (state.final.length === 0) return;
    if (!state.shown) {
      // Not the fragments' text (they were empty): an ordinary event, not a continuation.
      state.shown = true;
      this.#emit(state.stream.delta(state.final));
    }
    this.#emit({
      type: 'stream/block-end',
      attemptId: this.attemptId,
      block: state.block,
      text: state.final,
    });
  }

  /**
   * The provider reports the result of a call it ran: `id` is its id for the call (or the
   * block key). Records the call first if its block has not ended, then the `tool/result`.
   * A result for a call of an earlier response (Anthropic's deferred results) is keyed
   * through the session.
   */
  providerResult(id: string, output: unknown, isError = false): void {
    if (!this.live) return;
    const state = this.#callOf(id);
    if (state && state.callId !== undefined && !state.recorded) {
      // A call streamed as the client's whose result the provider reports (Gemini's
      // server-side MCP tools): the provider ran it, so it is recorded as its, not dispatched.
      state.executor ??= 'provider';
      if (state.final === undefined) this.end(this.#keyOf(state) as string);
      this.#record(state);
    }
    const callId = state?.callId ?? this.#session.callIdOf(id) ?? id;
    this.#emit(
      this.#session.record(
        isError
          ? { type: 'tool/result', callId, output, isError: true, executor: 'provider' }
          : { type: 'tool/result', callId, output, executor: 'provider' },
      ),
    );
  }

  /** The callId of the call the provider knows as `providerId` in this attempt, if any. */
  callIdOf(providerId: string): string | undefined {
    for (const state of this.#blocks.values()) {
      if (state.kind === 'tool' && state.providerId === providerId) return state.callId;
    }
    return undefined;
  }

  /**
   * The response ended normally: ends open blocks, then emits the durable records and the
   * settle (see rule 4). `truncated`: the provider stopped inside the response (its token
   * limit, a content filter), so a call open at the end is cut.
   */
  finish(ending: Ending = {}): void {
    if (!this.live) return;
    let lastBlock: BlockState | undefined;
    for (const state of this.#blocks.values()) {
      const shown =
        state.kind === 'tool'
          ? state.name !== undefined
          : (state.final ?? state.parts.text()) !== '';
      if (shown) lastBlock = state;
    }
    if (ending.truncated && lastBlock?.kind === 'tool' && !lastBlock.recorded) lastBlock.cut = true;
    for (const [key] of this.#blocks) this.end(key);
    const blocks: MessageBlock[] = [];
    const calls: ToolBlockState[] = [];
    for (const state of this.#blocks.values()) {
      if (state.kind === 'tool') {
        if (state.callId === undefined || state.name === undefined) continue;
        blocks.push(this.#toolUse(state));
        if (state.executor !== 'provider' && !state.cut) calls.push(state);
      } else if (state.final) {
        blocks.push({ type: state.kind, text: state.final });
      }
    }
    this.#state = 'finished';
    const stopReason = ending.stopReason ?? (calls.length > 0 ? 'tool-calls' : 'end');
    this.#emit(
      this.#session.record({
        type: 'assistant/message',
        messageId: this.messageId ?? this.attemptId,
        attemptId: this.attemptId,
        blocks,
        stopReason,
      }),
    );
    if (this.#dispatch === 'host') return;
    for (const call of calls) {
      this.#emit(
        this.#session.call(
          call.callId as string,
          call.name as string,
          argsOf(call),
          this.#shape(call),
        ),
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

  /** A fragment just appended to `stream`'s text: a continuation, unless a sink holds its run. */
  #continue(stream: TextBlockStream | ToolBlockStream, fragment: string): void {
    if (!stream.held) this.#sink.continuation(stream, fragment);
  }

  #show(state: ToolBlockState): void {
    const callId = this.#session.claimCallId(state.providerId, `${this.attemptId}:${state.block}`);
    state.callId = callId;
    this.#callIds.add(callId);
    const shape = this.#shape(state);
    const fixed =
      shape.input !== undefined ||
      shape.executor !== undefined ||
      shape.providerCallId !== undefined;
    state.stream = new ToolBlockStream(
      state.parts,
      this.attemptId,
      state.block,
      callId,
      fixed ? shape : undefined,
    );
    // The text so far is cut: it travels on this delta, not on a continuation (EventSink).
    this.#emit({
      type: 'stream/tool-call-delta',
      attemptId: this.attemptId,
      block: state.block,
      callId,
      name: state.name as string,
      args: state.parts.cut(),
      ...shape,
    });
    if (state.final !== undefined) {
      this.#toolEnd(state);
      if (state.executor === 'provider') this.#record(state);
    }
  }

  /** The optional fields a call carries on its deltas, its tool-use block and its `tool/call`. */
  #shape(state: ToolBlockState): CallShape {
    const shape: { -readonly [K in keyof CallShape]: CallShape[K] } = {};
    if (state.input !== undefined) shape.input = state.input;
    if (state.executor !== undefined) shape.executor = state.executor;
    if (state.providerId !== undefined && state.providerId !== state.callId) {
      shape.providerCallId = state.providerId;
    }
    return shape;
  }

  #toolUse(state: ToolBlockState): ToolUseBlock {
    return {
      type: 'tool-use',
      callId: state.callId as string,
      name: state.name as string,
      argsText: state.final as string,
      ...this.#shape(state),
      ...(state.cut ? { incomplete: true } : {}),
    };
  }

  /** Emits a provider-executed call's durable `tool/call`, once. */
  #record(state: ToolBlockState): void {
    if (state.recorded || state.callId === undefined || state.final === undefined) return;
    state.recorded = true;
    this.#emit(
      this.#session.call(state.callId, state.name as string, argsOf(state), this.#shape(state)),
    );
  }

  #callOf(id: string): ToolBlockState | undefined {
    const byKey = this.#blocks.get(id);
    if (byKey?.kind === 'tool') return byKey;
    for (const state of this.#blocks.values()) {
      if (state.kind === 'tool' && (state.providerId === id || state.callId === id)) return state;
    }
    return undefined;
  }

  #keyOf(target: ToolBlockState): string | undefined {
    for (const [key, state] of this.#blocks) if (state === target) return key;
    return undefined;
  }

  #toolEnd(state: ToolBlockState): void {
    const event: BlockEndEvent = {
      type: 'stream/block-end',
      attemptId: this.attemptId,
      block: state.block,
      callId: state.callId as string,
      text: state.final as string,
      ...(state.input === undefined ? {} : { input: state.input }),
    };
    if (state.joined) this.#sink.joinedEnd(event);
    else this.#emit(event);
  }
}

/** What a call is dispatched with: the provider's object when it sent one, else the text. */
function argsOf(state: ToolBlockState): string | Record<string, unknown> {
  return state.object ?? (state.final as string);
}

function nonEmpty(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0;
}

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  if (!isRecord(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** JSON text of untrusted arguments, or undefined when they cannot be written (cyclic, BigInt). */
function writeJson(value: Record<string, unknown>): string | undefined {
  try {
    return jsonText(value);
  } catch {
    return undefined;
  }
}
