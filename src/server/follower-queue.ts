import type { CallfoldEvent } from '../events/types.js';
import type { AbortSignalLike, BatchedFollow } from './session-store.js';

/**
 * One follower's pending events inside a store: the store pushes, the follower takes
 * everything that is ready as one batch. Events are shared objects (encoded once by the
 * handler for all followers), never copied per follower.
 *
 * Ends when the store calls `end()` (with an error: the iteration throws it), when the
 * signal aborts, or when the consumer returns; `onClose` runs once in every case.
 */
export class FollowerQueue implements BatchedFollow {
  #items: CallfoldEvent[] = [];
  #wake: (() => void) | undefined;
  #ended = false;
  #error: unknown;
  #closed = false;
  readonly #onClose: () => void;
  readonly #signal: AbortSignalLike | undefined;
  readonly #abort = () => this.end();
  #start: ((queue: FollowerQueue) => Promise<void>) | undefined;

  /**
   * `start` runs at the first read, before anything is handed out: the store registers the
   * follower there and puts its backlog and replay in place (`takeAll`, `pushAll`).
   */
  constructor(
    onClose: () => void,
    signal?: AbortSignalLike,
    start?: (queue: FollowerQueue) => Promise<void>,
  ) {
    this.#onClose = onClose;
    this.#signal = signal;
    this.#start = start;
    if (signal?.aborted) this.#ended = true;
    else signal?.addEventListener('abort', this.#abort, { once: true });
  }

  get ended(): boolean {
    return this.#ended;
  }

  /** How many events wait to be taken. */
  get size(): number {
    return this.#items.length;
  }

  push(event: CallfoldEvent): void {
    if (this.#ended) return;
    this.#items.push(event);
    this.#notify();
  }

  pushAll(events: readonly CallfoldEvent[]): void {
    if (this.#ended || events.length === 0) return;
    for (const event of events) this.#items.push(event);
    this.#notify();
  }

  /** Removes and returns what waits (the store re-orders a new follower's first events). */
  takeAll(): CallfoldEvent[] {
    const items = this.#items;
    this.#items = [];
    return items;
  }

  /** No more events: the iteration ends after what waits, throwing `error` if given. */
  end(error?: unknown): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#error = error;
    this.#notify();
  }

  #notify(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }

  #close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#ended = true;
    this.#items = [];
    this.#signal?.removeEventListener('abort', this.#abort);
    this.#onClose();
  }

  batches(): AsyncIterator<readonly CallfoldEvent[]> {
    const next = async (): Promise<IteratorResult<readonly CallfoldEvent[]>> => {
      const start = this.#start;
      if (start) {
        this.#start = undefined;
        if (!this.#ended)
          await start(this).catch((error: unknown) =>
            this.end(error ?? new Error('follow failed')),
          );
      }
      while (this.#items.length === 0 && !this.#ended) {
        await new Promise<void>((resolve) => {
          this.#wake = resolve;
        });
      }
      if (this.#items.length > 0 && !this.#closed) {
        const batch = this.#items;
        this.#items = [];
        return { done: false, value: batch };
      }
      const error = this.#error;
      this.#close();
      if (error !== undefined) throw error;
      return { done: true, value: undefined };
    };
    return {
      next,
      return: async () => {
        this.#close();
        return { done: true, value: undefined };
      },
    };
  }

  async *[Symbol.asyncIterator](): AsyncIterator<CallfoldEvent> {
    const batches = this.batches();
    try {
      for (;;) {
        const result = await batches.next();
        if (result.done) return;
        yield* result.value;
      }
    } finally {
      await batches.return?.();
    }
  }
}
