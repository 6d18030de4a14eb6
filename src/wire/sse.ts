import { isObservable, map, type Observable } from 'rxjs';
import { type CallfoldEvent, isDurableEvent } from '../events/types.js';
import { eventJSON, parseEvent } from '../events/validate.js';
import { decodeWith, type SSEDecoderOptions, SSEError, type SSEInput } from './sse-decoder.js';

/**
 * Encodes one event as a server-sent event message: `id: <seq>` for a durable event, then
 * `data: <JSON>`, then the blank line that dispatches it.
 *
 * 1. No `event:` field: every message is a default `message` event, so a browser
 *    `EventSource` delivers all of them to `onmessage`; the JSON's `type` discriminates.
 * 2. `id:` is the durable event's `seq` (as `String(seq)`); stream events carry none, so the
 *    last event ID a client holds is always the seq of the last durable event it received:
 *    on reconnection it sends it as `Last-Event-ID` (see `parseLastEventId`) and the server
 *    resends the durable events after it and replays the live attempt.
 * 3. The JSON is one line (JSON.stringify escapes CR and LF). The event is checked with
 *    `parseEvent` first and an `EventError` thrown, so that whatever is sent can be read
 *    (an `output` that cannot be JSON, such as a BigInt, is an `EventError` too). Any depth
 *    is written: the JSON is made without recursion where the native writer overflows.
 *
 * @example
 * ```ts
 * import { encodeSSE } from 'callfold';
 * encodeSSE({ type: 'turn/start', seq: 7, turnId: 't1' });
 * // 'id: 7\ndata: {"type":"turn/start","seq":7,"turnId":"t1"}\n\n'
 * ```
 */
export function encodeSSE(event: CallfoldEvent): string {
  parseEvent(event);
  const data = `data: ${eventJSON(event, event)}\n\n`;
  return isDurableEvent(event) ? `id: ${event.seq}\n${data}` : data;
}

/**
 * The seq to resume after, from a `Last-Event-ID` request header written by `encodeSSE`;
 * `undefined` when the header is absent, empty or not a number (start from the beginning).
 */
export function parseLastEventId(header: string | null | undefined): number | undefined {
  if (header === null || header === undefined || header.trim() === '') return undefined;
  const seq = Number(header);
  return Number.isFinite(seq) ? seq : undefined;
}

/**
 * An event stream body for a server: each event of `source` encoded by `encodeSSE`, as
 * UTF-8 bytes. Works as a Deno or browser `Response` body and in Node through
 * `Readable.fromWeb`.
 *
 * An AsyncIterable is pulled one event at a time, as the consumer reads (backpressure);
 * an Observable is subscribed at once and its events queue until read. Cancelling the
 * stream (the client went away) returns the iterator or unsubscribes. An invalid event or
 * a source error errors the stream.
 *
 * @example
 * ```ts
 * // Deno
 * Deno.serve(() => new Response(encodeSSEStream(events$), {
 *   headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' },
 * }));
 * // Node: pipeline() cancels the stream when the client goes away
 * import { pipeline, Readable } from 'node:stream';
 * http.createServer((req, res) => {
 *   res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
 *   pipeline(Readable.fromWeb(encodeSSEStream(events$)), res, () => {});
 * });
 * ```
 */
export function encodeSSEStream(
  source: AsyncIterable<CallfoldEvent> | Observable<CallfoldEvent>,
): ReadableStream<Uint8Array> {
  const utf8 = new TextEncoder();
  const encode = (event: CallfoldEvent) => utf8.encode(encodeSSE(event));
  if (isObservable(source)) {
    const bytes = source.pipe(map(encode));
    let unsubscribe = () => {};
    return new ReadableStream<Uint8Array>({
      start(controller) {
        const subscription = bytes.subscribe({
          next: (chunk) => controller.enqueue(chunk),
          error: (error) => controller.error(error),
          complete: () => controller.close(),
        });
        unsubscribe = () => subscription.unsubscribe();
      },
      cancel: () => unsubscribe(),
    });
  }
  let iterator: AsyncIterator<CallfoldEvent> | undefined;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      iterator ??= source[Symbol.asyncIterator]();
      const next = await iterator.next();
      if (next.done) return controller.close();
      let chunk: Uint8Array;
      try {
        chunk = encode(next.value);
      } catch (error) {
        await iterator.return?.();
        throw error;
      }
      controller.enqueue(chunk);
    },
    async cancel() {
      await iterator?.return?.();
    },
  });
}

export interface DecodeSSEOptions extends SSEDecoderOptions {
  /**
   * Called with the stream's last event ID each time it changes, before the event that
   * carried it is emitted: the value to send as `Last-Event-ID` when reconnecting. With
   * `encodeSSE` on the server it is the seq of the last durable event received.
   */
  readonly onEventId?: (lastEventId: string) => void;
  /** Called with the reconnection time a `retry:` line sets (ms), each time one arrives. */
  readonly onRetry?: (retryMs: number) => void;
}

/**
 * The CallfoldEvents of an event stream written by `encodeSSE`, read from a fetch Response,
 * its body, or a promise of either (see `readSSE` for the reading rules: any chunking,
 * UTF-8 split anywhere, CRLF, comments, multi-line data, `id:` tracking).
 *
 * Each `message` event's data is parsed as JSON and checked with `parseEvent`; one that is
 * not a CallfoldEvent fails the stream with an `SSEError` (its cause the `SyntaxError` or
 * `EventError`). Messages with another `event:` name (a server's own heartbeats, say) are
 * skipped. A line or message past `maxLength` fails the stream with an `SSEError`; an error
 * thrown by `onEventId` fails it with that error. Every error reaches the Observable's
 * `error` and cancels the body; unsubscribing cancels it too and releases its reader's lock.
 *
 * @example
 * ```ts
 * import { concat, defer, of, repeat, retry } from 'rxjs';
 * import { assemble, decodeSSE, reconnectCommand } from 'callfold';
 *
 * let lastEventId = '';
 * const connection = defer(() =>
 *   concat(
 *     of(reconnectCommand()), // withdraw the live events of the previous connection
 *     decodeSSE(fetch('/session/42/events', { headers: lastEventId ? { 'Last-Event-ID': lastEventId } : {} }), {
 *       onEventId: (id) => (lastEventId = id),
 *     }),
 *   ),
 * );
 * connection.pipe(retry({ delay: 1000 }), repeat({ delay: 1000 }), assemble()).subscribe(render);
 * ```
 */
export function decodeSSE(
  input: SSEInput,
  options: DecodeSSEOptions = {},
): Observable<CallfoldEvent> {
  const { onEventId, onRetry } = options;
  return decodeWith<CallfoldEvent>(input, options, (decoder, subscriber) => {
    let reported = '';
    let retry = decoder.retry;
    const reportRetry = () => {
      if (decoder.retry === retry) return;
      retry = decoder.retry;
      if (retry !== undefined) onRetry?.(retry);
    };
    const report = (id: string) => {
      if (id === reported) return;
      reported = id;
      onEventId?.(id);
    };
    // A throwing onEventId or onRetry fails the stream, as the decoder's limit does.
    return (text) => {
      for (const message of decoder.push(text)) {
        if (subscriber.closed) return;
        if (message.event !== 'message') {
          report(message.lastEventId);
          continue;
        }
        let event: CallfoldEvent;
        try {
          event = parseEvent(parseJSON(message.data));
        } catch (cause) {
          const reason = cause instanceof Error ? cause.message : 'invalid event';
          subscriber.error(new SSEError(`event stream: ${reason}`, { cause }));
          return;
        }
        // The ID of an event is reported only once the event is known to be good.
        report(message.lastEventId);
        subscriber.next(event);
      }
      // An `id:` dispatched without data moves the last event ID too.
      if (!subscriber.closed) report(decoder.lastEventId);
      if (!subscriber.closed) reportRetry();
    };
  });
}

function parseJSON(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch (error) {
    const detail = error instanceof Error ? error.message : 'unparsable';
    throw new SyntaxError(`invalid JSON in message data: ${detail}`, { cause: error });
  }
}
