/**
 * The page of `npm run bench:timeline` (bench/timeline.bench.ts serves it with Vite): a long
 * session's Conversation (N settled calls in groups of 1–6, assistant text between) given to a
 * fresh `<tool-timeline>`, then a new 512 KiB write streaming below it, one publication per
 * animation frame. Measures the first render, the time until every item is in the DOM, and
 * the script time of each streaming frame; counts Lit updates by element kind.
 */
import { LitElement } from 'lit';
import '../../elements/tool-timeline.js';
import { ToolTimelineElement } from '../../elements/classes.js';
import type { CallfoldEvent, MessageBlock, SessionEvent } from '../../src/events/types.js';
import { Assembler, type Conversation } from '../../src/index.js';
import { writeDeltas } from '../../test/assembler/support/events.js';
import { pick, prng } from '../../test/support/prng.js';

export interface FirstRenderResult {
  readonly calls: number;
  readonly items: number;
  readonly groups: number;
  /** From setting `conversation` to the end of a forced layout after every pending Lit update. */
  readonly firstMs: number;
  /** `<tool-group>` and `<tool-row>` elements in the DOM at that point. */
  readonly groupElements: number;
  readonly rowElements: number;
  /** Of `firstMs`, until the last Lit update ended (the rest is style and layout). */
  readonly scriptMs: number;
  /** Lit updates (timeline, groups, rows) the first render ran. */
  readonly updates: number;
  /** Until every group of the Conversation has its element (idle fill done), polled. */
  readonly allMs: number;
  readonly allGroupElements: number;
  readonly allRowElements: number;
}

export interface StreamResult {
  readonly calls: number;
  readonly deltas: number;
  readonly frames: number;
  /** Script time of each frame: push, publish, set `conversation`, Lit updates. */
  readonly frameMs: number[];
  /** Of each frame, the push and publish alone (the fold, before any rendering). */
  readonly foldMs: number[];
  /** Of each frame, the timeline's own Lit update (`willUpdate`, render, commit), not its children's. */
  readonly timelineMs: number[];
  /** Lit updates per frame, by element kind. */
  readonly updates: { timeline: number[]; group: number[]; row: number[] };
  /** The live row was the same element at every stage. */
  readonly sameRow: boolean;
  readonly finalStage: string;
}

declare global {
  interface Window {
    timelineFirstRender(calls: number, expanded: boolean): Promise<FirstRenderResult>;
    timelineStream(
      calls: number,
      expanded: boolean,
      deltasPerFrame: number,
      fill?: boolean,
    ): Promise<StreamResult>;
  }
}

// Every Lit update is counted by tag, and its end time kept: a frame ends with its last update.
const counts = { timeline: 0, group: 0, row: 0 };
let lastUpdateEnd = 0;
const litPrototype = LitElement.prototype as unknown as {
  update(this: LitElement, changed: unknown): void;
};
const update = litPrototype.update;
litPrototype.update = function (this: LitElement, changed: unknown) {
  update.call(this, changed);
  const tag = this.localName;
  if (tag === 'tool-timeline') counts.timeline++;
  else if (tag === 'tool-group') counts.group++;
  else if (tag === 'tool-row') counts.row++;
  lastUpdateEnd = performance.now();
};

// The timeline's own update (its `willUpdate` included): summed per frame.
let timelineUpdateMs = 0;
const reactivePrototype = LitElement.prototype as unknown as {
  performUpdate(this: LitElement): void;
};
const performUpdate = reactivePrototype.performUpdate;
reactivePrototype.performUpdate = function (this: LitElement) {
  if (this.localName !== 'tool-timeline') return performUpdate.call(this);
  const start = performance.now();
  try {
    return performUpdate.call(this);
  } finally {
    timelineUpdateMs += performance.now() - start;
  }
};

const NAMES = ['Read', 'Bash', 'Write', 'Edit', 'Grep'] as const;

function argsOf(random: () => number, name: string, id: string): string {
  const path = `/src/module-${Math.floor(random() * 500)}/${id}.ts`;
  switch (name) {
    case 'Bash':
      return JSON.stringify({ description: `Run the tests of ${id}`, command: 'npm test' });
    case 'Write':
      return JSON.stringify({ file_path: path, content: `export const ${id} = 1;\n` });
    case 'Edit':
      return JSON.stringify({ file_path: path, old_string: 'a', new_string: 'b' });
    case 'Grep':
      return JSON.stringify({ pattern: id, path: '/src' });
    default:
      return JSON.stringify({ file_path: path });
  }
}

/**
 * A settled session of `calls` calls: responses of assistant text and 1–6 tool uses (so the
 * items alternate text and group), their calls and results. Seeded: the same every run.
 */
function history(calls: number): SessionEvent[] {
  const random = prng(0x7133);
  const log: SessionEvent[] = [];
  let seq = 1;
  let call = 0;
  for (let round = 0; call < calls; round++) {
    const n = Math.min(calls - call, 1 + Math.floor(random() * 6));
    const ids = Array.from({ length: n }, () => `call_${call++}`);
    const names = ids.map(() => pick(random, NAMES));
    const args = ids.map((id, i) => argsOf(random, names[i] as string, id));
    const text = `Step ${round}: looking at the next ${n === 1 ? 'file' : `${n} files`}, then running what changed.`;
    const blocks: MessageBlock[] = [
      { type: 'text', text },
      ...ids.map((callId, i) => ({
        type: 'tool-use' as const,
        callId,
        name: names[i] as string,
        argsText: args[i] as string,
      })),
    ];
    const attemptId = `a${round}`;
    log.push({ type: 'assistant/message', seq: seq++, messageId: `m${round}`, attemptId, blocks });
    ids.forEach((callId, i) => {
      log.push({
        type: 'tool/call',
        seq: seq++,
        callId,
        name: names[i] as string,
        args: args[i] as string,
      });
    });
    for (const callId of ids)
      log.push({ type: 'tool/result', seq: seq++, callId, output: `done ${callId}` });
  }
  return log;
}

const histories = new Map<number, SessionEvent[]>();
function historyOf(calls: number): SessionEvent[] {
  let log = histories.get(calls);
  if (!log) {
    log = history(calls);
    histories.set(calls, log);
  }
  return log;
}

/** Deterministic prose-like text of `length` characters. */
function prose(length: number): string {
  const words = ['alpha', 'beta', 'gamma', 'delta', 'fold', 'stream', 'tool', 'row', 'call'];
  const parts: string[] = [];
  let size = 0;
  let state = 1;
  while (size < length) {
    state = (state * 1103515245 + 12345) >>> 0;
    const word = `${words[state % words.length]}${state % 11 === 0 ? '\n' : ' '}`;
    parts.push(word);
    size += word.length;
  }
  return parts.join('').slice(0, length);
}

/** The new write: 16-character deltas of a 512 KiB prose `content`, then its `tool/call`. */
function liveWrite(seq: number): CallfoldEvent[] {
  const args = JSON.stringify({ file_path: 'src/live.ts', content: prose(512 * 1024) });
  return [
    ...writeDeltas(args, 16, 'live_write'),
    { type: 'tool/call', seq, callId: 'live_write', name: 'Write', args },
  ];
}

const nextTask = (): Promise<void> =>
  new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve();
    channel.port2.postMessage(null);
  });
const nextFrame = (): Promise<number> => new Promise((resolve) => requestAnimationFrame(resolve));
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function elements(timeline: ToolTimelineElement): { groups: number; rows: number } {
  const groups = timeline.shadowRoot?.querySelectorAll('tool-group') ?? [];
  let rows = 0;
  for (const group of groups) rows += group.shadowRoot?.querySelectorAll('tool-row').length ?? 0;
  return { groups: groups.length, rows };
}

function groupCount(conversation: Conversation): number {
  let groups = 0;
  for (const item of conversation.items) if (item.kind === 'group') groups++;
  return groups;
}

/** A new `<tool-timeline>` in the page (the only one); `fill: false` turns its idle fill off. */
async function fresh(expanded: boolean, fill = true): Promise<ToolTimelineElement> {
  for (const old of document.querySelectorAll('tool-timeline')) old.remove();
  window.scrollTo(0, 0);
  const timeline = new ToolTimelineElement({ fillWhenIdle: fill });
  timeline.expandGroups = expanded;
  document.body.append(timeline);
  await timeline.updateComplete;
  await nextFrame();
  await nextTask();
  return timeline;
}

/** Waits (polling, untimed work) until every group of `conversation` has its element. */
async function filled(
  timeline: ToolTimelineElement,
  conversation: Conversation,
  start: number,
): Promise<{ ms: number; groups: number; rows: number }> {
  const groups = groupCount(conversation);
  const deadline = start + 120_000;
  for (;;) {
    const end = performance.now();
    const shown = timeline.shadowRoot?.querySelectorAll('tool-group').length ?? 0;
    if (shown >= groups || end > deadline) return { ms: end - start, ...elements(timeline) };
    await sleep(100);
  }
}

window.timelineFirstRender = async (calls, expanded) => {
  const assembler = new Assembler();
  assembler.push(historyOf(calls));
  const conversation = assembler.publish();
  const timeline = await fresh(expanded);
  const before = { ...counts };
  const start = performance.now();
  timeline.conversation = conversation;
  await timeline.updateComplete;
  // Every Lit update of the render runs in this microtask checkpoint; then a forced layout.
  await nextTask();
  const scriptMs = lastUpdateEnd - start;
  void document.documentElement.getBoundingClientRect().height;
  void timeline.offsetHeight;
  const firstMs = performance.now() - start;
  const updates =
    counts.timeline - before.timeline + counts.group - before.group + counts.row - before.row;
  const first = elements(timeline);
  const all = await filled(timeline, conversation, start);
  return {
    calls,
    items: conversation.items.length,
    groups: groupCount(conversation),
    firstMs,
    scriptMs,
    groupElements: first.groups,
    rowElements: first.rows,
    updates,
    allMs: all.ms,
    allGroupElements: all.groups,
    allRowElements: all.rows,
  };
};

window.timelineStream = async (calls, expanded, deltasPerFrame, fill = true) => {
  const log = historyOf(calls);
  const assembler = new Assembler();
  assembler.push(log);
  const conversation = assembler.publish();
  // Without the idle fill (diagnosis: does the DOM of every rendered item cost the frames?)
  // only the first and last chunks render.
  const timeline = await fresh(expanded, fill);
  timeline.conversation = conversation;
  if (fill) await filled(timeline, conversation, performance.now());
  else await timeline.updateComplete;
  // The reader follows the live end. The garbage of building the history is collected
  // first (`--js-flags=--expose-gc`), as it would be by the time a new call streams.
  window.scrollTo(0, document.documentElement.scrollHeight);
  await nextFrame();
  await nextFrame();
  const { gc } = window as unknown as { gc?: () => void };
  gc?.();
  gc?.();
  await sleep(200);
  await nextFrame();

  const events = liveWrite((log.at(-1) as { seq: number }).seq + 1);
  // A profiler driving the page (CDP `Profiler.start`/`stop` behind `page.exposeFunction`)
  // records the streaming frames only, when it defines these hooks.
  const hooks = window as unknown as {
    profileStart?: () => Promise<void>;
    profileStop?: () => Promise<void>;
  };
  await hooks.profileStart?.();
  const frameMs: number[] = [];
  const foldMs: number[] = [];
  const timelineMs: number[] = [];
  const updates = { timeline: [] as number[], group: [] as number[], row: [] as number[] };
  let row: Element | null = null;
  let sameRow = true;
  const liveRow = (): Element | null => {
    const groups = timeline.shadowRoot?.querySelectorAll('tool-group');
    const last = groups?.[groups.length - 1];
    return last?.shadowRoot?.querySelector('tool-row') ?? null;
  };
  for (let next = 0; next < events.length; ) {
    const time = await nextFrame();
    void time;
    const before = { ...counts };
    timelineUpdateMs = 0;
    const start = performance.now();
    const batch = events.slice(next, next + deltasPerFrame);
    next += batch.length;
    assembler.push(batch);
    const published = assembler.publish();
    foldMs.push(performance.now() - start);
    if (published !== timeline.conversation) timeline.conversation = published;
    const callbackEnd = performance.now();
    await timeline.updateComplete;
    await nextTask();
    frameMs.push(Math.max(callbackEnd, lastUpdateEnd) - start);
    timelineMs.push(timelineUpdateMs);
    updates.timeline.push(counts.timeline - before.timeline);
    updates.group.push(counts.group - before.group);
    updates.row.push(counts.row - before.row);
    // Untimed: the live row keeps its element (when groups are expanded).
    if (expanded) {
      const now = liveRow();
      if (row === null) row = now;
      else if (now !== row) sameRow = false;
    }
  }
  await hooks.profileStop?.();
  const last = timeline.conversation?.tools.get('live_write');
  return {
    calls,
    deltas: events.length - 1,
    frames: frameMs.length,
    frameMs,
    foldMs,
    timelineMs,
    updates,
    sameRow,
    finalStage: last?.stage ?? 'missing',
  };
};
