import { type ResponseLike, SSEDecoder, type SSEMessage } from '../wire/sse-decoder.js';
import { ProviderStreamError } from './provider-stream-error.js';

/**
 * What an adapter reads:
 * - the official SDK's stream: an `AsyncIterable` (or a `ReadableStream`) of chunk objects,
 *   as openai-node, @anthropic-ai/sdk and the AI SDK (`toUIMessageStream()`) yield them;
 * - raw SSE: a fetch `Response`, a `ReadableStream` or `AsyncIterable` of bytes
 *   (`Uint8Array`, cut anywhere, inside a UTF-8 sequence included) or of text, or the whole
 *   SSE text as one string;
 * - an `Iterable` (an array) of any of these items, e.g. recorded chunk objects.
 *
 * Items are told apart one by one: a `Uint8Array` or a string is SSE text, anything else is
 * a chunk object.
 */
export type ProviderSource =
  | ResponseLike
  | ReadableStream<unknown>
  | AsyncIterable<unknown>
  | Iterable<unknown>
  | string;

/** The `data: [DONE]` sentinel that ends Chat Completions and AI SDK SSE streams. */
export const DONE: unique symbol = Symbol('[DONE]');

/**
 * Turns the items a source yields into chunk objects: `item` for each item, `end` once the
 * source is exhausted. The default reads bytes and text as SSE; `fromClaudeCode` and
 * `fromCodex` read them as JSON lines (`JsonLineDecoder`).
 */
export interface ItemDecoder {
  item(item: unknown): void;
  end(): void;
}

/** Makes the `ItemDecoder` of one pump, writing to its `onChunk` and `onMalformed`. */
export type ItemDecoderFactory = (
  provider: string,
  onChunk: (chunk: unknown) => void,
  onMalformed: (error: ProviderStreamError) => void,
) => ItemDecoder;

export interface ChunkPump {
  /** Settles when the source is exhausted (or the pump cancelled); rejects with the first error. */
  readonly done: Promise<void>;
  /** Stops reading and cancels the source (the body's reader, the SDK iterator). */
  cancel(): void;
}

/**
 * Reads `source` to its end, handing each chunk object (SSE data parsed as JSON, or `DONE`)
 * to `onChunk`, synchronously and in order. SSE data that is not JSON is skipped and
 * reported to `onMalformed` as a `ProviderStreamError` (default: thrown, which fails the
 * pump). When `onChunk` or `onMalformed` throws, reading stops, the source is cancelled and
 * `done` rejects with that error. A sync iterable is read synchronously, before
 * `pumpChunks` returns. `decoder` reads bytes and text items (default: as SSE).
 */
export function pumpChunks(
  source: ProviderSource,
  provider: string,
  onChunk: (chunk: unknown) => void,
  onMalformed: (error: ProviderStreamError) => void = (error) => {
    throw error;
  },
  decoder: ItemDecoderFactory = sseDecoder,
): ChunkPump {
  let cancelled = false;
  let stop: (() => void) | undefined;
  const items = decoder(provider, onChunk, onMalformed);

  const read = async (): Promise<void> => {
    let input: unknown = source;
    if (typeof input === 'string') {
      items.item(input);
      items.end();
      return;
    }
    if (isResponse(input)) {
      if (!input.ok) {
        input.body?.cancel().catch(() => {});
        const text = input.statusText ? ` ${input.statusText}` : '';
        throw new ProviderStreamError(provider, `HTTP ${input.status}${text}`, {
          status: input.status,
        });
      }
      if (input.body === null) {
        items.end();
        return;
      }
      input = input.body;
    }
    if (isReadableStream(input)) {
      const reader = input.getReader();
      let finished = false;
      stop = () => void reader.cancel().catch(() => {});
      try {
        for (;;) {
          const result = await reader.read();
          if (cancelled) return;
          if (result.done) break;
          items.item(result.value);
        }
        finished = true;
      } finally {
        if (!finished && !cancelled) reader.cancel().catch(() => {});
        reader.releaseLock();
      }
    } else if (isAsyncIterable(input)) {
      const iterator = input[Symbol.asyncIterator]();
      // Its `next` is read once, as `for await` does (GetIterator keeps the method), not
      // once per chunk.
      const next = iterator.next;
      let finished = false;
      stop = () => void Promise.resolve(iterator.return?.()).catch(() => {});
      try {
        for (;;) {
          const result = await next.call(iterator);
          if (cancelled) return;
          if (result.done) break;
          items.item(result.value);
        }
        finished = true;
      } finally {
        if (!finished && !cancelled) Promise.resolve(iterator.return?.()).catch(() => {});
      }
    } else if (isIterable(input)) {
      for (const item of input) {
        if (cancelled) return;
        items.item(item);
      }
    } else {
      throw new TypeError(
        `${provider}: expected a Response, a ReadableStream, an (async) iterable or SSE text`,
      );
    }
    if (!cancelled) items.end();
  };

  const done = read().catch((error: unknown) => {
    if (!cancelled) throw error;
  });
  return {
    done,
    cancel() {
      cancelled = true;
      stop?.();
    },
  };
}

const sseDecoder: ItemDecoderFactory = (provider, onChunk, onMalformed) =>
  new ChunkDecoder(provider, onChunk, onMalformed);

/** Turns source items into chunk objects: bytes and text through UTF-8 and SSE, objects as they are. */
class ChunkDecoder implements ItemDecoder {
  readonly #provider: string;
  readonly #onChunk: (chunk: unknown) => void;
  readonly #onMalformed: (error: ProviderStreamError) => void;
  #text: TextDecoder | undefined;
  #sse: SSEDecoder | undefined;
  readonly #messages: SSEMessage[] = [];

  constructor(
    provider: string,
    onChunk: (chunk: unknown) => void,
    onMalformed: (error: ProviderStreamError) => void,
  ) {
    this.#provider = provider;
    this.#onChunk = onChunk;
    this.#onMalformed = onMalformed;
  }

  item(item: unknown): void {
    if (item instanceof Uint8Array || ArrayBuffer.isView(item)) {
      this.#text ??= new TextDecoder('utf-8');
      this.#sseText(this.#text.decode(item, { stream: true }));
    } else if (typeof item === 'string') {
      this.#sseText(item);
    } else {
      this.#onChunk(item);
    }
  }

  end(): void {
    if (this.#text) this.#sseText(this.#text.decode());
    if (this.#sse) {
      this.#flush();
      // A last message without its blank line is kept; if its data is not JSON the body
      // was cut inside it, and #flush drops it.
      append(this.#messages, this.#sse.end({ flush: true }));
      this.#flush(true);
    }
  }

  #sseText(text: string): void {
    this.#sse ??= new SSEDecoder();
    append(this.#messages, this.#sse.push(text));
    this.#flush();
  }

  /** `tail`: messages the body ended inside of; one that is not JSON was cut, and is dropped. */
  #flush(tail = false): void {
    const messages = this.#messages.splice(0);
    for (const { data } of messages) {
      const trimmed = data.trim();
      if (trimmed === '') continue;
      if (trimmed === '[DONE]') {
        this.#onChunk(DONE);
        continue;
      }
      let chunk: unknown;
      try {
        chunk = JSON.parse(data);
      } catch (cause) {
        if (tail) continue;
        this.#onMalformed(
          new ProviderStreamError(this.#provider, 'SSE data is not JSON', {
            payload: data,
            cause,
          }),
        );
        continue;
      }
      this.#onChunk(chunk);
    }
  }
}

/**
 * Appends without spreading: one item of SSE text can complete hundreds of thousands of
 * messages, more arguments than a call may take.
 */
function append<T>(to: T[], items: readonly T[]): void {
  for (const item of items) to.push(item);
}

function isObject(value: unknown): value is Record<PropertyKey, unknown> {
  return (typeof value === 'object' && value !== null) || typeof value === 'function';
}

function isReadableStream(value: unknown): value is ReadableStream<unknown> {
  return isObject(value) && typeof value.getReader === 'function';
}

function isResponse(value: unknown): value is ResponseLike {
  return (
    isObject(value) &&
    'body' in value &&
    typeof value.ok === 'boolean' &&
    typeof value.status === 'number' &&
    !isReadableStream(value)
  );
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return isObject(value) && typeof value[Symbol.asyncIterator] === 'function';
}

function isIterable(value: unknown): value is Iterable<unknown> {
  return isObject(value) && typeof value[Symbol.iterator] === 'function';
}
