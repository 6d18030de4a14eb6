import {
  html,
  type ReactiveController,
  type ReactiveControllerHost,
  type TemplateResult,
} from 'lit';
import { styleMap } from 'lit/directives/style-map.js';
import { type Chunk, TimelineChunks, type TimelineItem } from './timeline-chunks.js';

/**
 * Schedules `run` for when the browser is idle, with the milliseconds the browser grants it;
 * returns the cancellation.
 */
export type IdleScheduler = (run: (timeRemaining: number) => void) => () => void;

/** How a `ChunkRevealController` cuts items into chunks and when a waiting chunk renders. */
export interface ChunkRevealOptions {
  /** Items per chunk (at least 1; `Infinity`: one chunk). Default 32. */
  readonly chunkSize: number;
  /**
   * Chunks per section (at least 1): the template walks the sections, and only the chunks of
   * a section that changed. Default 32.
   */
  readonly sectionSize: number;
  /**
   * Chunks rendered at once at each end of the list (at least 0; `Infinity`: every chunk,
   * which turns reveal off). The others wait until they come near the viewport, or for idle
   * time. Default 2.
   */
  readonly eagerChunks: number;
  /** Whether waiting chunks render in idle time too (else only near the viewport). Default true. */
  readonly fillWhenIdle: boolean;
  /** At most this many waiting chunks render per idle period (at least 1). Default 2. */
  readonly idleChunks: number;
  /**
   * Idle milliseconds a chunk is given: an idle period renders one chunk, and one more for
   * each further `idleChunkMs` it has left, up to `idleChunks`. Default 16 (a frame).
   */
  readonly idleChunkMs: number;
  /**
   * How near the viewport a waiting chunk renders: the IntersectionObserver's `rootMargin`.
   * Default `'100% 0px'` (within a viewport above or below the screen).
   */
  readonly rootMargin: string;
  /** When idle time comes. Default `requestIdleCallback` (timeout 1 s), or a 32 ms timer. */
  readonly whenIdle: IdleScheduler;
}

/** Calls `run` when the browser is idle, or after 32 ms where it has no `requestIdleCallback`. */
const whenIdle: IdleScheduler = (run) => {
  if (typeof requestIdleCallback === 'function') {
    const handle = requestIdleCallback((deadline) => run(deadline.timeRemaining()), {
      timeout: 1000,
    });
    return () => cancelIdleCallback(handle);
  }
  const handle = setTimeout(() => run(10), 32);
  return () => clearTimeout(handle);
};

/** The defaults of `ChunkRevealOptions`, as `<tool-timeline>` uses them. */
export const chunkRevealDefaults: ChunkRevealOptions = Object.freeze({
  chunkSize: 32,
  sectionSize: 32,
  eagerChunks: 2,
  fillWhenIdle: true,
  idleChunks: 2,
  idleChunkMs: 16,
  rootMargin: '100% 0px',
  whenIdle,
});

/** What a `ChunkRevealController` needs of its host: a Lit element's update cycle and root. */
export type ChunkRevealHost = ReactiveControllerHost & {
  readonly renderRoot: ParentNode;
  readonly isConnected: boolean;
};

/**
 * Reveals a long list in chunks, a Lit reactive controller: the items are cut into chunks
 * (`TimelineChunks`, kept across updates); the first and last `eagerChunks` render at once,
 * and every other chunk starts as a placeholder (`placeholder()`) that gets its items when it
 * comes near the viewport (an IntersectionObserver) or in idle time, newest first.
 *
 * Invariants:
 * 1. Before any intersection or idle period, at most `2 × eagerChunks` chunks are rendered:
 *    the work of a first render is independent of the number of items.
 * 2. A rendered chunk stays rendered (see `TimelineChunks`).
 * 3. While connected and `fillWhenIdle`, an idle period is pending whenever a chunk waits,
 *    so every item reaches the DOM (find-in-page, Tab, screen readers); disconnecting
 *    cancels it and the observer.
 *
 * The host calls `update(items)` from `willUpdate`, renders `chunks.sections` and, for a chunk
 * not `rendered`, `placeholder(chunk, height)`.
 */
export class ChunkRevealController implements ReactiveController {
  /** The options, defaults filled in. */
  readonly options: ChunkRevealOptions;
  /** The chunks and sections to render. */
  readonly chunks: TimelineChunks;
  readonly #host: ChunkRevealHost;
  /** Renders waiting chunks that come near the viewport. */
  #observer: IntersectionObserver | undefined;
  /** Placeholders may have been (re)created: observe them after the update. */
  #observe = false;
  /** Cancels the pending idle period. */
  #idle: (() => void) | undefined;

  /** @throws RangeError when a count is not a number in its range. */
  constructor(host: ChunkRevealHost, options: Partial<ChunkRevealOptions> = {}) {
    const merged = { ...chunkRevealDefaults, ...options };
    atLeast('chunkSize', merged.chunkSize, 1);
    atLeast('sectionSize', merged.sectionSize, 1);
    atLeast('eagerChunks', merged.eagerChunks, 0);
    atLeast('idleChunks', merged.idleChunks, 1);
    if (!(merged.idleChunkMs > 0)) {
      throw new RangeError(
        `ChunkRevealOptions.idleChunkMs must be above 0, got ${merged.idleChunkMs}`,
      );
    }
    this.options = Object.freeze(merged);
    this.chunks = new TimelineChunks(merged.chunkSize, merged.sectionSize);
    this.#host = host;
    host.addController(this);
  }

  /** Cuts `items` into chunks (see `TimelineChunks.update`) and renders the eager ends. */
  update(items: readonly TimelineItem[]): void {
    const chunks = this.chunks;
    chunks.update(items);
    // Only the ends: the work stays independent of the number of chunks.
    const list = chunks.chunks;
    const eager = Math.min(this.options.eagerChunks, Math.ceil(list.length / 2));
    for (let i = 0; i < eager; i++) {
      chunks.render(list[i] as Chunk);
      chunks.render(list[list.length - 1 - i] as Chunk);
    }
  }

  /** The box a waiting chunk shows: empty, `height` tall (a CSS length), observed. */
  placeholder(chunk: Chunk, height: string): TemplateResult {
    this.#observe = true;
    return html`<div class="chunk" data-waiting=${chunk.key} style=${styleMap({ 'block-size': height })}></div>`;
  }

  hostConnected(): void {
    if (typeof IntersectionObserver !== 'function') return;
    this.#observer = new IntersectionObserver(this.#intersect, {
      rootMargin: this.options.rootMargin,
    });
    this.#observe = true;
    this.#host.requestUpdate();
  }

  hostDisconnected(): void {
    this.#observer?.disconnect();
    this.#observer = undefined;
    this.#idle?.();
    this.#idle = undefined;
  }

  hostUpdated(): void {
    if (this.#observe && this.#observer) {
      this.#observe = false;
      for (const box of this.#host.renderRoot.querySelectorAll('.chunk[data-waiting]')) {
        this.#observer.observe(box);
      }
    }
    if (
      this.options.fillWhenIdle &&
      this.chunks.waiting > 0 &&
      this.#idle === undefined &&
      this.#host.isConnected
    ) {
      this.#idle = this.options.whenIdle(this.#fill);
    }
  }

  /** Renders the waiting chunks that came near the viewport. */
  #intersect = (entries: IntersectionObserverEntry[]): void => {
    const keys = new Set<string>();
    for (const entry of entries) {
      if (!entry.isIntersecting || !(entry.target instanceof HTMLElement)) continue;
      this.#observer?.unobserve(entry.target);
      const key = entry.target.dataset.waiting;
      if (key !== undefined) keys.add(key);
    }
    if (keys.size === 0) return;
    for (const chunk of this.chunks.chunks) if (keys.has(chunk.key)) this.chunks.render(chunk);
    this.#host.requestUpdate();
  };

  /** Renders the newest waiting chunks, as many as the idle period has time for. */
  #fill = (timeRemaining: number): void => {
    this.#idle = undefined;
    const { idleChunks, idleChunkMs } = this.options;
    let budget = Math.min(idleChunks, Math.max(1, Math.floor(timeRemaining / idleChunkMs)));
    const list = this.chunks.chunks;
    for (let i = list.length - 1; i >= 0 && budget > 0; i--) {
      const chunk = list[i] as Chunk;
      if (chunk.rendered) continue;
      this.chunks.render(chunk);
      budget--;
    }
    this.#host.requestUpdate();
  };
}

function atLeast(name: string, value: number, min: number): void {
  if (!(typeof value === 'number' && value >= min)) {
    throw new RangeError(`ChunkRevealOptions.${name} must be a number ≥ ${min}, got ${value}`);
  }
}
