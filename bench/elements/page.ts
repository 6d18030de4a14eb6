/**
 * The page of `npm run bench:elements` (bench/elements.bench.ts serves it with Vite): 16
 * tool calls stream in parallel into a `<tool-timeline .source>` folded by `assemble()` with
 * `animationFrameScheduler`, a steady number of deltas pushed each animation frame. It
 * measures the script time of each frame and counts row renders of calls that had finished.
 */
import { animationFrameScheduler, Subject } from 'rxjs';
import '../../elements/tool-timeline.js';
import { ToolRowElement, type ToolTimelineElement } from '../../elements/classes.js';
import type { CallfoldEvent } from '../../src/events/types.js';

export interface ElementsBenchResult {
  readonly frames: number;
  readonly deltas: number;
  readonly deltasPerFrame: number;
  /** Script time of each frame that did work, in ms. */
  readonly frameMs: number[];
  readonly totalMs: number;
  readonly rowRenders: number;
  /** Row renders of calls whose last event was published two or more frames before. */
  readonly unchangedRowRenders: number;
  readonly rows: number;
  readonly bigWriteBytes: number;
}

declare global {
  interface Window {
    runElementsBench(deltasPerFrame: number): Promise<ElementsBenchResult>;
  }
}

// Per-frame script time: every rAF callback is wrapped; a frame spans from its first callback
// to the end of the microtasks (Lit updates) after its last one.
const frames = new Map<number, { start: number; end: number }>();
const requestFrame = window.requestAnimationFrame.bind(window);
window.requestAnimationFrame = (callback: FrameRequestCallback): number =>
  requestFrame((time) => {
    const start = performance.now();
    let frame = frames.get(time);
    if (!frame) {
      frame = { start, end: start };
      frames.set(time, frame);
    }
    callback(time);
    const record = frame;
    const done = () => {
      record.end = Math.max(record.end, performance.now());
    };
    // Lit renders in microtasks; wait for every element of the timeline to finish.
    void settle().then(done);
  });

const timeline = document.querySelector('tool-timeline') as ToolTimelineElement;

async function settle(): Promise<void> {
  const pending: Promise<unknown>[] = [timeline.updateComplete];
  for (const group of timeline.shadowRoot?.querySelectorAll('tool-group') ?? []) {
    pending.push((group as unknown as { updateComplete: Promise<unknown> }).updateComplete);
    for (const row of group.shadowRoot?.querySelectorAll('tool-row') ?? []) {
      pending.push((row as ToolRowElement).updateComplete);
    }
  }
  await Promise.all(pending);
}

// Row renders, by call id, with the frame they happened in.
let frameIndex = 0;
const renders: { callId: string; frame: number }[] = [];
// `updated` is protected: reached through a structural view of the prototype.
const rowPrototype = ToolRowElement.prototype as unknown as {
  updated(this: ToolRowElement, changed: unknown): void;
};
const updated = rowPrototype.updated;
rowPrototype.updated = function (this: ToolRowElement, changed: unknown) {
  renders.push({ callId: this.node?.callId ?? '', frame: frameIndex });
  updated.call(this, changed);
};

/** Deterministic prose-like text of `length` characters. */
function prose(length: number, seed: number): string {
  const words = ['alpha', 'beta', 'gamma', 'delta', 'fold', 'stream', 'tool', 'row', 'call'];
  let out = '';
  let state = seed;
  while (out.length < length) {
    state = (state * 1103515245 + 12345) >>> 0;
    out += words[state % words.length];
    out += state % 11 === 0 ? '\n' : ' ';
  }
  return out.slice(0, length);
}

interface Call {
  readonly callId: string;
  readonly name: string;
  readonly args: string;
}

function calls(): Call[] {
  const list: Call[] = [];
  list.push({
    callId: 'w0',
    name: 'Write',
    args: JSON.stringify({ file_path: 'src/big.ts', content: prose(512 * 1024, 1) }),
  });
  for (let i = 1; i < 8; i++) {
    list.push({
      callId: `w${i}`,
      name: 'Write',
      args: JSON.stringify({ file_path: `src/file${i}.ts`, content: prose(8 * 1024 * i, i + 1) }),
    });
  }
  for (let i = 0; i < 8; i++) {
    list.push({
      callId: `b${i}`,
      name: 'Bash',
      args: JSON.stringify({
        description: `Run step ${i}`,
        command: prose(2048 * (i + 1), 50 + i),
      }),
    });
  }
  return list;
}

/** Round-robin deltas of 16 characters over the calls still streaming; a `tool/call` after each. */
function events(list: readonly Call[]): CallfoldEvent[] {
  const out: CallfoldEvent[] = [];
  const at = list.map(() => 0);
  let seq = 0;
  for (let open = list.length; open > 0; ) {
    list.forEach((call, block) => {
      const offset = at[block] ?? 0;
      if (offset >= call.args.length) return;
      const args = call.args.slice(offset, offset + 16);
      at[block] = offset + 16;
      const delta = {
        type: 'stream/tool-call-delta',
        attemptId: 'a1',
        block,
        callId: call.callId,
        args,
      } as const;
      out.push(offset === 0 ? { ...delta, name: call.name } : delta);
      if (offset + 16 >= call.args.length) {
        out.push({
          type: 'tool/call',
          seq: ++seq,
          callId: call.callId,
          name: call.name,
          args: call.args,
        });
        open--;
      }
    });
  }
  return out;
}

window.runElementsBench = async (deltasPerFrame) => {
  const list = calls();
  const all = events(list);
  const source = new Subject<CallfoldEvent[]>();
  timeline.assembleOptions = { scheduler: animationFrameScheduler };
  timeline.source = source;
  const lastFrame = new Map<string, number>();
  await new Promise<void>((resolve) => {
    let next = 0;
    const step = () => {
      frameIndex++;
      if (next >= all.length) {
        source.complete();
        resolve();
        return;
      }
      window.requestAnimationFrame(step);
      const batch = all.slice(next, next + deltasPerFrame);
      next += batch.length;
      for (const event of batch) if ('callId' in event) lastFrame.set(event.callId, frameIndex);
      source.next(batch);
    };
    window.requestAnimationFrame(step);
  });
  // Let the last publications render.
  for (let i = 0; i < 3; i++) {
    await new Promise((resolve) => window.requestAnimationFrame(resolve));
    frameIndex++;
  }
  await settle();
  const frameMs = [...frames.values()].map((frame) => frame.end - frame.start);
  const unchanged = renders.filter(
    (render) => render.frame >= (lastFrame.get(render.callId) ?? Number.POSITIVE_INFINITY) + 2,
  );
  const rows = timeline.shadowRoot
    ? [...timeline.shadowRoot.querySelectorAll('tool-group')].reduce(
        (sum, group) => sum + (group.shadowRoot?.querySelectorAll('tool-row').length ?? 0),
        0,
      )
    : 0;
  return {
    frames: frameMs.length,
    deltas: all.length,
    deltasPerFrame,
    frameMs,
    totalMs: frameMs.reduce((a, b) => a + b, 0),
    rowRenders: renders.length,
    unchangedRowRenders: unchanged.length,
    rows,
    bigWriteBytes: list[0]?.args.length ?? 0,
  };
};
