import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { asapScheduler, type Observable, type SchedulerLike, type Subscription } from 'rxjs';
import {
  type AssembleInput,
  type AssembleOptions,
  assemble,
  type Conversation,
  type KindedNode,
  publicationScheduler,
} from '../../src/index.js';

/** How a `FoldController` folds. */
export interface FoldControllerOptions<Extra extends KindedNode = never> {
  /** Options under those set with `options` (the timeline: `definitionsWithTurns`). */
  readonly defaults?: AssembleOptions<Extra>;
  /** Called when the source fails. The subscription ends; `value` stays what it was. */
  readonly onError?: (error: unknown) => void;
  /**
   * When no scheduler is given (in `defaults` or `options`): each subscription's first
   * publication comes as soon as the events that caused it are folded (a microtask), the
   * rest on `publicationScheduler()` (animation frames in a window). The first thing to show
   * then reaches the frame that follows its bytes instead of waiting for the next frame's
   * animation-frame callbacks, which a read landing just after a frame began pushes a frame
   * later (`bench:peers -- --browser`).
   */
  readonly firstAtOnce?: boolean;
}

/**
 * A scheduler that runs the first work it is given on `asapScheduler` (a microtask) and all
 * later work on `publicationScheduler()`: one per subscription.
 */
export function firstAtOnceScheduler(): SchedulerLike {
  let first = true;
  const later = publicationScheduler();
  return {
    now: () => later.now(),
    schedule(...args: Parameters<SchedulerLike['schedule']>): Subscription {
      const scheduler = first ? asapScheduler : later;
      first = false;
      return scheduler.schedule(...args);
    },
  } as SchedulerLike;
}

/**
 * Folds an Observable of CallfoldEvents with `assemble()` while its host is connected, a Lit
 * reactive controller: each publication becomes `value` and requests a host update.
 *
 * Invariants:
 * 1. It holds a subscription exactly while the host is connected and a `source` is set,
 *    and none once the source completed or failed (until `source` or `options` change).
 * 2. Setting `source` or `options` (a different object) ends the subscription and, while
 *    connected, subscribes at once, so no event sent right after is lost.
 * 3. Each subscription folds from scratch: `value` is undefined until it publishes.
 */
export class FoldController<Extra extends KindedNode = never> implements ReactiveController {
  readonly #host: ReactiveControllerHost;
  readonly #defaults: AssembleOptions<Extra> | undefined;
  readonly #onError: ((error: unknown) => void) | undefined;
  readonly #firstAtOnce: boolean;
  #connected = false;
  #source: Observable<AssembleInput> | undefined;
  #options: AssembleOptions<Extra> | undefined;
  #subscription: Subscription | null = null;
  /** What the subscription folds, or null: a later `#sync` with the same pair keeps it. */
  #subscribed: {
    source: Observable<AssembleInput>;
    options: AssembleOptions<Extra> | undefined;
  } | null = null;
  #value: Conversation<Extra> | undefined;

  constructor(host: ReactiveControllerHost, options: FoldControllerOptions<Extra> = {}) {
    this.#host = host;
    this.#defaults = options.defaults;
    this.#onError = options.onError;
    this.#firstAtOnce = options.firstAtOnce ?? false;
    host.addController(this);
  }

  /** The events to fold while the host is connected. */
  get source(): Observable<AssembleInput> | undefined {
    return this.#source;
  }
  set source(source: Observable<AssembleInput> | undefined) {
    this.#source = source;
    this.#sync();
  }

  /** Options for `assemble()`, over the `defaults`. */
  get options(): AssembleOptions<Extra> | undefined {
    return this.#options;
  }
  set options(options: AssembleOptions<Extra> | undefined) {
    this.#options = options;
    this.#sync();
  }

  /** What the current subscription last published. */
  get value(): Conversation<Extra> | undefined {
    return this.#value;
  }

  /** Whether it holds a live subscription: not once the source completed or failed. */
  get subscribed(): boolean {
    return this.#subscription !== null;
  }

  hostConnected(): void {
    this.#connected = true;
    this.#sync();
  }

  hostDisconnected(): void {
    this.#connected = false;
    this.#sync();
  }

  /** Subscribes to `source` exactly while connected, resubscribing when it or the options change. */
  #sync(): void {
    const source = this.#connected ? this.#source : undefined;
    const current = this.#subscribed;
    if (current?.source === source && current?.options === this.#options) return;
    this.#subscription?.unsubscribe();
    this.#subscription = null;
    this.#subscribed = null;
    this.#value = undefined;
    if (!source) return;
    const options = this.#options;
    this.#subscribed = { source, options };
    const folding = { ...this.#defaults, ...options };
    if (this.#firstAtOnce && folding.scheduler === undefined) {
      folding.scheduler = firstAtOnceScheduler();
    }
    const subscription = source.pipe(assemble<Extra>(folding)).subscribe({
      next: (conversation) => {
        this.#value = conversation;
        this.#host.requestUpdate();
      },
      error: (error: unknown) => {
        this.#subscription = null;
        this.#onError?.(error);
      },
      complete: () => {
        this.#subscription = null;
      },
    });
    // A source that ends while subscribing (`of(…)`, `throwError(…)`) leaves nothing live.
    this.#subscription = subscription.closed ? null : subscription;
  }
}
