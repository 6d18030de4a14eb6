import type { ResponseLike } from '../wire/sse-decoder.js';
import { EventStreamDecoder, type EventStreamMessage } from './aws-event-stream.js';
import type { ProviderSource } from './provider-source.js';
import { ProviderStreamError } from './provider-stream-error.js';

/**
 * A source of AWS event-stream bytes (a `Response`, a `ReadableStream` or an (async)
 * iterable of `Uint8Array`s) read as the objects the AWS SDK yields: each `event` message is
 * `{ [<:event-type>]: <its JSON payload> }`, an `exception` message
 * `{ [<:exception-type>]: <its JSON payload> }` (a key ending in `Exception`), an `error`
 * message `{ streamErrorException: { message } }`. Items that are not bytes (the SDK's own
 * objects) pass through unchanged, so the result feeds `pumpChunks` either way.
 *
 * 1. An HTTP error status fails the stream with a `ProviderStreamError` (its `status`).
 * 2. A lost framing (a bad prelude) fails it with a `ProviderStreamError`; a message with a
 *    bad checksum, bad headers or a payload that is not JSON is skipped and reported to
 *    `onMalformed` (which may throw, to fail the stream).
 * 3. `return()` (the adapter unsubscribing) cancels the body's reader or the iterator at
 *    once, even while a read is pending.
 * 4. Everything is read through this async iterator, an array of objects too: unlike the
 *    SSE adapters, no source is read synchronously.
 */
export function eventStreamSource(
  source: ProviderSource,
  provider: string,
  onMalformed: (error: ProviderStreamError) => void,
): AsyncIterable<unknown> {
  return { [Symbol.asyncIterator]: () => new EventStreamIterator(source, provider, onMalformed) };
}

const text = new TextDecoder('utf-8');

class EventStreamIterator implements AsyncIterator<unknown> {
  readonly #source: ProviderSource;
  readonly #provider: string;
  readonly #onMalformed: (error: ProviderStreamError) => void;
  readonly #decoder: EventStreamDecoder;
  #queue: unknown[] = [];
  #next = 0;
  #read: (() => Promise<IteratorResult<unknown>>) | undefined;
  #cancel: (() => void) | undefined;
  #done = false;

  constructor(
    source: ProviderSource,
    provider: string,
    onMalformed: (error: ProviderStreamError) => void,
  ) {
    this.#source = source;
    this.#provider = provider;
    this.#onMalformed = onMalformed;
    this.#decoder = new EventStreamDecoder((bad) =>
      onMalformed(new ProviderStreamError(provider, bad.message, { cause: bad })),
    );
  }

  async next(): Promise<IteratorResult<unknown>> {
    for (;;) {
      if (this.#next < this.#queue.length) {
        const value = this.#queue[this.#next++];
        return { value, done: false };
      }
      this.#queue = [];
      this.#next = 0;
      const failure = this.#decoder.failure;
      if (failure)
        throw new ProviderStreamError(this.#provider, failure.message, { cause: failure });
      if (this.#done) return { value: undefined, done: true };
      this.#read ??= this.#open();
      const result = await this.#read();
      if (this.#done) return { value: undefined, done: true };
      if (result.done) {
        this.#done = true;
        continue;
      }
      this.#item(result.value);
    }
  }

  async return(): Promise<IteratorResult<unknown>> {
    this.#done = true;
    this.#cancel?.();
    return { value: undefined, done: true };
  }

  #open(): () => Promise<IteratorResult<unknown>> {
    let input: unknown = this.#source;
    if (isResponse(input)) {
      if (!input.ok) {
        input.body?.cancel().catch(() => {});
        const status = input.statusText ? ` ${input.statusText}` : '';
        throw new ProviderStreamError(this.#provider, `HTTP ${input.status}${status}`, {
          status: input.status,
        });
      }
      if (input.body === null) return async () => ({ value: undefined, done: true });
      input = input.body;
    }
    if (isObject(input) && typeof input.getReader === 'function') {
      const reader = (input as unknown as ReadableStream<unknown>).getReader();
      this.#cancel = () => void reader.cancel().catch(() => {});
      return () => reader.read() as Promise<IteratorResult<unknown>>;
    }
    if (isObject(input) && typeof input[Symbol.asyncIterator] === 'function') {
      const iterator = (input as unknown as AsyncIterable<unknown>)[Symbol.asyncIterator]();
      this.#cancel = () => void Promise.resolve(iterator.return?.()).catch(() => {});
      return () => iterator.next();
    }
    if (isObject(input) && typeof input[Symbol.iterator] === 'function') {
      const iterator = (input as unknown as Iterable<unknown>)[Symbol.iterator]();
      return async () => iterator.next();
    }
    throw new TypeError(
      `${this.#provider}: expected a Response, a ReadableStream or an (async) iterable`,
    );
  }

  #item(item: unknown): void {
    if (!ArrayBuffer.isView(item)) {
      this.#queue.push(item);
      return;
    }
    const bytes =
      item instanceof Uint8Array
        ? item
        : new Uint8Array(item.buffer, item.byteOffset, item.byteLength);
    // Messages before a lost framing are read; the failure is thrown after them (`next`).
    for (const message of this.#decoder.push(bytes)) {
      const event = this.#event(message);
      if (event !== undefined) this.#queue.push(event);
    }
  }

  /** A message as the SDK's object, or undefined after reporting it (rule 2). */
  #event({ headers, payload }: EventStreamMessage): unknown {
    const kind = headers.get(':message-type');
    if (kind === 'error') {
      const code = headers.get(':error-code') ?? 'error';
      const message = headers.get(':error-message') ?? '';
      return { streamErrorException: { message: message === '' ? code : `${code}: ${message}` } };
    }
    const type = kind === 'exception' ? headers.get(':exception-type') : headers.get(':event-type');
    if (type === undefined || type === '') {
      this.#onMalformed(
        new ProviderStreamError(this.#provider, `event stream message without a type (${kind})`),
      );
      return undefined;
    }
    const body = text.decode(payload);
    try {
      const value = body === '' ? {} : (JSON.parse(body) as unknown);
      return { [type]: value };
    } catch (cause) {
      if (kind === 'exception') return { [type]: { message: body } };
      this.#onMalformed(
        new ProviderStreamError(this.#provider, 'event payload is not JSON', {
          payload: body,
          cause,
        }),
      );
      return undefined;
    }
  }
}

function isObject(value: unknown): value is Record<PropertyKey, unknown> {
  return typeof value === 'object' && value !== null;
}

function isResponse(value: unknown): value is ResponseLike {
  return (
    isObject(value) &&
    'body' in value &&
    typeof value.ok === 'boolean' &&
    typeof value.status === 'number' &&
    typeof value.getReader !== 'function'
  );
}
