/**
 * What both pages of `npm run bench:peers -- --browser` record while one UI message stream
 * plays: long tasks (> 50 ms, `PerformanceObserver`), the interval of every animation frame
 * from the request to the stream's end, and when the tool's name first showed. The first byte's time comes from Resource
 * Timing (`responseStart`) once the response has ended. The name is looked for when the
 * body's size changes (a `ResizeObserver` runs after a frame's animation-frame callbacks and
 * layout, before its paint: the name found there is in that frame) and, as a fallback, at the
 * start of every frame. Text inside shadow roots escapes a `MutationObserver` on the document.
 */
export interface PeersPageResult {
  readonly longTasks: number[];
  readonly frameMs: number[];
  /** From the response's first byte to the first frame that paints the tool's name. */
  readonly firstByteToNameMs: number;
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
  const longTasks: number[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) longTasks.push(entry.duration);
  });
  observer.observe({ type: 'longtask' });
  const frames: number[] = [];
  let last = performance.now();
  let running = true;
  let nameAt = Number.NaN;
  const frame = (now: number) => {
    frames.push(now - last);
    last = now;
    if (Number.isNaN(nameAt) && nameShown()) nameAt = now;
    if (running) requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  const resizes = new ResizeObserver(() => {
    if (Number.isNaN(nameAt) && nameShown()) nameAt = performance.now();
  });
  resizes.observe(document.body);
  return {
    async done(): Promise<PeersPageResult> {
      await new Promise((resolve) => requestAnimationFrame(resolve));
      running = false;
      // Entries not yet delivered to the callback (a long task just ended) are taken here.
      for (const entry of observer.takeRecords()) longTasks.push(entry.duration);
      observer.disconnect();
      resizes.disconnect();
      const entry = performance.getEntriesByType('resource').find((e) => e.name === url) as
        | PerformanceResourceTiming
        | undefined;
      return {
        longTasks,
        frameMs: frames.slice(1),
        firstByteToNameMs: nameAt - (entry?.responseStart ?? Number.NaN),
        shown: shown(),
      };
    },
  };
}
