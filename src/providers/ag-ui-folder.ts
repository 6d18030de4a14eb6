import type { StopReason } from '../events/types.js';
import { type AdapterOptions, type AdapterRun, warnMalformed } from './adapter-run.js';
import { ChunkLanes } from './ag-ui-chunks.js';
import { AGUIResponses, callfoldMeta, nonEmpty, type Ref } from './ag-ui-responses.js';
import { snapshotEvents } from './ag-ui-snapshot.js';
import { errorMessage, ProviderStreamError } from './provider-stream-error.js';
import { isRecord } from './read-chunk.js';

export const provider = 'ag-ui';

/**
 * One subscription's fold of AG-UI events: see `fromAGUI` for the rules. Runs, results,
 * snapshots and callfold's own events are read here; the responses and their blocks are
 * `AGUIResponses`'. The hot path is a run of `TOOL_CALL_ARGS` (or `TEXT_MESSAGE_CONTENT`)
 * for the block before it: one id compared, one `Attempt.args`
 * (docs/decisions/0011-sdk-stream-costs.md).
 */
export class AGUIFolder {
  readonly #run: AdapterRun;
  readonly #host: boolean;
  readonly #onMalformed: (error: ProviderStreamError) => void;
  readonly #responses: AGUIResponses;
  readonly #lanes: ChunkLanes;
  #runId: string | undefined;

  constructor(run: AdapterRun, options: AdapterOptions) {
    this.#run = run;
    this.#host = options.dispatch === 'host';
    this.#onMalformed = options.onMalformed ?? warnMalformed;
    this.#responses = new AGUIResponses(run, options);
    this.#lanes = new ChunkLanes(this.#responses, (message, chunk) =>
      this.#onMalformed(new ProviderStreamError(provider, message, { payload: chunk })),
    );
  }

  readonly fold = (chunk: unknown): void => {
    const event = chunk as Record<string, unknown>;
    const type = event.type;
    if (this.#lanes.size === 0) {
      if (type === 'TOOL_CALL_ARGS' && event.toolCallId === this.#responses.lastToolId) {
        const ref = this.#responses.lastTool as Ref;
        ref.attempt.args(ref.key, event.delta);
        return;
      }
      if (type === 'TEXT_MESSAGE_CONTENT' && event.messageId === this.#responses.lastTextId) {
        const ref = this.#responses.lastText as Ref;
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
        if (this.#idOf(event, 'messageId'))
          this.#responses.start('text', event.messageId as string, event);
        return;
      case 'REASONING_MESSAGE_START':
        if (this.#idOf(event, 'messageId'))
          this.#responses.start('reasoning', event.messageId as string, event);
        return;
      case 'TOOL_CALL_START':
        if (this.#idOf(event, 'toolCallId'))
          this.#responses.start('tool', event.toolCallId as string, event);
        return;
      case 'TEXT_MESSAGE_CONTENT':
        this.#responses.content('text', event.messageId as string, event.delta);
        return;
      case 'REASONING_MESSAGE_CONTENT':
        this.#responses.content('reasoning', event.messageId as string, event.delta);
        return;
      case 'TOOL_CALL_ARGS':
        this.#responses.content('tool', event.toolCallId as string, event.delta);
        return;
      case 'TEXT_MESSAGE_END':
        this.#responses.end('text', event.messageId as string);
        return;
      case 'REASONING_MESSAGE_END':
        this.#responses.end('reasoning', event.messageId as string);
        return;
      case 'TOOL_CALL_END':
        this.#responses.end('tool', event.toolCallId as string, callfoldMeta(event)?.text);
        return;
      case 'TOOL_CALL_RESULT':
        this.#result(event);
        return;
      case 'STEP_STARTED':
      case 'STEP_FINISHED':
        if (!this.#run.live?.hasOpenCall()) this.#responses.finish();
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

  #boundary(type: string, event: Record<string, unknown>): void {
    const synthetic = callfoldMeta(event)?.synthetic === true;
    switch (type) {
      case 'RUN_STARTED': {
        if (this.#run.live) this.#responses.abort();
        const runId = nonEmpty(event.runId) ? event.runId : undefined;
        this.#runId = synthetic ? undefined : runId;
        if (this.#runId === undefined) return;
        const prompt = promptOf(event.input);
        this.#run.emit(this.#run.session.turn('turn/start', this.#runId, prompt));
        return;
      }
      case 'RUN_FINISHED': {
        if (this.#run.live?.hasOpenCall()) this.#responses.abort();
        else this.#responses.finish();
        const runId = this.#runId;
        this.#runId = undefined;
        if (runId !== undefined && !synthetic) {
          this.#run.emit(this.#run.session.turn('turn/end', runId));
        }
        return;
      }
      case 'RUN_ERROR':
        this.#responses.abort();
        if (event.code === 'abort') {
          this.#run.stop();
          return;
        }
        throw new ProviderStreamError(provider, errorMessage(event, 'run error'), {
          payload: event,
        });
      default:
        snapshotEvents(
          this.#run,
          event.messages,
          this.#responses.known,
          (toolCallId) => this.#responses.liveCall(toolCallId) !== undefined,
        );
    }
  }

  #result(event: Record<string, unknown>): void {
    const toolCallId = event.toolCallId;
    if (!this.#idOf(event, 'toolCallId')) return;
    const id = toolCallId as string;
    if (this.#host) {
      // The host records results; the response that made the call is over all the same.
      const ref = this.#responses.liveCall(id);
      if (ref && !ref.attempt.hasOpenCall()) this.#responses.finish();
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
    const ref = this.#responses.liveCall(id);
    if (live && ref) {
      if (ref.provider) {
        live.providerResult(ref.key, output, isError);
        this.#responses.known.results.add(this.#callId(id));
        return;
      }
      const record = () => this.#record(id, output, isError, meta?.executor === 'provider');
      // A result means the agent ran the call: the response that made it is over.
      if (live.hasOpenCall()) this.#responses.hold(record);
      else {
        this.#responses.finish();
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
    this.#responses.known.results.add(callId);
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
        if (live && this.#responses.isLive(value.attemptId) && !live.hasOpenCall()) {
          if (nonEmpty(value.messageId)) live.messageId = value.messageId;
          const stopReason = nonEmpty(value.stopReason)
            ? (value.stopReason as StopReason)
            : undefined;
          const truncated = value.truncated === true;
          this.#responses.finish(
            stopReason === undefined ? { truncated } : { stopReason, truncated },
          );
        }
        return;
      case 'callfold.settle':
        if (this.#responses.isLive(value.attemptId)) this.#responses.abort();
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
        if (this.#responses.liveCall(value.callId) !== undefined) this.#responses.hold(record);
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
