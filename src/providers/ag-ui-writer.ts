import { jsonText } from '../events/json-text.js';
import type {
  AssistantMessageEvent,
  CallfoldEvent,
  ToolCallEvent,
  ToolResultEvent,
  ToolUseBlock,
} from '../events/types.js';
import type { AGUIEvent, CallfoldMetadata } from './ag-ui-event.js';

export interface ToAGUIOptions {
  /** The AG-UI `threadId` of every run. Default `'callfold'`. */
  readonly threadId?: string;
}

interface BlockOut {
  readonly kind: 'text' | 'reasoning' | 'tool';
  /** The AG-UI messageId or toolCallId. */
  readonly id: string;
  name: string | undefined;
  started: boolean;
  ended: boolean;
  /** Argument text that came before the name (AG-UI starts a call with its name). */
  held: string;
  /** UTF-16 units written as content so far. */
  length: number;
  readonly meta: CallfoldMetadata;
}

interface AttemptOut {
  /** The AG-UI id of its first text message and its calls' `parentMessageId`. */
  readonly base: string;
  readonly blocks: Map<number, BlockOut>;
  finished: boolean;
}

/**
 * Turns callfold events into AG-UI events, one session's stream in order (see `toAGUI` for
 * the mapping). Stateful: one writer per AG-UI stream.
 */
export class AGUIWriter {
  readonly #threadId: string;
  #run: string | undefined;
  #runs = 0;
  readonly #attempts = new Map<string, AttemptOut>();
  /** Calls whose `TOOL_CALL_START` went out. */
  readonly #emitted = new Set<string>();
  /** Provider-run calls recorded before their message (history), with their results. */
  readonly #pending = new Map<string, { call: ToolCallEvent; results: ToolResultEvent[] }>();

  constructor(options: ToAGUIOptions = {}) {
    this.#threadId = options.threadId ?? 'callfold';
  }

  /** Appends to `out` the AG-UI events `event` stands for (none, one or several). */
  write(event: CallfoldEvent, out: AGUIEvent[]): void {
    switch (event.type) {
      case 'turn/start':
        if (this.#run !== undefined) this.#finishRun(out, true);
        this.#startRun(out, event.turnId, false, event.prompt);
        return;
      case 'turn/end':
        if (this.#run !== event.turnId) {
          if (this.#run !== undefined) this.#finishRun(out, true);
          this.#startRun(out, event.turnId, true);
        }
        this.#finishRun(out, false);
        return;
      case 'stream/text-delta':
      case 'stream/tool-call-delta': {
        this.#ensureRun(out, event.attemptId);
        const attempt = this.#attempt(event.attemptId, event.attemptId);
        let block = attempt.blocks.get(event.block);
        if (block === undefined) {
          block = this.#open(attempt, event);
          attempt.blocks.set(event.block, block);
        }
        const fragment = event.type === 'stream/text-delta' ? event.text : event.args;
        if (event.type === 'stream/tool-call-delta') block.name ??= event.name;
        this.#content(out, attempt, block, fragment);
        return;
      }
      case 'stream/block-end':
        this.#blockEnd(out, event.attemptId, event.block, event.text);
        return;
      case 'assistant/message':
        this.#message(out, event);
        return;
      case 'tool/call':
        if (this.#emitted.has(event.callId)) return;
        if (event.executor === 'provider') {
          this.#pending.set(event.callId, { call: event, results: [] });
          return;
        }
        this.#ensureRun(out, `${event.seq}`);
        this.#standalone(out, event);
        return;
      case 'tool/result': {
        const pending = this.#pending.get(event.callId);
        if (pending) pending.results.push(event);
        else {
          this.#ensureRun(out, `${event.seq}`);
          out.push(resultEvent(event));
        }
        return;
      }
      case 'tool/approval-request':
      case 'tool/approval': {
        this.#ensureRun(out, `${event.seq}`);
        const { seq: _seq, at: _at, type, ...value } = event;
        out.push({ type: 'CUSTOM', name: `callfold.${type.slice(5)}`, value });
        return;
      }
      case 'stream/settle': {
        const attempt = this.#attempts.get(event.attemptId);
        this.#attempts.delete(event.attemptId);
        if (attempt === undefined || attempt.finished) return;
        this.#closeBlocks(out, attempt);
        out.push({
          type: 'CUSTOM',
          name: 'callfold.settle',
          value: { attemptId: event.attemptId },
        });
        return;
      }
      default:
        event satisfies never;
    }
  }

  /** The source ended: open messages and calls end, an open run finishes (no `turn/end`). */
  end(out: AGUIEvent[]): void {
    if (this.#run !== undefined) this.#finishRun(out, true);
  }

  #startRun(out: AGUIEvent[], runId: string, synthetic: boolean, prompt?: string): void {
    this.#run = runId;
    const threadId = this.#threadId;
    out.push({
      type: 'RUN_STARTED',
      threadId,
      runId,
      ...(prompt === undefined
        ? {}
        : {
            input: {
              threadId,
              runId,
              state: {},
              messages: [{ id: `${runId}:prompt`, role: 'user' as const, content: prompt }],
              tools: [],
              context: [],
              forwardedProps: {},
            },
          }),
      ...(synthetic ? { metadata: { callfold: { synthetic: true } } } : {}),
    });
  }

  #ensureRun(out: AGUIEvent[], hint: string): void {
    if (this.#run === undefined) this.#startRun(out, `callfold-run-${++this.#runs}-${hint}`, true);
  }

  #finishRun(out: AGUIEvent[], synthetic: boolean): void {
    for (const attempt of this.#attempts.values()) this.#closeBlocks(out, attempt);
    for (const [callId, pending] of this.#pending) {
      this.#pending.delete(callId);
      this.#standalone(out, pending.call);
      for (const result of pending.results) out.push(resultEvent(result));
    }
    out.push({
      type: 'RUN_FINISHED',
      threadId: this.#threadId,
      runId: this.#run as string,
      ...(synthetic ? { metadata: { callfold: { synthetic: true } } } : {}),
    });
    this.#run = undefined;
  }

  #attempt(attemptId: string, base: string): AttemptOut {
    let attempt = this.#attempts.get(attemptId);
    if (attempt === undefined) {
      attempt = { base, blocks: new Map(), finished: false };
      this.#attempts.set(attemptId, attempt);
    }
    return attempt;
  }

  #open(
    attempt: AttemptOut,
    event: Extract<CallfoldEvent, { type: 'stream/text-delta' | 'stream/tool-call-delta' }>,
  ): BlockOut {
    const meta: { -readonly [K in keyof CallfoldMetadata]: CallfoldMetadata[K] } = {
      attemptId: event.attemptId,
    };
    if (event.type === 'stream/text-delta') {
      const first = ![...attempt.blocks.values()].some((block) => block.kind === 'text');
      const kind = event.reasoning ? 'reasoning' : 'text';
      const id = kind === 'text' && first ? attempt.base : `${attempt.base}:${event.block}`;
      return { kind, id, name: undefined, started: false, ended: false, held: '', length: 0, meta };
    }
    if (event.executor !== undefined) meta.executor = event.executor;
    if (event.input !== undefined) meta.input = event.input;
    if (event.providerCallId !== undefined) meta.providerCallId = event.providerCallId;
    const { callId: id, name } = event;
    return { kind: 'tool', id, name, started: false, ended: false, held: '', length: 0, meta };
  }

  /** A fragment of `block`: its start first (a call's once named), then the content. */
  #content(out: AGUIEvent[], attempt: AttemptOut, block: BlockOut, fragment: string): void {
    if (block.ended) return;
    if (!block.started) {
      if (block.kind === 'tool' && block.name === undefined) {
        block.held += fragment;
        return;
      }
      this.#start(out, attempt, block);
      fragment = block.held + fragment;
      block.held = '';
    }
    if (fragment === '') return;
    block.length += fragment.length;
    const { id } = block;
    if (block.kind === 'tool')
      out.push({ type: 'TOOL_CALL_ARGS', toolCallId: id, delta: fragment });
    else if (block.kind === 'text')
      out.push({ type: 'TEXT_MESSAGE_CONTENT', messageId: id, delta: fragment });
    else out.push({ type: 'REASONING_MESSAGE_CONTENT', messageId: id, delta: fragment });
  }

  #start(out: AGUIEvent[], attempt: AttemptOut, block: BlockOut): void {
    block.started = true;
    const metadata = { callfold: block.meta };
    if (block.kind === 'tool') {
      this.#emitted.add(block.id);
      const name = block.name as string;
      out.push({
        type: 'TOOL_CALL_START',
        toolCallId: block.id,
        toolCallName: name,
        parentMessageId: attempt.base,
        metadata,
      });
    } else if (block.kind === 'text') {
      out.push({ type: 'TEXT_MESSAGE_START', messageId: block.id, role: 'assistant', metadata });
    } else {
      out.push({
        type: 'REASONING_MESSAGE_START',
        messageId: block.id,
        role: 'reasoning',
        metadata,
      });
    }
  }

  #end(out: AGUIEvent[], block: BlockOut, text?: string): void {
    if (block.ended || !block.started) return;
    block.ended = true;
    const { id } = block;
    if (block.kind === 'tool') {
      const exact = text === undefined || text.length === block.length;
      out.push(
        exact
          ? { type: 'TOOL_CALL_END', toolCallId: id }
          : { type: 'TOOL_CALL_END', toolCallId: id, metadata: { callfold: { text } } },
      );
    } else {
      out.push({
        type: block.kind === 'text' ? 'TEXT_MESSAGE_END' : 'REASONING_MESSAGE_END',
        messageId: id,
      });
    }
  }

  #blockEnd(out: AGUIEvent[], attemptId: string, index: number, text: string): void {
    const attempt = this.#attempts.get(attemptId);
    const block = attempt?.blocks.get(index);
    if (attempt === undefined || block === undefined) return;
    if (!block.started && block.kind !== 'tool') this.#content(out, attempt, block, '');
    if (block.kind !== 'tool' && block.length === 0) this.#content(out, attempt, block, text);
    this.#end(out, block, text);
  }

  #closeBlocks(out: AGUIEvent[], attempt: AttemptOut): void {
    for (const block of attempt.blocks.values()) this.#end(out, block);
  }

  /**
   * An attempt's `assistant/message`: the blocks no delta carried (all of them for a message
   * from history), then `callfold.message`, which ends the attempt on the reading side.
   */
  #message(out: AGUIEvent[], event: AssistantMessageEvent): void {
    this.#ensureRun(out, event.attemptId);
    const streamed = this.#attempts.get(event.attemptId);
    const attempt = streamed ?? this.#attempt(event.attemptId, event.messageId);
    if (streamed === undefined) {
      let texts = 0;
      for (const [index, block] of event.blocks.entries()) {
        if (block.type === 'tool-use') {
          this.#toolUse(out, attempt, block, event.attemptId);
          continue;
        }
        const id =
          block.type === 'text' && texts++ === 0 ? attempt.base : `${attempt.base}:${index}`;
        const out_: BlockOut = {
          kind: block.type,
          id,
          name: undefined,
          started: false,
          ended: false,
          held: '',
          length: 0,
          meta: { attemptId: event.attemptId },
        };
        this.#content(out, attempt, out_, block.text);
        this.#end(out, out_);
      }
    } else {
      for (const block of event.blocks) {
        if (block.type === 'tool-use') this.#toolUse(out, attempt, block, event.attemptId);
      }
      this.#closeBlocks(out, attempt);
    }
    attempt.finished = true;
    const truncated = event.blocks.some(
      (block) => block.type === 'tool-use' && block.incomplete === true,
    );
    out.push({
      type: 'CUSTOM',
      name: 'callfold.message',
      value: {
        attemptId: event.attemptId,
        messageId: event.messageId,
        ...(event.stopReason === undefined ? {} : { stopReason: event.stopReason }),
        ...(truncated ? { truncated } : {}),
      },
    });
  }

  /** A tool-use block no delta carried: the whole call, then its held provider results. */
  #toolUse(out: AGUIEvent[], attempt: AttemptOut, block: ToolUseBlock, attemptId: string): void {
    if (this.#emitted.has(block.callId)) return;
    const meta: { -readonly [K in keyof CallfoldMetadata]: CallfoldMetadata[K] } = { attemptId };
    if (block.executor !== undefined) meta.executor = block.executor;
    if (block.input !== undefined) meta.input = block.input;
    if (block.providerCallId !== undefined) meta.providerCallId = block.providerCallId;
    const call: BlockOut = {
      kind: 'tool',
      id: block.callId,
      name: block.name,
      started: false,
      ended: false,
      held: '',
      length: 0,
      meta,
    };
    this.#content(out, attempt, call, block.argsText);
    this.#end(out, call, block.argsText);
    const pending = this.#pending.get(block.callId);
    this.#pending.delete(block.callId);
    for (const result of pending?.results ?? []) out.push(resultEvent(result));
  }

  /** A call no message carried (a host's own, or one whose message came before the stream). */
  #standalone(out: AGUIEvent[], event: ToolCallEvent): void {
    const meta: { -readonly [K in keyof CallfoldMetadata]: CallfoldMetadata[K] } = {};
    if (event.executor !== undefined) meta.executor = event.executor;
    if (event.input !== undefined) meta.input = event.input;
    const args = typeof event.args === 'string' ? event.args : (writeJson(event.args) ?? '{}');
    const attempt: AttemptOut = {
      base: `${event.callId}:message`,
      blocks: new Map(),
      finished: true,
    };
    const call: BlockOut = {
      kind: 'tool',
      id: event.callId,
      name: event.name,
      started: false,
      ended: false,
      held: '',
      length: 0,
      meta,
    };
    this.#content(out, attempt, call, args);
    this.#end(out, call, args);
  }
}

function resultEvent(event: ToolResultEvent): AGUIEvent {
  const text = typeof event.output === 'string';
  const meta: { -readonly [K in keyof CallfoldMetadata]: CallfoldMetadata[K] } = {};
  if (!text) meta.json = true;
  if (event.isError === true) meta.isError = true;
  if (event.executor !== undefined) meta.executor = event.executor;
  const content = text ? (event.output as string) : (writeJson(event.output) ?? 'null');
  return {
    type: 'TOOL_CALL_RESULT',
    messageId: `${event.callId}:result:${event.seq}`,
    toolCallId: event.callId,
    content,
    role: 'tool',
    ...(Object.keys(meta).length > 0 ? { metadata: { callfold: meta } } : {}),
  };
}

function writeJson(value: unknown): string | undefined {
  try {
    return jsonText(value);
  } catch {
    return undefined;
  }
}
