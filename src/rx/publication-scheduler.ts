import { animationFrameScheduler, asapScheduler, type SchedulerLike } from 'rxjs';

/**
 * The scheduler `assemble()` publishes on when none is given: `animationFrameScheduler` where
 * `requestAnimationFrame` exists (a browser window), so that a Conversation is built at most
 * once per frame and never for a frame that is not painted; `asapScheduler` (a microtask)
 * elsewhere (Node, Deno, workers without animation frames), so that the events of one
 * synchronous burst or one network chunk make one publication.
 *
 * Chosen at each call, not at import, so that a host which installs or removes
 * `requestAnimationFrame` later is seen. A hidden browser tab runs no animation frames: its
 * publications wait until it is shown again, while events go on being folded.
 *
 * @example
 * ```ts
 * import { publicationScheduler } from 'callfold';
 * publicationScheduler().schedule(() => console.log('next frame or microtask'));
 * ```
 */
export function publicationScheduler(): SchedulerLike {
  const host = globalThis as { requestAnimationFrame?: unknown };
  return typeof host.requestAnimationFrame === 'function' ? animationFrameScheduler : asapScheduler;
}
