import type { CallfoldEvent } from '../events/types.js';
import type { FanOutPacer, Wakeable } from './fan-out-pacer.js';
import type { AbortSignalLike, BatchedFollow } from './session-store.js';
import type { FeedReader, SharedFeed } from './shared-feed.js';

/** What `FollowerQueue.listen` hands batches to. */
export interface FollowerListener {
  /**
   * Everything that was ready, in order. The array may be shared with the store's other
   * followers (`SharedFeed`): read it, do not change it.
   */
  batch(events: readonly CallfoldEvent[]): void;
  /** The follow ended: normally, or with the store's error. Called once, not after `cancel`. */
  end(error?: unknown): void;
}

/**
 * One follower's pending events inside a store: the store pushes, the follower takes
 * everything that is ready as one batch. Events are shared objects (encoded once by the
 * handler for all followers), never copied per follower.
 *
 * Read it one way: pulled with `batches()` (or iterated), or pushed to a listener with
 * `listen` (no promise per batch: the handler's fan-out path).
 *
 * Ends when the store calls `end()` (with an error: the iteration throws it), when the
 * signal aborts, or when the consumer returns or cancels; `onClose` runs once in every case.
 *
 * With a `pacer`, a waiting consumer is woken when the pacer says (at most once per its
 * window, with the store's other followers), not at every push; an end wakes it at once.
 */
export class FollowerQueue implements BatchedFollow, Wakeable, FeedReader {
  #items: CallfoldEvent[] = [];
  #feed: SharedFeed | undefined;
  #cursor = 0;
  #wake: (() => void) | undefined;
  #listener: FollowerListener | undefined;
  #ended = false;
  #error: unknown;
  #closed = false;
  readonly #onClose: () => void;
  readonly #signal: AbortSignalLike | undefined;
  readonly #abort = () => this.end();
  #start: ((queue: FollowerQueue) => Promise<void>) | undefined;
  readonly #pacer: FanOutPacer | undefined;

  /**
   * `start` runs at the first read, before anything is handed out: the store registers the
   * follower there and puts its backlog and replay in place (`takeAll`, `pushAll`).
   */
  constructor(
    onClose: () => void,
    signal?: AbortSignalLike,
    start?: (queue: FollowerQueue) => Promise<void>,
    pacer?: FanOutPacer,
  ) {
    this.#onClose = onClose;
    this.#pacer = pacer;
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
    return this.#items.length + (this.#feed ? this.#feed.end - this.#cursor : 0);
  }

  /** Where this queue has read `feed` up to (`FeedReader`). */
  get cursor(): number {
    return this.#cursor;
  }

  /**
   * Reads `feed` from its current end on: what the store appends there comes after what
   * was pushed to this queue. The store adds the queue to the feed's readers and removes
   * it in `onClose`.
   */
  read(feed: SharedFeed): void {
    this.#feed = feed;
    this.#cursor = feed.end;
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
  takeAll(): readonly CallfoldEvent[] {
    const items = this.#items;
    const feed = this.#feed;
    if (!feed || feed.end === this.#cursor) {
      this.#items = [];
      return items;
    }
    const fed = feed.slice(this.#cursor);
    this.#cursor = feed.end;
    if (items.length === 0) return fed;
    this.#items = [];
    for (const event of fed) items.push(event);
    return items;
  }

  /** No more events: the iteration ends after what waits, throwing `error` if given. */
  end(error?: unknown): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#error = error;
    this.#pacer?.cancel(this);
    this.wakeNow();
  }

  /** The consumer stops: what waits is dropped, `onClose` runs, the listener is not called. */
  cancel(): void {
    this.#listener = undefined;
    this.#close();
  }

  #notify(): void {
    if (this.#wake === undefined && this.#listener === undefined) return;
    if (this.#pacer) this.#pacer.schedule(this);
    else this.wakeNow();
  }

  /** Hands what waits to the consumer now (the pacer calls it). */
  wakeNow(): void {
    const listener = this.#listener;
    if (!listener) {
      const wake = this.#wake;
      this.#wake = undefined;
      wake?.();
      return;
    }
    if (this.size > 0 && !this.#closed) listener.batch(this.takeAll());
    if (this.#ended && !this.#closed) {
      const error = this.#error;
      this.#close();
      listener.end(error);
    }
  }

  #close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#ended = true;
    this.#items = [];
    this.#feed = undefined;
    this.#pacer?.cancel(this);
    this.#signal?.removeEventListener('abort', this.#abort);
    this.#onClose();
  }

  async #started(): Promise<void> {
    const start = this.#start;
    if (!start) return;
    this.#start = undefined;
    if (!this.#ended) {
      await start(this).catch((error: unknown) => this.end(error ?? new Error('follow failed')));
    }
  }

  /**
   * Push mode: after the store's start, `listener` gets what is ready whenever the queue is
   * woken (at once, or when the pacer says), and `end` once the follow ends.
   */
  listen(listener: FollowerListener): void {
    void this.#started().then(() => {
      if (this.#closed) return;
      this.#listener = listener;
      this.wakeNow();
    });
  }

  batches(): AsyncIterator<readonly CallfoldEvent[]> {
    const next = async (): Promise<IteratorResult<readonly CallfoldEvent[]>> => {
      await this.#started();
      while (this.size === 0 && !this.#ended) {
        await new Promise<void>((resolve) => {
          this.#wake = resolve;
        });
      }
      if (this.size > 0 && !this.#closed) {
        return { done: false, value: this.takeAll() };
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
