import { animationFrameScheduler, asyncScheduler, type SchedulerLike } from 'rxjs';

/**
 * The scheduler `assemble()` publishes on when none is given: `animationFrameScheduler` where
 * `requestAnimationFrame` exists (a browser window), so that a Conversation is built at most
 * once per frame and never for a frame that is not painted; `asyncScheduler` (a zero-delay
 * timer, a macrotask) elsewhere (Node, Deno, workers without animation frames), so that
 * everything folded before the event loop turns makes one publication.
 *
 * Why a timer and not a microtask: an official SDK's stream is an async iterator that yields
 * each chunk in its own microtask, so a microtask scheduler published once per chunk (32,771
 * publications for a 512 KiB write). A timer runs once the microtasks of a network read are
 * drained: one publication per read at most, and at most one per timer tick while reads keep
 * coming.
 *
 * Chosen at each call, not at import, so that a host which installs or removes
 * `requestAnimationFrame` later is seen. A hidden browser tab runs no animation frames: its
 * publications wait until it is shown again, while events go on being folded.
 *
 * @example
 * ```ts
 * import { publicationScheduler } from 'callfold';
 * publicationScheduler().schedule(() => console.log('next frame, or once the event loop turns'));
 * ```
 */
export function publicationScheduler(): SchedulerLike {
  const host = globalThis as { requestAnimationFrame?: unknown };
  return typeof host.requestAnimationFrame === 'function'
    ? animationFrameScheduler
    : asyncScheduler;
}
