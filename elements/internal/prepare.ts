import { type Observable, Subject } from 'rxjs';
import type { AssembleInput, CallfoldEvent } from '../../src/index.js';
import { chunkRevealDefaults } from './chunk-reveal-controller.js';
import { elementEvents } from './events.js';
import type { ToolTimelineElement } from './tool-timeline-element.js';

/** The sample session `prepareTimeline` shows: a `write` streaming, then run, and a failed `read`. */
function sample(): { streaming: CallfoldEvent[]; settled: CallfoldEvent[] } {
  const attemptId = 'callfold-prepare';
  const delta = (block: number, callId: string, args: string, name?: string): CallfoldEvent => ({
    type: 'stream/tool-call-delta',
    attemptId,
    block,
    callId,
    args,
    ...(name === undefined ? {} : { name }),
  });
  const write = '{"file_path":"/callfold/prepare.ts","content":"export const ready = true;\\n';
  return {
    streaming: [
      { type: 'stream/text-delta', attemptId, block: 0, text: 'Preparing.' },
      delta(1, 'prepare-write', write.slice(0, 20), 'write'),
      delta(1, 'prepare-write', write.slice(20)),
    ],
    settled: [
      delta(1, 'prepare-write', '"}'),
      { type: 'stream/block-end', attemptId, block: 1, text: `${write}"}` },
      { type: 'tool/call', seq: 1, callId: 'prepare-write', name: 'write', args: `${write}"}` },
      { type: 'tool/result', seq: 2, callId: 'prepare-write', output: 'written' },
      {
        type: 'tool/call',
        seq: 3,
        callId: 'prepare-read',
        name: 'read',
        args: { file_path: '/a' },
      },
      { type: 'tool/result', seq: 4, callId: 'prepare-read', output: 'text', isError: true },
      { type: 'stream/settle', attemptId },
    ],
  };
}

/** Resolves at the next animation frame, or after 100 ms where frames do not come (a hidden tab). */
function nextFrame(): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, 100);
    requestAnimationFrame(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** How long `prepareTimeline` waits for the caller's sample to complete. */
const SAMPLE_MS = 2000;

/**
 * Shows the sample session in `timeline`, out of sight, streaming then settled, a frame laid
 * out each time; then the caller's `sample` until it completes (at most 2 s); then removes it
 * (see `ToolTimelineElement.prepare`).
 */
async function prepareTimeline(
  timeline: ToolTimelineElement,
  own?: Observable<AssembleInput>,
): Promise<void> {
  // When the browser is idle, as the timeline's own idle work comes (at most 1 s).
  await new Promise<void>((resolve) => chunkRevealDefaults.whenIdle(() => resolve()));
  const { streaming, settled } = sample();
  const box = document.createElement('div');
  box.setAttribute('aria-hidden', 'true');
  box.inert = true;
  box.style.cssText =
    'position:fixed;left:-10000px;top:0;width:640px;height:480px;overflow:hidden;' +
    'visibility:hidden;pointer-events:none;contain:strict';
  // The sample's events stay inside: the page's listeners hear none, and a failed sample
  // rejects `prepare()` once the element is gone.
  let failure: { error: unknown } | undefined;
  for (const name of elementEvents) {
    box.addEventListener(name, (event) => {
      event.stopPropagation();
      if (name === 'tool-timeline-error') {
        failure ??= { error: (event as CustomEvent<{ error: unknown }>).detail.error };
      }
    });
  }
  const events = new Subject<CallfoldEvent>();
  timeline.expandGroups = true;
  timeline.source = events;
  box.append(timeline);
  (document.body ?? document.documentElement).append(box);
  try {
    for (const event of streaming) events.next(event);
    await timeline.updateComplete;
    await nextFrame();
    for (const event of settled) events.next(event);
    events.complete();
    await timeline.updateComplete;
    await nextFrame();
    if (own !== undefined) {
      timeline.source = own;
      const until = Date.now() + SAMPLE_MS;
      while (timeline.subscribed && Date.now() < until) await nextFrame();
      await timeline.updateComplete;
      await nextFrame();
    }
  } finally {
    box.remove();
    timeline.source = undefined;
  }
  if (failure) throw failure.error;
}

/** `ToolTimelineElement.prepare()`'s promise, per class. */
const prepared = new WeakMap<typeof ToolTimelineElement, Promise<void>>();

/** `ToolTimelineElement.prepare()` of `type`: once per class (see there). */
export function prepareClass(
  type: typeof ToolTimelineElement,
  sample: Observable<AssembleInput> | undefined,
): Promise<void> {
  const known = prepared.get(type);
  if (known) return known;
  let timeline: ToolTimelineElement;
  try {
    timeline = new type();
  } catch (cause) {
    return Promise.reject(
      new TypeError(`${type.name} is not registered as a custom element: define it first`, {
        cause,
      }),
    );
  }
  const done = prepareTimeline(timeline, sample);
  prepared.set(type, done);
  done.catch(() => prepared.delete(type));
  return done;
}
