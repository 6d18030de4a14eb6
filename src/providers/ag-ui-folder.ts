import type { StopReason } from '../events/types.js';
import { type AdapterOptions, type AdapterRun, warnMalformed } from './adapter-run.js';
import { type ChunkKind, ChunkLanes, type ChunkTarget } from './ag-ui-chunks.js';
import { snapshotEvents } from './ag-ui-snapshot.js';
import type { Attempt, Ending } from './attempt.js';
import { errorMessage, ProviderStreamError } from './provider-stream-error.js';
import { isRecord } from './read-chunk.js';

export const provider = 'ag-ui';

/** A block of the live attempt, by its AG-UI id (a messageId or a toolCallId). */
interface Ref {
  readonly attempt: Attempt;
  readonly key: string;
  open: boolean;
  readonly provider: boolean;
}

/** callfold's own fields of an event (`metadata.callfold`, written by `toAGUI`). */
export function callfoldMeta(event: Record<string, unknown>): Record<string, unknown> | undefined {
  const metadata = event.metadata;
  if (!isRecord(metadata) || !Object.hasOwn(metadata, 'callfold')) return undefined;
  const meta = metadata.callfold;
  return isRecord(meta) ? meta : undefined;
}

function nonEmpty(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
}

/**
 * One subscription's fold of AG-UI events: see `fromAGUI` for the rules. The hot path is a
 * run of `TOOL_CALL_ARGS` (or `TEXT_MESSAGE_CONTENT`) for the block before it: one id
 * compared, one `Attempt.args` (docs/decisions/0011-sdk-stream-costs.md).
 */
export class AGUIFolder implements ChunkTarget {
  readonly #run: AdapterRun;
  readonly #host: boolean;
  readonly #onMalformed: (error: ProviderStreamError) => void;
  readonly #lanes: ChunkLanes;
  readonly #texts = new Map<string, Ref>();
  readonly #reasoning = new Map<string, Ref>();
  readonly #tools = new Map<string, Ref>();
  /** Text messages of other roles than `assistant`: their content is not the model's. */
  readonly #ignored = new Set<string>();
  /** AG-UI message ids of the live attempt; the first names it. */
  #ids: string[] = [];
  /** The live attempt has a text or tool block (a reasoning message after it starts a new response). */
  #output = false;
  /** Records that wait until the live attempt has settled (its `tool/call` comes first). */
  #held: (() => void)[] = [];
  readonly #attemptIds = new Set<string>();
  /** The callfold attemptId the live attempt was opened for (its own, unless that was taken). */
  #liveMeta: string | undefined;
  /** `AdapterOptions.attemptId`: the run's first attempt, when the stream names none. */
  readonly #firstAttemptId: string | undefined;
  /** What is already recorded, so that a snapshot adds only what is missing. */
  readonly known = { messages: new Set<string>(), results: new Set<string>() };
  #runId: string | undefined;
  #keys = 0;
  #lastToolId: unknown;
  #lastTool: Ref | undefined;
  #lastTextId: unknown;
  #lastText: Ref | undefined;

  constructor(run: AdapterRun, options: AdapterOptions) {
    this.#run = run;
    this.#host = options.dispatch === 'host';
    this.#firstAttemptId = options.attemptId;
    this.#onMalformed = options.onMalformed ?? warnMalformed;
    this.#lanes = new ChunkLanes(this, (message, chunk) =>
      this.#onMalformed(new ProviderStreamError(provider, message, { payload: chunk })),
    );
  }

  readonly fold = (chunk: unknown): void => {
    const event = chunk as Record<string, unknown>;
    const type = event.type;
    if (this.#lanes.size === 0) {
      if (type === 'TOOL_CALL_ARGS' && event.toolCallId === this.#lastToolId) {
        const ref = this.#lastTool as Ref;
        ref.attempt.args(ref.key, event.delta);
        return;
      }
      if (type === 'TEXT_MESSAGE_CONTENT' && event.messageId === this.#lastTextId) {
        const ref = this.#lastText as Ref;
        ref.attempt.text(ref.key, event.delta);
        return;
      }
    }
    switch (type) {
      case 'TEXT_MESSAGE_CHUNK':
        this.#lanes.chunk('text', event);
        return;
      case 'TOOL_CALL_CHUNK':
        this.#lanes.chunk('tool', event);
        return;
      case 'REASONING_MESSAGE_CHUNK':
        this.#lanes.chunk('reasoning', event);
        return;
      case 'RUN_STARTED':
      case 'RUN_FINISHED':
      case 'RUN_ERROR':
      case 'MESSAGES_SNAPSHOT':
        this.#lanes.closeAll();
        this.#boundary(type, event);
        return;
      default:
        break;
    }
    if (typeof type !== 'string') return;
    if (this.#lanes.size > 0) this.#lanes.closeLaneOf(event);
    switch (type) {
      case 'TEXT_MESSAGE_START':
        if (this.#idOf(event, 'messageId')) this.start('text', event.messageId as string, event);
        return;
      case 'REASONING_MESSAGE_START':
        if (this.#idOf(event, 'messageId'))
          this.start('reasoning', event.messageId as string, event);
        return;
      case 'TOOL_CALL_START':
        if (this.#idOf(event, 'toolCallId')) this.start('tool', event.toolCallId as string, event);
        return;
      case 'TEXT_MESSAGE_CONTENT':
        this.content('text', event.messageId as string, event.delta);
        return;
      case 'REASONING_MESSAGE_CONTENT':
        this.content('reasoning', event.messageId as string, event.delta);
        return;
      case 'TOOL_CALL_ARGS':
        this.content('tool', event.toolCallId as string, event.delta);
        return;
      case 'TEXT_MESSAGE_END':
        this.end('text', event.messageId as string);
        return;
      case 'REASONING_MESSAGE_END':
        this.end('reasoning', event.messageId as string);
        return;
      case 'TOOL_CALL_END':
        this.end('tool', event.toolCallId as string, callfoldMeta(event)?.text);
        return;
      case 'TOOL_CALL_RESULT':
        this.#result(event);
        return;
      case 'STEP_STARTED':
      case 'STEP_FINISHED':
        if (!this.#run.live?.hasOpenCall()) this.#finish();
        return;
      case 'CUSTOM':
        this.#custom(event);
        return;
      default:
        return;
    }
  };

  #idOf(event: Record<string, unknown>, field: string): boolean {
    if (nonEmpty(event[field])) return true;
    this.#onMalformed(
      new ProviderStreamError(provider, `${event.type} without a ${field}`, { payload: event }),
    );
    return false;
  }

  start(kind: ChunkKind, id: string, event: Record<string, unknown>): void {
    const map = this.#map(kind);
    if (kind === 'text' && event.role !== undefined && event.role !== 'assistant') {
      this.#ignored.add(id);
      return;
    }
    const meta = callfoldMeta(event);
    const messageId = kind === 'tool' ? event.parentMessageId : kind === 'text' ? id : undefined;
    const attempt = this.#attemptFor(
      meta?.attemptId,
      nonEmpty(messageId) ? messageId : undefined,
      kind === 'reasoning',
    );
    const ref = map.get(id);
    if (ref?.open && ref.attempt === attempt) return;
    const key = `${kind[0]}${this.#keys++}`;
    const executor = meta?.executor === 'provider';
    if (kind === 'tool') {
      attempt.tool(key, {
        id,
        name: event.toolCallName,
        ...(executor ? { executor: 'provider' as const } : {}),
        ...(meta?.input === 'text' ? { input: 'text' as const } : {}),
      });
    } else attempt.open(key, kind);
    if (kind !== 'reasoning') this.#output = true;
    map.set(id, { attempt, key, open: true, provider: executor });
  }

  content(kind: ChunkKind, id: string, delta: unknown): void {
    const ref = this.#map(kind).get(id);
    if (!ref?.open || ref.attempt !== this.#run.live) return;
    if (kind === 'tool') {
      this.#lastToolId = id;
      this.#lastTool = ref;
      ref.attempt.args(ref.key, delta);
    } else {
      if (kind === 'text') {
        this.#lastTextId = id;
        this.#lastText = ref;
      }
      ref.attempt.text(ref.key, delta, kind === 'reasoning');
    }
  }

  end(kind: ChunkKind, id: string, text?: unknown): void {
    const ref = this.#map(kind).get(id);
    if (!ref?.open) return;
    ref.open = false;
    if (id === this.#lastToolId) this.#lastToolId = undefined;
    if (id === this.#lastTextId) this.#lastTextId = undefined;
    if (ref.attempt === this.#run.live)
      ref.attempt.end(ref.key, typeof text === 'string' ? text : undefined);
  }

  #map(kind: ChunkKind): Map<string, Ref> {
    return kind === 'tool' ? this.#tools : kind === 'text' ? this.#texts : this.#reasoning;
  }

  /**
   * The attempt a new block belongs to: the live one, unless the block starts another model
   * response: another callfold attemptId, another AG-UI message id, or a reasoning message
   * after text or calls. A response with a call still open is never split.
   */
  #attemptFor(attemptId: unknown, messageId: string | undefined, reasoning: boolean): Attempt {
    const live = this.#run.live;
    if (live) {
      const split = nonEmpty(attemptId)
        ? attemptId !== this.#liveMeta
        : (messageId !== undefined && this.#ids.length > 0 && !this.#ids.includes(messageId)) ||
          (reasoning && this.#output);
      if (!split || live.hasOpenCall()) {
        if (messageId !== undefined && !this.#ids.includes(messageId)) this.#ids.push(messageId);
        live.messageId ??= messageId;
        return live;
      }
      this.#finish();
    }
    const named = nonEmpty(attemptId) && !this.#attemptIds.has(attemptId) ? attemptId : undefined;
    const attempt = this.#run.attempt(named ?? this.#freshAttemptId());
    this.#attemptIds.add(attempt.attemptId);
    this.#liveMeta = nonEmpty(attemptId) ? attemptId : undefined;
    this.#ids = messageId === undefined ? [] : [messageId];
    this.#output = false;
    attempt.messageId ??= messageId;
    return attempt;
  }

  /**
   * A new attemptId none of this run's attempts has: the session's next one, unless a stream
   * that names its own attempts already took it (the Assembler ignores stream events of an
   * attemptId it saw settle).
   */
  #freshAttemptId(): string {
    if (this.#attemptIds.size === 0 && this.#firstAttemptId !== undefined) {
      return this.#firstAttemptId;
    }
    let attemptId = this.#run.session.nextAttemptId();
    for (let n = 2; this.#attemptIds.has(attemptId); n++) {
      attemptId = n < 8 ? this.#run.session.nextAttemptId() : `${attemptId}~${n}`;
    }
    return attemptId;
  }

  /** The live attempt ended normally: its records, then what waited for them. */
  #finish(ending: Ending = {}): void {
    const live = this.#run.live;
    if (live) {
      for (const id of this.#ids) this.known.messages.add(id);
      if (live.messageId !== undefined) this.known.messages.add(live.messageId);
      this.#run.finishAttempt(ending);
    }
    this.#forget();
    const held = this.#held;
    this.#held = [];
    for (const record of held) record();
  }

  /** The live attempt was cut: it settles alone, and what waited for it is dropped. */
  #abort(): void {
    this.#run.abort();
    this.#held = [];
    this.#forget();
  }

  #forget(): void {
    this.#texts.clear();
    this.#reasoning.clear();
    this.#tools.clear();
    this.#ids = [];
    this.#lastToolId = undefined;
    this.#lastTextId = undefined;
  }

  #boundary(type: string, event: Record<string, unknown>): void {
    const synthetic = callfoldMeta(event)?.synthetic === true;
    switch (type) {
      case 'RUN_STARTED': {
        if (this.#run.live) this.#abort();
        const runId = nonEmpty(event.runId) ? event.runId : undefined;
        this.#runId = synthetic ? undefined : runId;
        if (this.#runId === undefined) return;
        const prompt = promptOf(event.input);
        this.#run.emit(this.#run.session.turn('turn/start', this.#runId, prompt));
        return;
      }
      case 'RUN_FINISHED': {
        if (this.#run.live?.hasOpenCall()) this.#abort();
        else this.#finish();
        const runId = this.#runId;
        this.#runId = undefined;
        if (runId !== undefined && !synthetic) {
          this.#run.emit(this.#run.session.turn('turn/end', runId));
        }
        return;
      }
      case 'RUN_ERROR':
        this.#abort();
        if (event.code === 'abort') {
          this.#run.stop();
          return;
        }
        throw new ProviderStreamError(provider, errorMessage(event, 'run error'), {
          payload: event,
        });
      default:
        snapshotEvents(this.#run, event.messages, this.known, (toolCallId) =>
          this.#tools.has(toolCallId),
        );
    }
  }

  #result(event: Record<string, unknown>): void {
    const toolCallId = event.toolCallId;
    if (!this.#idOf(event, 'toolCallId')) return;
    const id = toolCallId as string;
    if (this.#host) {
      // The host records results; the response that made the call is over all the same.
      const ref = this.#tools.get(id);
      if (ref && ref.attempt === this.#run.live && !ref.attempt.hasOpenCall()) this.#finish();
      return;
    }
    const meta = callfoldMeta(event);
    let output: unknown = event.content;
    if (meta?.json === true && typeof output === 'string') {
      try {
        output = JSON.parse(output);
      } catch {
        // Not JSON after all: the text is the output.
      }
    }
    const isError = meta?.isError === true;
    const live = this.#run.live;
    const ref = this.#tools.get(id);
    if (live && ref?.attempt === live) {
      if (ref.provider) {
        live.providerResult(ref.key, output, isError);
        this.known.results.add(this.#callId(id));
        return;
      }
      const record = () => this.#record(id, output, isError, meta?.executor === 'provider');
      // A result means the agent ran the call: the response that made it is over.
      if (live.hasOpenCall()) this.#held.push(record);
      else {
        this.#finish();
        record();
      }
      return;
    }
    this.#record(id, output, isError, meta?.executor === 'provider');
  }

  #callId(toolCallId: string): string {
    return this.#run.session.callIdOf(toolCallId) ?? toolCallId;
  }

  #record(toolCallId: string, output: unknown, isError: boolean, executor: boolean): void {
    const callId = this.#callId(toolCallId);
    this.known.results.add(callId);
    this.#run.emit(
      this.#run.session.record({
        type: 'tool/result',
        callId,
        output,
        ...(isError ? { isError: true } : {}),
        ...(executor ? { executor: 'provider' as const } : {}),
      }),
    );
  }

  /** callfold's own records (see `AGUICustom`); other custom events are ignored. */
  #custom(event: Record<string, unknown>): void {
    const value = event.value;
    if (!isRecord(value)) return;
    const live = this.#run.live;
    switch (event.name) {
      case 'callfold.message':
        if (live && value.attemptId === this.#liveMeta && !live.hasOpenCall()) {
          if (nonEmpty(value.messageId)) live.messageId = value.messageId;
          const stopReason = nonEmpty(value.stopReason)
            ? (value.stopReason as StopReason)
            : undefined;
          const truncated = value.truncated === true;
          this.#finish(stopReason === undefined ? { truncated } : { stopReason, truncated });
        }
        return;
      case 'callfold.settle':
        if (live && value.attemptId === this.#liveMeta) this.#abort();
        return;
      case 'callfold.approval-request':
      case 'callfold.approval': {
        if (this.#host || !nonEmpty(value.callId)) return;
        const record = () => {
          const callId = this.#callId(value.callId as string);
          const approvalId = nonEmpty(value.approvalId) ? { approvalId: value.approvalId } : {};
          const reason = nonEmpty(value.reason) ? { reason: value.reason } : {};
          this.#run.emit(
            this.#run.session.record(
              event.name === 'callfold.approval'
                ? {
                    type: 'tool/approval',
                    callId,
                    approved: value.approved === true,
                    ...reason,
                    ...approvalId,
                  }
                : { type: 'tool/approval-request', callId, ...approvalId },
            ),
          );
        };
        if (live && this.#tools.has(value.callId)) this.#held.push(record);
        else record();
        return;
      }
      default:
        return;
    }
  }
}

/** The text of the last user message of a run's input, when it has one. */
function promptOf(input: unknown): string | undefined {
  if (!isRecord(input) || !Array.isArray(input.messages)) return undefined;
  for (let i = input.messages.length - 1; i >= 0; i--) {
    const message: unknown = input.messages[i];
    if (isRecord(message) && message.role === 'user') {
      return typeof message.content === 'string' ? message.content : undefined;
    }
  }
  return undefined;
}
