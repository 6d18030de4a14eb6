/**
 * What both pages of `npm run bench:peers -- --browser` record while one UI message stream
 * plays: long tasks (> 50 ms, `PerformanceObserver`), the interval of every animation frame
 * from the request to the stream's end, and when the tool's name first showed. The first byte's time comes from Resource
 * Timing (`responseStart`) once the response has ended. The name is looked for when the
 * body's size changes (a `ResizeObserver` runs after a frame's animation-frame callbacks and
 * layout, before its paint: the name found there is in that frame) and, as a fallback, in the
 * animation-frame callback of every frame. Text inside shadow roots escapes a `MutationObserver` on the document.
 */
export interface PeersPageResult {
  /** Each long task: when it started, from the response's first byte, and how long it ran. */
  readonly longTasks: { readonly startMs: number; readonly durationMs: number }[];
  readonly frameMs: number[];
  /** From the response's first byte to the first frame that paints the tool's name. */
  readonly firstByteToNameMs: number;
  /**
   * From the response's first byte to the page's first render of a publication holding an
   * item (`rendering()`; NaN where the page does not mark it): the rest of the time to the
   * name is that render and the frame's style and layout.
   */
  readonly firstByteToRenderMs: number;
  /**
   * The animation frames that began after the response's first byte, up to and including
   * the one whose layout held the tool's name: 1 when the name is in the first frame after
   * its bytes arrived (however long that frame ran), 2 when it waited a frame more.
   */
  readonly framesToName: number;
  /** The path and size the page shows at the end. */
  readonly shown: string;
}

declare global {
  interface Window {
    /** Plays the stream at `url` to its end, then reports. */
    peersRun(url: string): Promise<PeersPageResult>;
  }
}

/** Starts recording; `done()` resolves once the page's render of the end has shown. */
export function probe(url: string, nameShown: () => boolean, shown: () => string) {
  const longTasks: PerformanceEntry[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) longTasks.push(entry);
  });
  observer.observe({ type: 'longtask' });
  const frames: number[] = [];
  /** When each frame began (its animation-frame timestamp). */
  const frameStarts: number[] = [];
  let last = performance.now();
  let running = true;
  let nameAt = Number.NaN;
  let renderAt = Number.NaN;
  const frame = (now: number) => {
    frames.push(now - last);
    frameStarts.push(now);
    last = now;
    // The time of this callback, not the frame's timestamp (`now`, when the frame began): a
    // render in an earlier callback of this frame (the timeline's publication) came after it.
    if (Number.isNaN(nameAt) && nameShown()) nameAt = performance.now();
    if (running) requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  const resizes = new ResizeObserver(() => {
    if (Number.isNaN(nameAt) && nameShown()) nameAt = performance.now();
  });
  resizes.observe(document.body);
  return {
    /** The page is about to render its first publication that holds an item. */
    rendering(): void {
      if (Number.isNaN(renderAt)) renderAt = performance.now();
    },
    async done(): Promise<PeersPageResult> {
      await new Promise((resolve) => requestAnimationFrame(resolve));
      running = false;
      // Entries not yet delivered to the callback (a long task just ended) are taken here.
      for (const entry of observer.takeRecords()) longTasks.push(entry);
      observer.disconnect();
      resizes.disconnect();
      const entry = performance.getEntriesByType('resource').find((e) => e.name === url) as
        | PerformanceResourceTiming
        | undefined;
      const firstByte = entry?.responseStart ?? Number.NaN;
      return {
        longTasks: longTasks.map((task) => ({
          startMs: task.startTime - firstByte,
          durationMs: task.duration,
        })),
        frameMs: frames.slice(1),
        firstByteToNameMs: nameAt - firstByte,
        firstByteToRenderMs: renderAt - firstByte,
        framesToName: Number.isNaN(nameAt)
          ? Number.NaN
          : frameStarts.filter((start) => start > firstByte && start <= nameAt).length,
        shown: shown(),
      };
    },
  };
}
