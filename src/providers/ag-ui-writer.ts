import { jsonText } from '../events/json-text.js';
import type {
  AssistantMessageEvent,
  CallfoldEvent,
  ToolCallEvent,
  ToolResultEvent,
  ToolUseBlock,
} from '../events/types.js';
import { AGUIBlock } from './ag-ui-block.js';
import type { AGUIEvent, CallfoldMetadata } from './ag-ui-event.js';

export interface ToAGUIOptions {
  /** The AG-UI `threadId` of every run. Default `'callfold'`. */
  readonly threadId?: string;
}

interface AttemptOut {
  /** The AG-UI id of its first text message and its calls' `parentMessageId`. */
  readonly base: string;
  readonly blocks: Map<number, AGUIBlock>;
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
        if (event.type === 'stream/tool-call-delta') block.name ??= event.name;
        this.#write(out, block, event.type === 'stream/text-delta' ? event.text : event.args);
        return;
      }
      case 'stream/block-end':
        this.#blockEnd(out, event);
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
  ): AGUIBlock {
    const { attemptId } = event;
    if (event.type === 'stream/tool-call-delta') {
      return AGUIBlock.call(event.callId, event.name, attempt.base, event, attemptId);
    }
    const first = ![...attempt.blocks.values()].some((block) => block.kind === 'text');
    const kind = event.reasoning ? 'reasoning' : 'text';
    const id = kind === 'text' && first ? attempt.base : `${attempt.base}:${event.block}`;
    return new AGUIBlock(kind, id, attempt.base, { attemptId });
  }

  /** A fragment of `block`; a call's start is noted, so that its `tool/call` writes nothing. */
  #write(out: AGUIEvent[], block: AGUIBlock, fragment: string): void {
    block.write(out, fragment);
    if (block.kind === 'tool' && block.started) this.#emitted.add(block.id);
  }

  /**
   * A block's end: a text block no delta carried is written whole (as text: the event does
   * not say reasoning); a call no delta named cannot start, and its `tool/call` writes it.
   */
  #blockEnd(out: AGUIEvent[], event: Extract<CallfoldEvent, { type: 'stream/block-end' }>): void {
    const { attemptId, text } = event;
    let block = this.#attempts.get(attemptId)?.blocks.get(event.block);
    if (block === undefined) {
      if (event.callId !== undefined || text === '') return;
      this.#ensureRun(out, attemptId);
      const attempt = this.#attempt(attemptId, attemptId);
      block = new AGUIBlock('text', `${attempt.base}:${event.block}`, attempt.base, { attemptId });
      attempt.blocks.set(event.block, block);
    }
    if (block.kind !== 'tool' && block.length === 0) block.write(out, text);
    block.end(out, text);
  }

  #closeBlocks(out: AGUIEvent[], attempt: AttemptOut): void {
    for (const block of attempt.blocks.values()) block.end(out);
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
        const meta = { attemptId: event.attemptId };
        new AGUIBlock(block.type, id, attempt.base, meta).whole(out, block.text);
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
    const call = AGUIBlock.call(block.callId, block.name, attempt.base, block, attemptId);
    call.whole(out, block.argsText);
    this.#emitted.add(block.callId);
    const pending = this.#pending.get(block.callId);
    this.#pending.delete(block.callId);
    for (const result of pending?.results ?? []) out.push(resultEvent(result));
  }

  /** A call no message carried (a host's own, or one whose message came before the stream). */
  #standalone(out: AGUIEvent[], event: ToolCallEvent): void {
    const args = typeof event.args === 'string' ? event.args : (writeJson(event.args) ?? '{}');
    const { executor, input } = event;
    const shape = { ...(executor ? { executor } : {}), ...(input ? { input } : {}) };
    AGUIBlock.call(event.callId, event.name, `${event.callId}:message`, shape).whole(out, args);
    this.#emitted.add(event.callId);
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
