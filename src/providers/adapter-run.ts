import type { Observable } from 'rxjs';
import { directEvents, type EventSink } from '../direct/direct-events.js';
import { describeValue } from '../events/describe-value.js';
import { jsonText } from '../events/json-text.js';
import type { CallfoldEvent } from '../events/types.js';
import { Attempt, type Dispatch, type Ending } from './attempt.js';
import {
  DONE,
  type ItemDecoderFactory,
  type ProviderSource,
  pumpChunks,
} from './provider-source.js';
import { ProviderStreamError } from './provider-stream-error.js';
import { isRecord } from './read-chunk.js';
import { Session } from './session.js';

/**
 * Options every adapter takes. What every adapter guarantees, whatever the provider:
 *
 * 1. Each subscription reads the source once and is one attempt (one model response) with
 *    a fresh attemptId; an AI SDK stream makes one attempt per step.
 * 2. While the response streams: `stream/text-delta`, `stream/tool-call-delta` (a call's
 *    first delta carries its name and callId: the provider's id, else `${attemptId}:${block}`),
 *    `stream/block-end` with the authoritative full text.
 * 3. A response that ends normally (the provider's terminal event: `finish_reason`/`[DONE]`,
 *    `response.completed`, `message_stop`, `finish-step`/`finish`, Bedrock's `messageStop`;
 *    Gemini has none: the body's end after a `finishReason`) emits its
 *    `assistant/message` (blocks in order), a `tool/call` per complete call, then
 *    `stream/settle`: the rows go from `preparing` to `start` and never disappear. A response
 *    stopped by its token limit is truncated: its last block, if a call, is not dispatched
 *    (its arguments were cut) but stays in the message.
 * 4. A cut stream (the source ends before the terminal event) is an aborted attempt: it
 *    emits `stream/settle` alone, so its preparing rows withdraw; no `assistant/message` and
 *    no `tool/call`, not even for calls that had ended (the host retries the response; a
 *    half response must not run tools). Then the Observable completes.
 * 5. An error (the provider's error event or HTTP status, or the source throwing) settles
 *    the live attempt the same way, then fails the Observable: with a `ProviderStreamError`,
 *    or the source's own error unchanged.
 * 5a. A malformed chunk (SSE data that is not JSON, or a chunk that is not an object) is
 *    skipped and reported to `onMalformed`; the stream goes on, so the response's other
 *    calls still complete and are dispatched. See `AdapterOptions.onMalformed`.
 * 6. Unsubscribing cancels the source (the body's reader, the SDK iterator's `return`) and
 *    emits nothing more; a host that keeps folding should settle the attempt itself.
 * 7. Chunks after the terminal event are ignored; unknown chunk types are ignored.
 */
export interface AdapterOptions {
  /**
   * Numbers the durable events and makes attemptIds. Pass the conversation's Session so that
   * `seq` keeps increasing across attempts and host results. Default: a new Session per
   * subscription (its numbers start at 1).
   */
  readonly session?: Session;
  /** The attemptId of the run's (first) attempt. Default: `session.nextAttemptId()`. */
  readonly attemptId?: string;
  /**
   * Who dispatches the calls of a response that ended normally. `'adapter'` (the default):
   * the adapter emits a `tool/call` for each complete call, then `stream/settle`. `'host'`:
   * the adapter stops after the `assistant/message`; the host reads its tool-use blocks,
   * emits `session.call(…)` for each call it dispatches, then `session.settle(attemptId)`.
   * A cut or failed response is settled by the adapter in both modes.
   */
  readonly dispatch?: Dispatch;
  /**
   * Called for each malformed chunk (SSE data that is not JSON, a chunk that is not an
   * object), which is skipped: the stream goes on. Default: `console.warn` with a one-line
   * message. To fail instead, throw: `onMalformed: (error) => { throw error; }` stops
   * reading, settles the live attempt (as for any error), then fails the Observable with
   * that error. The provider's error events and HTTP error statuses always fail the stream.
   * Data cut at the very end of the body is not malformed: that is a cut stream.
   */
  readonly onMalformed?: (error: ProviderStreamError) => void;
}

/**
 * The default `onMalformed`: one line on the console. It never throws: a payload that
 * cannot be written as JSON (cyclic, a BigInt) is described instead, and any depth is
 * written without recursion.
 */
export function warnMalformed(error: ProviderStreamError): void {
  const payload = typeof error.payload === 'string' ? error.payload : previewText(error.payload);
  const preview =
    payload === undefined ? '' : `: ${payload.length > 80 ? `${payload.slice(0, 80)}…` : payload}`;
  console.warn(
    `callfold: ${error.provider}: skipped a malformed chunk (${error.message})${preview.replace(/\s+/g, ' ')}`,
  );
}

function previewText(payload: unknown): string | undefined {
  try {
    return jsonText(payload);
  } catch {
    return describeValue(payload);
  }
}

/**
 * One subscription to an adapter: the attempts it opens and whether the provider has sent
 * its terminal event. Provider-specific folding drives it.
 */
export class AdapterRun {
  readonly session: Session;
  /** Set by the folder when the provider names the response (or the message). */
  messageId: string | undefined;
  readonly #options: AdapterOptions;
  readonly #sink: EventSink;
  readonly #provider: string;
  readonly #malformed: (error: ProviderStreamError) => void;
  #attempt: Attempt | undefined;
  #attempts = 0;
  #ended = false;
  /**
   * Set by a folder whose provider has no terminal event (Gemini: a response ends with its
   * body, after a `finishReason`): called once when the source is exhausted before the run
   * ended, before a live attempt is settled as cut. It may `finish` the run.
   */
  atSourceEnd: (() => void) | undefined;

  constructor(options: AdapterOptions, sink: EventSink, provider = 'adapter') {
    this.session = options.session ?? new Session();
    this.#options = options;
    this.#sink = sink;
    this.#provider = provider;
    this.#malformed = options.onMalformed ?? warnMalformed;
  }

  /**
   * `value` as JSON text (any depth), or undefined after reporting it to `onMalformed` when
   * it cannot be written (cyclic, a BigInt, a throwing getter): one call's bad input must not
   * fail the response its other calls belong to.
   */
  json(value: unknown, what: string): string | undefined {
    try {
      return jsonText(value);
    } catch (cause) {
      const reason = cause instanceof Error ? cause.message : String(cause);
      this.#malformed(
        new ProviderStreamError(this.#provider, `${what} cannot be written as JSON: ${reason}`, {
          cause,
        }),
      );
      return undefined;
    }
  }

  /** Reports a malformed part of a chunk to `onMalformed` (which may throw, to fail the run). */
  malformed(message: string, payload?: unknown): void {
    this.#malformed(new ProviderStreamError(this.#provider, message, { payload }));
  }

  /** Emits an event of the run that belongs to no attempt (an AI SDK tool result). */
  emit(event: CallfoldEvent): void {
    this.#sink.next(event);
  }

  /** The provider sent its terminal event: chunks after it are ignored. */
  get ended(): boolean {
    return this.#ended;
  }

  /** The live attempt, if any. */
  get live(): Attempt | undefined {
    return this.#attempt?.live ? this.#attempt : undefined;
  }

  /**
   * The live attempt, opened on first need; `attemptId` names a new one (a stream that
   * carries callfold's own attemptIds, see `fromAGUI`), else the options' or the session's.
   */
  attempt(attemptId?: string): Attempt {
    const live = this.live;
    if (live) return live;
    attemptId ??=
      this.#attempts === 0 && this.#options.attemptId !== undefined
        ? this.#options.attemptId
        : this.session.nextAttemptId();
    this.#attempts += 1;
    const attempt = new Attempt(
      attemptId,
      this.session,
      this.#options.dispatch ?? 'adapter',
      this.#sink,
    );
    attempt.messageId = this.messageId;
    this.#attempt = attempt;
    return attempt;
  }

  /** The live attempt ended normally (see `Attempt.finish`). */
  finishAttempt(ending: Ending = {}): void {
    const live = this.live;
    if (!live) return;
    live.messageId ??= this.messageId;
    live.finish(ending);
  }

  /** The provider's terminal event: the live attempt ends normally and the run ends. */
  finish(ending: Ending = {}): void {
    this.finishAttempt(ending);
    this.#ended = true;
  }

  /** The live attempt is abandoned (cut, aborted or failed): it settles without records. */
  abort(): void {
    this.live?.abort();
  }

  /** The provider sent an abort: the live attempt settles without records and the run ends. */
  stop(): void {
    this.abort();
    this.#ended = true;
  }
}

/**
 * Makes an adapter's Observable. Each subscription reads `source` once; `fold` receives each
 * chunk object (or `DONE`) until the run ends; a malformed chunk goes to `onMalformed`
 * instead. When the source is exhausted, a live attempt
 * was cut and settles alone; when reading or folding throws, the live attempt settles, then
 * the Observable fails with the error. Unsubscribing cancels the source and emits nothing.
 * `assemble()` starts it directly (see `directEvents`): the same events, folded as built.
 * `decoder` reads the source's bytes and text (default: SSE).
 */
export function adapt(
  provider: string,
  source: ProviderSource,
  options: AdapterOptions,
  folder: (run: AdapterRun) => (chunk: unknown) => void,
  decoder?: ItemDecoderFactory,
): Observable<CallfoldEvent> {
  return directEvents((sink) => {
    const run = new AdapterRun(options, sink, provider);
    const fold = folder(run);
    const onMalformed = options.onMalformed ?? warnMalformed;
    const pump = pumpChunks(
      source,
      provider,
      (chunk) => {
        if (run.ended || sink.closed) return;
        if (chunk !== DONE && !isRecord(chunk)) {
          onMalformed(
            new ProviderStreamError(provider, 'chunk is not an object', { payload: chunk }),
          );
          return;
        }
        sink.chunk();
        fold(chunk);
      },
      (error) => {
        if (!run.ended && !sink.closed) onMalformed(error);
      },
      decoder,
    );
    pump.done.then(
      () => {
        if (run.atSourceEnd && !run.ended && !sink.closed) {
          try {
            run.atSourceEnd();
          } catch (error) {
            run.abort();
            sink.error(error);
            return;
          }
        }
        run.abort();
        sink.complete();
      },
      (error: unknown) => {
        run.abort();
        sink.error(error);
      },
    );
    return () => pump.cancel();
  });
}
