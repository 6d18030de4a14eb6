/**
 * `npm run bench:timeline`: `<tool-timeline>` in a long session (issue 15, goal 4), in headless
 * Chromium. A Conversation of 500 and of 10,000 settled calls (groups of 1–6, assistant text
 * between), groups collapsed (the default) and expanded (`expand-groups`):
 *
 * - first render: from setting `conversation` to a forced layout after every Lit update it
 *   caused (goal: 10,000 calls ≤ 3× 500 calls); and, for information, the time until every
 *   group has its element (idle fill);
 * - a new 512 KiB write streaming below the history, 256 deltas and one publication per
 *   animation frame: script time per frame, p50 and p95 (goal: p95 at 10,000 calls ≤ 1.5× that
 *   at 500, and < 4 ms), and the Lit updates per frame.
 *
 * Sizes alternate within each repetition so a burst of load spreads over both. Serves
 * bench/elements/ with Vite's JS API on loopback, drives Debian's Chromium with
 * puppeteer-core, writes bench/results/timeline.json.
 *
 * Options: `--reps N` (first renders per size and mode, default 3), `--stream-reps N` (streams
 * per size and mode, default 2, frames pooled), `--deltas N` (per frame, default 256),
 * `--sizes 500,10000`, `--modes collapsed,expanded`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { FirstRenderResult, StreamResult } from './elements/timeline-page.js';
import { chromiumPage } from './support/chromium-page.js';
import { type Goal, goal, goalTable } from './support/goals.js';
import { quantile } from './support/stats.js';
import { markdownTable, textTable } from './support/table.js';

const repository = fileURLToPath(new URL('../../', import.meta.url));
const { values } = parseArgs({
  options: {
    reps: { type: 'string', default: '3' },
    'stream-reps': { type: 'string', default: '2' },
    deltas: { type: 'string', default: '256' },
    sizes: { type: 'string', default: '500,10000' },
    modes: { type: 'string', default: 'collapsed,expanded' },
    'no-fill': { type: 'boolean', default: false },
  },
});
const reps = Number(values.reps);
const streamReps = Number(values['stream-reps']);
const deltasPerFrame = Number(values.deltas);
const sizes = values.sizes.split(',').map(Number);
const modes = values.modes.split(',') as ('collapsed' | 'expanded')[];
const [small, large] = [sizes[0] ?? 500, sizes[sizes.length - 1] ?? 10_000];

const { server, browser, address } = await chromiumPage({
  // Lit's production build, as an application bundle ships it (the dev server would pick its
  // development build, which checks and warns on every update).
  vite: {
    resolve: { conditions: ['module', 'browser', 'production'] },
    cacheDir: `${repository}node_modules/.vite-bench-timeline`,
  },
  optimize: [
    'lit',
    'lit/directives/guard.js',
    'lit/directives/repeat.js',
    'lit/directives/style-map.js',
  ],
  launch: { protocolTimeout: 900_000, defaultViewport: { width: 1000, height: 800 } },
  args: ['--js-flags=--expose-gc'],
});

const median = (values: readonly number[]): number =>
  quantile(
    [...values].sort((a, b) => a - b),
    0.5,
  );
const p95 = (values: readonly number[]): number =>
  quantile(
    [...values].sort((a, b) => a - b),
    0.95,
  );
const ms = (value: number): string => value.toFixed(2);

interface ModeResult {
  readonly mode: string;
  readonly first: Map<number, FirstRenderResult[]>;
  readonly stream: Map<number, StreamResult[]>;
}

const results: ModeResult[] = [];
try {
  const page = await browser.newPage();
  page.on('pageerror', (error) => console.error('page error:', error));
  await page.goto(`http://127.0.0.1:${address.port}/timeline.html`, { waitUntil: 'load' });
  await page.waitForFunction(() => typeof window.timelineStream === 'function');
  for (const mode of modes) {
    const expanded = mode === 'expanded';
    const first = new Map<number, FirstRenderResult[]>(sizes.map((size) => [size, []]));
    const stream = new Map<number, StreamResult[]>(sizes.map((size) => [size, []]));
    // Warm-up, untimed: the JIT and Lit's template cache see every path once.
    await page.evaluate((n, open) => window.timelineFirstRender(n, open), small, expanded);
    for (let rep = 0; rep < reps; rep++) {
      for (const calls of sizes) {
        const result = await page.evaluate(
          (n, open) => window.timelineFirstRender(n, open),
          calls,
          expanded,
        );
        first.get(calls)?.push(result);
        console.error(
          `${mode} first render ${calls} calls: ${ms(result.firstMs)} ms (all items ${ms(result.allMs)} ms)`,
        );
      }
    }
    for (let rep = 0; rep < streamReps; rep++) {
      for (const calls of sizes) {
        const result = await page.evaluate(
          (n, open, d, fill) => window.timelineStream(n, open, d, fill),
          calls,
          expanded,
          deltasPerFrame,
          !values['no-fill'],
        );
        if (result.finalStage !== 'start') throw new Error(`live write ended ${result.finalStage}`);
        if (!result.sameRow) throw new Error('the live row changed its element while streaming');
        stream.get(calls)?.push(result);
        console.error(
          `${mode} stream ${calls} calls: p50 ${ms(median(result.frameMs))} ms, p95 ${ms(p95(result.frameMs))} ms over ${result.frames} frames`,
        );
      }
    }
    results.push({ mode, first, stream });
  }

  const version = await browser.version();
  const columns = [
    { title: 'groups' },
    { title: 'calls', align: 'right' as const },
    { title: 'items', align: 'right' as const },
    { title: 'first render ms (median)', align: 'right' as const },
    { title: 'of which script ms', align: 'right' as const },
    { title: 'groups / rows rendered', align: 'right' as const },
    { title: 'Lit updates', align: 'right' as const },
    { title: 'all items ms', align: 'right' as const },
    { title: 'frames', align: 'right' as const },
    { title: 'frame script ms p50', align: 'right' as const },
    { title: 'p95', align: 'right' as const },
    { title: 'max', align: 'right' as const },
    { title: 'fold ms p50 / p95', align: 'right' as const },
    { title: 'timeline update ms p50 / p95', align: 'right' as const },
    { title: 'updates/frame t/g/r (median)', align: 'right' as const },
  ];
  const rows: string[][] = [];
  const goals: Goal[] = [];
  const summary: Record<string, unknown>[] = [];
  for (const { mode, first, stream } of results) {
    const figures = new Map<number, { first: number; p95: number }>();
    for (const calls of sizes) {
      const renders = first.get(calls) ?? [];
      const streams = stream.get(calls) ?? [];
      const frames = streams.flatMap((s) => s.frameMs);
      const firstMedian = median(renders.map((r) => r.firstMs));
      const frameP95 = p95(frames);
      figures.set(calls, { first: firstMedian, p95: frameP95 });
      const one = renders[0];
      const pooled = (key: 'timeline' | 'group' | 'row') =>
        median(streams.flatMap((s) => s.updates[key])).toFixed(0);
      rows.push([
        mode,
        String(calls),
        String(one?.items ?? 0),
        ms(firstMedian),
        ms(median(renders.map((r) => r.scriptMs))),
        `${one?.groupElements ?? 0} / ${one?.rowElements ?? 0}`,
        String(one?.updates ?? 0),
        ms(median(renders.map((r) => r.allMs))),
        String(frames.length),
        ms(median(frames)),
        ms(frameP95),
        ms(Math.max(...frames)),
        `${ms(median(streams.flatMap((s) => s.foldMs)))} / ${ms(p95(streams.flatMap((s) => s.foldMs)))}`,
        `${ms(median(streams.flatMap((s) => s.timelineMs)))} / ${ms(p95(streams.flatMap((s) => s.timelineMs)))}`,
        `${pooled('timeline')}/${pooled('group')}/${pooled('row')}`,
      ]);
      summary.push({
        mode,
        calls,
        firstMs: renders.map((r) => r.firstMs),
        allMs: renders.map((r) => r.allMs),
        first: renders,
        frameMs: frames,
        updates: streams.map((s) => s.updates),
      });
    }
    const a = figures.get(small);
    const b = figures.get(large);
    if (a && b) {
      goals.push(
        goal(`${mode}: first render, ${large} calls / ${small}`, b.first / a.first, {
          op: '≤',
          bound: 3,
          unit: '×',
        }),
        goal(`${mode}: frame script p95, ${large} calls / ${small}`, b.p95 / a.p95, {
          op: '≤',
          bound: 1.5,
          unit: '×',
        }),
        goal(`${mode}: frame script p95, ${large} calls`, b.p95, {
          op: '<',
          bound: 4,
          unit: ' ms',
        }),
      );
    }
  }
  console.log(
    `${version}; ${deltasPerFrame} deltas per frame; ${reps} first renders and ${streamReps} streams per row\n`,
  );
  console.log(textTable(columns, rows));
  console.log(`\n${goalTable(goals, 'text')}\n`);
  console.log(markdownTable(columns, rows));
  console.log(`\n${goalTable(goals, 'markdown')}`);
  mkdirSync(`${repository}bench/results`, { recursive: true });
  writeFileSync(
    `${repository}bench/results/timeline.json`,
    `${JSON.stringify({ date: new Date().toISOString(), browser: version, deltasPerFrame, goals, summary }, null, 2)}\n`,
  );
} finally {
  await browser.close();
  await server.close();
}
