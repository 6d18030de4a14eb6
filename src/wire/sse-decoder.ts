import { Observable, type Subscriber } from 'rxjs';

/** One dispatched server-sent event, as the HTML event-stream rules define it. */
export interface SSEMessage {
  /** The `event:` field; `'message'` when the message had none. */
  readonly event: string;
  /** The `data:` lines joined with `\n`. */
  readonly data: string;
  /** The stream's last event ID at this message: the latest `id:` so far, `''` before any. */
  readonly lastEventId: string;
}

/** What the SSE readers take: a body stream, a fetch Response, or a promise of either. */
export type SSEInput =
  | ReadableStream<Uint8Array>
  | ResponseLike
  | PromiseLike<ReadableStream<Uint8Array> | ResponseLike>;

/**
 * The part of a fetch `Response` that callfold reads: the SSE readers, the provider adapters
 * (a `ProviderSource`), the session client (`FetchResponseLike`) and `callfold probe` all
 * take this one shape. Any runtime's `Response` fits.
 */
export interface ResponseLike {
  readonly body: ReadableStream<Uint8Array> | null;
  readonly ok: boolean;
  readonly status: number;
  /** Shown in an HTTP error's message when present. */
  readonly statusText?: string;
}

/**
 * An event stream that cannot be read: an HTTP error status, or (from `decodeSSE`) a
 * message that is not a CallfoldEvent, with the `SyntaxError` or `EventError` as `cause`.
 */
export class SSEError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'SSEError';
  }
}

/** Options of `SSEDecoder`, `readSSE` and `decodeSSE`. */
export interface SSEDecoderOptions {
  /**
   * The longest line, and the longest message data (its `data:` lines joined), in UTF-16
   * code units. A stream past it fails with an `SSEError` instead of buffering without
   * bound: an event stream is untrusted, and a server (or a man in the middle) can send a
   * line that never ends. Default `DEFAULT_MAX_SSE_LENGTH` (32 Mi units, 32–96 MiB of text);
   * `Infinity` lifts the limit.
   */
  readonly maxLength?: number;
}

/** The default `SSEDecoderOptions.maxLength`: 2²⁵ UTF-16 code units (32 Mi). */
export const DEFAULT_MAX_SSE_LENGTH = 2 ** 25;

/**
 * Parses `text/event-stream` text that arrives in chunks cut anywhere, following the HTML
 * standard's interpretation rules (https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation).
 *
 * 1. Lines end in CRLF, LF or CR, a CRLF possibly split between two chunks. One leading
 *    byte-order mark is dropped.
 * 2. `:` lines are comments; `data:` lines join with `\n`; `event:` names the message;
 *    `id:` (without NUL) sets the last event ID, which persists until the next `id:`;
 *    `retry:` with digits only sets `retry`; other fields are ignored. One space after the
 *    colon is dropped.
 * 3. A blank line dispatches: the last event ID takes the value set by `id:`, then a message
 *    with data lines comes out (a message without any is not dispatched).
 * 4. A message the stream ends in the middle of is discarded, as a browser does.
 *
 * 5. A line or a message's data longer than `maxLength` (see `SSEDecoderOptions`) makes
 *    `push` throw an `SSEError`; the decoder then drops what it held and starts over.
 *
 * A line arriving in many chunks is joined once, when its end arrives.
 */
export class SSEDecoder {
  readonly #maxLength: number;
  #pending: string[] = [];
  #pendingLength = 0;
  #data: string[] = [];
  #dataLength = 0;
  #event = '';
  #idBuffer = '';
  #lastEventId = '';
  #retry: number | undefined;
  #started = false;
  /** The previous chunk ended in CR: a LF starting this one belongs to that line end. */
  #afterCR = false;

  constructor(options: SSEDecoderOptions = {}) {
    const { maxLength = DEFAULT_MAX_SSE_LENGTH } = options;
    if (!(maxLength > 0)) throw new RangeError(`SSE maxLength must be positive (got ${maxLength})`);
    this.#maxLength = maxLength;
  }

  /** The last event ID dispatched: send it as `Last-Event-ID` to resume. */
  get lastEventId(): string {
    return this.#lastEventId;
  }

  /** The reconnection time in milliseconds the server last asked for. */
  get retry(): number | undefined {
    return this.#retry;
  }

  /** Adds a chunk of text; returns the messages it completed, in order. */
  push(chunk: string): SSEMessage[] {
    const messages: SSEMessage[] = [];
    let start = 0;
    if (!this.#started && chunk.length > 0) {
      this.#started = true;
      if (chunk.charCodeAt(0) === 0xfeff) start = 1;
    }
    if (this.#afterCR && start < chunk.length) {
      this.#afterCR = false;
      if (chunk.charCodeAt(start) === 0x0a) start++;
    }
    lineEnd.lastIndex = start;
    for (let found = lineEnd.exec(chunk); found; found = lineEnd.exec(chunk)) {
      const end = found.index;
      this.#measure(this.#pendingLength + end - start, 'line');
      let line = chunk.slice(start, end);
      if (this.#pending.length > 0) {
        this.#pending.push(line);
        line = this.#pending.join('');
        this.#pending = [];
        this.#pendingLength = 0;
      }
      this.#line(line, messages);
      start = end + 1;
      if (chunk.charCodeAt(end) === 0x0d) {
        if (start === chunk.length) this.#afterCR = true;
        else if (chunk.charCodeAt(start) === 0x0a) start++;
      }
      lineEnd.lastIndex = start;
    }
    if (start < chunk.length) {
      this.#measure(this.#pendingLength + chunk.length - start, 'line');
      this.#pending.push(chunk.slice(start));
      this.#pendingLength += chunk.length - start;
    }
    return messages;
  }

  /** Fails (and starts over) when `length` units of a line or a message's data pass the limit. */
  #measure(length: number, what: 'line' | 'message'): void {
    if (length <= this.#maxLength) return;
    this.end();
    throw new SSEError(
      `event stream: a ${what} longer than ${this.#maxLength} characters (the decoder's maxLength)`,
    );
  }

  /**
   * Ends the stream. An unfinished line or message is discarded, as a browser does; with
   * `flush`, a last message that has data but no blank line after it is dispatched and
   * returned instead (some servers close right after their last `data:` line).
   */
  end(options: { flush?: boolean } = {}): SSEMessage[] {
    const messages: SSEMessage[] = [];
    if (options.flush) {
      if (this.#pending.length > 0) this.#line(this.#pending.join(''), messages);
      this.#dispatch(messages);
    }
    this.#pending = [];
    this.#pendingLength = 0;
    this.#data = [];
    this.#dataLength = 0;
    this.#event = '';
    this.#afterCR = false;
    return messages;
  }

  #line(line: string, messages: SSEMessage[]): void {
    if (line === '') {
      this.#dispatch(messages);
      return;
    }
    const colon = line.indexOf(':');
    if (colon === 0) return;
    const field = colon === -1 ? line : line.slice(0, colon);
    const valueStart =
      colon === -1 ? line.length : colon + (line.charCodeAt(colon + 1) === 0x20 ? 2 : 1);
    const value = line.slice(valueStart);
    switch (field) {
      case 'data':
        // Each line after the first adds its joining LF.
        this.#dataLength += value.length + (this.#data.length > 0 ? 1 : 0);
        this.#measure(this.#dataLength, 'message');
        this.#data.push(value);
        break;
      case 'event':
        this.#event = value;
        break;
      case 'id':
        if (!value.includes('\0')) this.#idBuffer = value;
        break;
      case 'retry':
        if (digits.test(value)) this.#retry = Number(value);
        break;
    }
  }

  #dispatch(messages: SSEMessage[]): void {
    this.#lastEventId = this.#idBuffer;
    if (this.#data.length > 0) {
      const data = this.#data.length === 1 ? (this.#data[0] as string) : this.#data.join('\n');
      messages.push({ event: this.#event || 'message', data, lastEventId: this.#lastEventId });
      this.#data = [];
      this.#dataLength = 0;
    }
    this.#event = '';
  }
}

const lineEnd = /[\r\n]/g;
const digits = /^[0-9]+$/;

/**
 * The messages of an event stream (see `SSEDecoder`), read from a fetch Response, its body,
 * or a promise of either.
 *
 * Bytes are decoded as UTF-8 (a sequence split between chunks is joined; invalid bytes
 * become U+FFFD). A Response that is not `ok` fails with an `SSEError`; one without a body
 * completes at once. A line or message past `options.maxLength` fails with an `SSEError`.
 * Whatever goes wrong reaches the Observable's `error`, and the body is cancelled.
 * Unsubscribing cancels the body and releases its reader's lock. A stream can be read once:
 * subscribe once per Response.
 *
 * @example
 * ```ts
 * import { readSSE } from 'callfold';
 * readSSE(fetch('/v1/stream')).subscribe((message) => console.log(message.event, message.data));
 * ```
 */
export function readSSE(input: SSEInput, options: SSEDecoderOptions = {}): Observable<SSEMessage> {
  return decodeWith<SSEMessage>(input, options, (decoder, subscriber) => (text) => {
    for (const message of decoder.push(text)) {
      if (subscriber.closed) return;
      subscriber.next(message);
    }
  });
}

/**
 * An SSE input read through a fresh `SSEDecoder` per subscription: `reader` is called once per
 * subscription with the decoder and the subscriber, and returns what to do with each chunk of
 * decoded text. Whatever that throws (the decoder's length limit, a throwing callback) fails the
 * stream: rxjs would report an error thrown by a `next` handler as unhandled and read on. The
 * decoder is ended before the stream completes. Internal to the SSE readers.
 */
export function decodeWith<T>(
  input: SSEInput,
  options: SSEDecoderOptions,
  reader: (decoder: SSEDecoder, subscriber: Subscriber<T>) => (text: string) => void,
): Observable<T> {
  return new Observable<T>((subscriber) => {
    const decoder = new SSEDecoder(options);
    const read = reader(decoder, subscriber);
    return readText(input).subscribe({
      next: (text) => {
        try {
          read(text);
        } catch (error) {
          subscriber.error(error);
        }
      },
      error: (error) => subscriber.error(error),
      complete: () => {
        decoder.end();
        subscriber.complete();
      },
    });
  });
}

/**
 * The decoded text of an SSE input, chunk by chunk. Internal to the SSE readers.
 *
 * The reader's lock is released once reading stops, however it stops (end, error, cancel).
 */
function readText(input: SSEInput): Observable<string> {
  return new Observable<string>((subscriber) => {
    let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
    let stopped = false;
    const stop = () => {
      stopped = true;
      reader?.cancel().catch(ignore);
    };
    const read = async () => {
      const stream = bodyOf(await input);
      if (stream === null) return subscriber.complete();
      if (stopped) return void stream.cancel().catch(ignore);
      const current = stream.getReader();
      reader = current;
      try {
        // The SSEDecoder drops the byte-order mark itself, exactly once.
        const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });
        for (;;) {
          const { done, value } = await current.read();
          if (stopped) return;
          if (done) break;
          const text = utf8.decode(value, { stream: true });
          if (text !== '') subscriber.next(text);
        }
        const rest = utf8.decode();
        if (rest !== '') subscriber.next(rest);
        subscriber.complete();
      } finally {
        current.releaseLock();
      }
    };
    read().catch((error: unknown) => {
      stop();
      subscriber.error(error);
    });
    return stop;
  });
}

function bodyOf(
  input: ReadableStream<Uint8Array> | ResponseLike,
): ReadableStream<Uint8Array> | null {
  if ('getReader' in input) return input;
  if (!input.ok) throw new SSEError(`event stream: HTTP status ${input.status}`);
  return input.body;
}

function ignore(): void {}
