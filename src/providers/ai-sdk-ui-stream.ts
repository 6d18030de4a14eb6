import type { Observable } from 'rxjs';
import { jsonText } from '../events/json-text.js';
import type { CallfoldEvent } from '../events/types.js';
import { type AdapterOptions, type AdapterRun, adapt } from './adapter-run.js';
import type { ToolPart } from './attempt.js';
import { DONE, type ProviderSource } from './provider-source.js';
import { ProviderStreamError } from './provider-stream-error.js';
import { isRecord } from './read-chunk.js';
import { isCut, stopReasonOf } from './stop-reason.js';

const provider = 'ai-sdk-ui-stream';

/**
 * Translates a Vercel AI SDK (v5 and v6) UI message stream into CallfoldEvents: the `UIMessageChunk`
 * objects of `result.toUIMessageStream()` (a ReadableStream or any async iterable), or the
 * raw SSE of `toUIMessageStreamResponse()` (`data: {chunk}` … `data: [DONE]`).
 *
 * - Each step (`start-step` … `finish-step`) is one model response, so one attempt with its
 *   own attemptId; a stream without steps is one attempt. All steps share the `start`
 *   chunk's `messageId`.
 * - `text-*` and `reasoning-*` chunks are text and reasoning blocks (keyed by `id`);
 *   `tool-input-start` opens a tool block (`toolCallId`, `toolName`), `tool-input-delta`
 *   streams `inputTextDelta`, `tool-input-available` (or `tool-input-error`) ends it. Its
 *   text is the joined deltas when they parse to the chunk's `input`, else
 *   `JSON.stringify(input)` (a string `input` is taken as is).
 * - `finish-step` ends the step's attempt normally: `assistant/message`, a `tool/call` per
 *   ended call, `stream/settle`. `finish` and `[DONE]` end the last one (with
 *   `finishReason: 'length'` truncated). `abort` settles the live step without records and
 *   ends the run; `error` fails the stream (`ProviderStreamError`).
 * - `tool-output-available` (final, not `preliminary`) and `tool-output-error` become
 *   `tool/result` events numbered by the session. The server runs tools inside the step, so
 *   a result for a call of the live step is held until that step has settled (its
 *   `tool/call` must come first); if the step is cut or fails, its held results are dropped
 *   with it. With `dispatch: 'host'` tool outputs are not translated: the host reports its
 *   own results (a provider-executed call's result is still recorded).
 * - Approval (v6): `tool-approval-request` becomes a durable `tool/approval-request`
 *   (`approvalId` kept), held like a result until the step's `tool/call`;
 *   `tool-output-denied` becomes `tool/approval` with `approved: false` (the call never gets
 *   a result). An output of a call whose request was never answered in the session records
 *   `tool/approval` with `approved: true` first. With `dispatch: 'host'` the host records
 *   approvals itself.
 * - `finish.finishReason` is the last step's `stopReason` (`length` and `content-filter`
 *   mark a call open at the end `incomplete`). A step that ends (`finish-step`) while a call's
 *   input is still open (no `tool-input-available`: the model was cut inside it, and the AI
 *   SDK never runs such a call) waits for the next chunk: with `finish`, it ends with that
 *   chunk's reason; otherwise it ends then, truncated. Either way the open call is
 *   `incomplete`, never dispatched.
 * - Other chunks (sources, files, `data-*`, metadata) are ignored.
 *
 * Cut streams, errors and `dispatch` are as for every adapter: see `AdapterOptions`.
 *
 * @example
 * ```ts
 * const result = streamText({ model, messages, tools });
 * fromAISDKUIStream(result.toUIMessageStream(), { session }).pipe(assemble()).subscribe(render);
 * // or, in a browser, from the route that returned toUIMessageStreamResponse():
 * fromAISDKUIStream(await fetch('/api/chat', { method: 'POST', body })).subscribe(…);
 * ```
 */
export function fromAISDKUIStream(
  source: ProviderSource,
  options: AdapterOptions = {},
): Observable<CallfoldEvent> {
  return adapt(provider, source, options, (run) => uiStreamFolder(run, options));
}

/** A durable record that must wait until the live step has settled (its `tool/call` comes first). */
type Held = () => void;

function uiStreamFolder(run: AdapterRun, options: AdapterOptions): (chunk: unknown) => void {
  let held: Held[] = [];
  const host = options.dispatch === 'host';
  /** A `finish-step` came while a call's input was open: the step waits for `finish`. */
  let cutStep = false;

  const flush = () => {
    const records = held;
    held = [];
    for (const record of records) record();
  };
  /** The callId the provider's `toolCallId` got (renamed when the session already held it). */
  const callIdOf = (toolCallId: string): string =>
    run.live?.callIdOf(toolCallId) ?? run.session.callIdOf(toolCallId) ?? toolCallId;
  /** Runs `record` now, or once the live step has settled when the call belongs to it. */
  const after = (callId: string, record: Held) => {
    if (run.live?.hasCall(callId)) held.push(record);
    else record();
  };
  const result = (toolCallId: unknown, output: unknown, isError: boolean, provider: boolean) => {
    if (typeof toolCallId !== 'string' || toolCallId === '') return;
    if (provider) {
      const live = run.live;
      if (live?.callIdOf(toolCallId) !== undefined)
        live.providerResult(toolCallId, output, isError);
      else {
        const callId = callIdOf(toolCallId);
        run.emit(
          run.session.record({
            type: 'tool/result',
            callId,
            output,
            executor: 'provider',
            ...(isError ? { isError } : {}),
          }),
        );
      }
      return;
    }
    if (host) return;
    const callId = callIdOf(toolCallId);
    after(callId, () => {
      // An output after a request no answer was recorded for implies the approval.
      if (run.session.approvalOf(callId) === 'requested') {
        run.emit(run.session.record({ type: 'tool/approval', callId, approved: true }));
      }
      run.emit(run.session.result(callId, output, isError ? true : undefined));
    });
  };
  const approval = (chunk: Record<string, unknown>, approved: boolean | undefined) => {
    const { toolCallId } = chunk;
    if (host || typeof toolCallId !== 'string' || toolCallId === '') return;
    const callId = callIdOf(toolCallId);
    const approvalId =
      typeof chunk.approvalId === 'string' && chunk.approvalId !== ''
        ? { approvalId: chunk.approvalId }
        : {};
    after(callId, () => {
      if (approved === undefined) {
        run.emit(run.session.record({ type: 'tool/approval-request', callId, ...approvalId }));
      } else if (run.session.approvalOf(callId) !== 'denied') {
        const reason = typeof chunk.reason === 'string' ? { reason: chunk.reason } : {};
        run.emit(
          run.session.record({ type: 'tool/approval', callId, approved, ...reason, ...approvalId }),
        );
      }
    });
  };
  const endCall = (chunk: Record<string, unknown>) => {
    const attempt = run.attempt();
    const key = `c:${chunk.toolCallId}`;
    if (!attempt.named(key))
      attempt.tool(key, { id: chunk.toolCallId, name: chunk.toolName, ...shapeOf(chunk) });
    attempt.end(key, inputText(run, attempt.argsText(key) ?? '', chunk.input));
  };

  return (chunk) => {
    if (cutStep && (chunk === DONE || !isRecord(chunk) || chunk.type !== 'finish')) {
      cutStep = false;
      run.finishAttempt({ truncated: true });
      flush();
    }
    if (chunk === DONE) {
      run.finish();
      flush();
      return;
    }
    if (!isRecord(chunk) || typeof chunk.type !== 'string') return;
    switch (chunk.type) {
      case 'start':
        if (typeof chunk.messageId === 'string' && chunk.messageId !== '') {
          run.messageId = chunk.messageId;
        }
        break;
      case 'start-step':
        run.finishAttempt();
        flush();
        run.attempt();
        break;
      case 'text-start':
        run.attempt().open(`t:${chunk.id}`, 'text');
        break;
      case 'text-delta':
        run.attempt().text(`t:${chunk.id}`, chunk.delta);
        break;
      case 'text-end':
        run.attempt().end(`t:${chunk.id}`);
        break;
      case 'reasoning-start':
        run.attempt().open(`r:${chunk.id}`, 'reasoning');
        break;
      case 'reasoning-delta':
        run.attempt().text(`r:${chunk.id}`, chunk.delta, true);
        break;
      case 'reasoning-end':
        run.attempt().end(`r:${chunk.id}`);
        break;
      case 'tool-input-start':
        run.attempt().tool(`c:${chunk.toolCallId}`, {
          id: chunk.toolCallId,
          name: chunk.toolName,
          ...shapeOf(chunk),
        });
        break;
      case 'tool-input-delta':
        run.attempt().tool(`c:${chunk.toolCallId}`, { args: chunk.inputTextDelta });
        break;
      case 'tool-input-available':
      case 'tool-input-error':
        endCall(chunk);
        break;
      case 'tool-approval-request':
        approval(chunk, undefined);
        break;
      case 'tool-output-available':
        if (chunk.preliminary !== true) {
          result(chunk.toolCallId, chunk.output, false, chunk.providerExecuted === true);
        }
        break;
      case 'tool-output-error':
        result(chunk.toolCallId, chunk.errorText, true, chunk.providerExecuted === true);
        break;
      case 'tool-output-denied':
        approval(chunk, false);
        break;
      case 'finish-step':
        if (run.live?.hasOpenCall()) {
          cutStep = true;
          break;
        }
        run.finishAttempt();
        flush();
        break;
      case 'finish': {
        const stopReason = stopReasonOf(chunk.finishReason);
        const truncated = cutStep || isCut(stopReason);
        cutStep = false;
        run.finish(stopReason === undefined ? { truncated } : { stopReason, truncated });
        flush();
        break;
      }
      case 'abort':
        held = [];
        run.stop();
        break;
      case 'error':
        held = [];
        throw new ProviderStreamError(
          provider,
          typeof chunk.errorText === 'string' ? chunk.errorText : 'stream error',
          { payload: chunk },
        );
      default:
        break;
    }
  };
}

/** A call's shape from a `tool-input-*` chunk: `inputEncoding: 'text'`, `providerExecuted`. */
function shapeOf(chunk: Record<string, unknown>): Pick<ToolPart, 'input' | 'executor'> {
  return {
    ...(chunk.inputEncoding === 'text' ? { input: 'text' as const } : {}),
    ...(chunk.providerExecuted === true ? { executor: 'provider' as const } : {}),
  };
}

/**
 * The authoritative argument text: the streamed text when it parses to `input`, else `input`
 * as JSON; the streamed text when `input` cannot be written as JSON (reported as malformed).
 */
function inputText(run: AdapterRun, streamed: string, input: unknown): string {
  if (typeof input === 'string') return input;
  if (input === undefined) return streamed;
  const json = run.json(input, 'tool input');
  if (json === undefined || streamed === json) return streamed;
  try {
    if (jsonText(JSON.parse(streamed)) === json) return streamed;
  } catch {
    // The streamed text is not JSON: the parsed input wins.
  }
  return json;
}
