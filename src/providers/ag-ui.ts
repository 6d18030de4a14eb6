import type { Observable } from 'rxjs';
import type { CallfoldEvent } from '../events/types.js';
import { type AdapterOptions, adapt } from './adapter-run.js';
import { AGUIFolder, provider } from './ag-ui-folder.js';
import type { ProviderSource } from './provider-source.js';

/** An rxjs Observable, or anything with the same `subscribe` (what `HttpAgent.run()` returns). */
export interface SubscribableSource {
  subscribe(observer: {
    next: (value: unknown) => void;
    error: (error: unknown) => void;
    complete: () => void;
  }): { unsubscribe(): void };
}

/** What `fromAGUI` reads: AG-UI event objects, or the SSE bytes `@ag-ui/encoder` writes. */
export type AGUISource = ProviderSource | SubscribableSource;

/**
 * Translates AG-UI events (`@ag-ui/core`: what agent backends on LangGraph, CrewAI, Mastra,
 * Pydantic AI, Google ADK, AWS Strands or CopilotKit stream to their UI) into CallfoldEvents.
 * The source is an Observable of event objects (`new HttpAgent({ url }).run(input)`), an
 * (async) iterable of them, or the SSE of `@ag-ui/encoder` (`data: {event}`; a Response, a
 * ReadableStream of bytes, or the text).
 *
 * 1. Runs are turns: `RUN_STARTED` emits `turn/start` (turnId: its `runId`; `prompt`: the
 *    last user message of its `input`), `RUN_FINISHED` ends the live response normally, then
 *    emits `turn/end`. A run may hold several model responses; each is an attempt. A
 *    response ends, emitting its `assistant/message` and a `tool/call` per ended call, at:
 *    a `TOOL_CALL_RESULT` for one of its calls (the agent ran it), `STEP_STARTED` or
 *    `STEP_FINISHED`, a message or call naming another AG-UI message id (`messageId`,
 *    a non-empty `parentMessageId`) than the response's, a reasoning message after its text
 *    or calls, and `RUN_FINISHED`. A response with a call still open is not split: the
 *    boundary waits (a result for one of its calls is held until it ends).
 * 2. `TOOL_CALL_START` opens a call, named and shown at once (`toolCallId` is the callId,
 *    unless the session already holds it: then a fresh one, the id kept as
 *    `providerCallId`); `TOOL_CALL_ARGS` streams its `delta`s; `TOOL_CALL_END` ends its block
 *    (its text: the deltas joined, `{}` when blank). A `START` for an id already ended is a
 *    new call. `TEXT_MESSAGE_*` (role `assistant`) and `REASONING_MESSAGE_*` are text and
 *    reasoning blocks; a message reopened after its `END` is a new block.
 * 3. `TOOL_CALL_CHUNK`, `TEXT_MESSAGE_CHUNK` and `REASONING_MESSAGE_CHUNK` are expanded as
 *    `@ag-ui/client` expands them (see `ChunkLanes`): a chunk continues its lane's open
 *    stream, else ends it and starts a new one; a chunk for an id that was closed starts a
 *    new call or block.
 * 4. Dispatch. AG-UI does not say who runs a call: the agent backend (a server tool: its
 *    `TOOL_CALL_RESULT` follows in the run) or the frontend (no result in the run; the run
 *    finishes and the client runs it, then starts the next run with its result). With
 *    `dispatch: 'adapter'` (the default) every ended call of a response that ends is
 *    dispatched (`tool/call`): its arguments are final and the agent has handed it on; its
 *    `TOOL_CALL_RESULT`, when the backend sends one, becomes its `tool/result`. A frontend
 *    tool gets its result from the host (`session.result`). With `dispatch: 'host'` the
 *    adapter stops after each `assistant/message` and translates no result (a result still
 *    ends its response): the host emits `tool/call`, `stream/settle` and results itself.
 *    A call marked provider-run (`metadata.callfold.executor`, from `toAGUI`) is recorded
 *    at its end and its result at once, whatever `dispatch` says.
 * 5. Cut: `RUN_FINISHED` while a call is still open (no `TOOL_CALL_END`), a `RUN_STARTED`
 *    before the last run finished, or the source ending inside a response settles that
 *    response alone (no records; its rows withdraw) — a half response must not run tools.
 *    `RUN_ERROR` does the same, then fails the Observable with a `ProviderStreamError`
 *    (`code: 'abort'`, the client's own abort, ends it quietly).
 * 6. `MESSAGES_SNAPSHOT` is history (see `snapshotEvents`): durable records only, never
 *    deltas, and only for messages, calls and results the stream has not produced.
 * 7. Events `toAGUI()` wrote are read back exactly: `metadata.callfold` restores attemptIds
 *    (one the run already used gets a fresh id: an Assembler ignores stream events of an
 *    attempt it saw settle), structured and failed outputs and call shapes, and its `CUSTOM` events
 *    (`callfold.message`, `callfold.settle`, approvals) end or withdraw attempts as the
 *    session did. Other `CUSTOM`, `STATE_*`, `ACTIVITY_*`, `RAW` and unknown events are
 *    ignored; an event without its id (`TEXT_MESSAGE_START` with no `messageId`) and a
 *    chunk the client would refuse go to `onMalformed`.
 *
 * Errors, cancellation and the other guarantees are as for every adapter: see
 * `AdapterOptions` (a run's `RUN_FINISHED` is not the end of the source: several runs may
 * follow each other).
 *
 * @example
 * ```ts
 * const agent = new HttpAgent({ url: '/api/agent' });
 * fromAGUI(agent.run(input), { session }).pipe(assemble()).subscribe(render);
 * // or the SSE response itself:
 * fromAGUI(await fetch('/api/agent', { method: 'POST', body, headers })).subscribe(…);
 * ```
 */
export function fromAGUI(
  source: AGUISource,
  options: AdapterOptions = {},
): Observable<CallfoldEvent> {
  const input = isSubscribable(source) ? subscribableSource(source) : source;
  return adapt(provider, input, options, (run) => new AGUIFolder(run, options).fold);
}

function isSubscribable(value: unknown): value is SubscribableSource {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { subscribe?: unknown }).subscribe === 'function' &&
    typeof (value as { getReader?: unknown }).getReader !== 'function' &&
    typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] !== 'function'
  );
}

/**
 * An Observable read as an async iterable: what it emits is queued (it has no
 * backpressure) and handed out in order; `return()` unsubscribes.
 */
function subscribableSource(source: SubscribableSource): AsyncIterable<unknown> {
  return {
    [Symbol.asyncIterator]() {
      let queue: unknown[] = [];
      let head = 0;
      let done = false;
      let failure: { error: unknown } | undefined;
      let wake: (() => void) | undefined;
      const notify = () => {
        const resolve = wake;
        wake = undefined;
        resolve?.();
      };
      const subscription = source.subscribe({
        next(value) {
          queue.push(value);
          notify();
        },
        error(error) {
          failure = { error };
          done = true;
          notify();
        },
        complete() {
          done = true;
          notify();
        },
      });
      return {
        async next(): Promise<IteratorResult<unknown>> {
          while (head >= queue.length && !done) {
            await new Promise<void>((resolve) => {
              wake = resolve;
            });
          }
          if (head < queue.length) {
            const value = queue[head];
            head += 1;
            if (head === queue.length) {
              queue = [];
              head = 0;
            }
            return { value, done: false };
          }
          if (failure) throw failure.error;
          return { value: undefined, done: true };
        },
        async return(): Promise<IteratorResult<unknown>> {
          done = true;
          subscription.unsubscribe();
          notify();
          return { value: undefined, done: true };
        },
      };
    },
  };
}
