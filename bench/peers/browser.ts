/**
 * `npm run bench:peers -- --browser`: the same UI message stream, served by one loopback
 * server (groups of 64 chunks, one every 8 ms), played in headless Chromium by three pages
 * (bench/elements/, served by Vite): React 19 with the AI SDK's `useChat`, and
 * `<tool-timeline>` with `fromAISDKUIStream`, on a cold page and on one that called
 * `ToolTimelineElement.prepare()` when it loaded. Per page and size: main-thread script time
 * (CDP `ScriptDuration`), long tasks (> 50 ms) and their total, first byte to the tool's name
 * in the DOM, frame intervals while streaming. Pages alternate run by run. `BENCH_BROWSER_KIB`
 * (16,64) and `BENCH_ROUNDS` (3) set the sizes and rounds.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { PeersPageResult } from '../elements/peers-probe.js';
import { chromiumPage } from '../support/chromium-page.js';
import { type Goal, goal, goalTable } from '../support/goals.js';
import { median, quantile } from '../support/stats.js';
import { markdownTable, textTable } from '../support/table.js';
import { grouped, uiMessageChunks, uiMessageSSE, writeScenario } from './streams.js';

const repository = fileURLToPath(new URL('../../../', import.meta.url));
/** The pages: `prepared` is the timeline page with `ToolTimelineElement.prepare()` at load. */
const PAGES = ['usechat', 'timeline', 'prepared'] as const;
const PAGE_PATHS: Record<(typeof PAGES)[number], string> = {
  usechat: 'peers-usechat.html',
  timeline: 'peers-timeline.html',
  prepared: 'peers-timeline.html?prepare',
};
const PAGE_TITLES: Record<(typeof PAGES)[number], string> = {
  usechat: 'React 19 + useChat',
  timeline: '<tool-timeline>',
  prepared: '<tool-timeline>, prepare()',
};
const SPACING_MS = 8;

/** Serves `/write-<kib>` as the UI message stream of that write, paced, to any origin. */
async function streamServer(): Promise<{ server: Server; origin: string }> {
  const bodies = new Map<string, string[]>();
  const server = createServer((request, response) => {
    response.setHeader('access-control-allow-origin', '*');
    response.setHeader('access-control-allow-headers', '*');
    // Without it, Resource Timing hides a cross-origin response's `responseStart` (0).
    response.setHeader('timing-allow-origin', '*');
    if (request.method === 'OPTIONS') return void response.end();
    request.resume();
    const kib = Number(request.url?.slice('/write-'.length));
    let body = bodies.get(String(kib));
    if (body === undefined) {
      body = grouped(uiMessageSSE(uiMessageChunks(writeScenario(kib)))).map((g) => g.join(''));
      bodies.set(String(kib), body);
    }
    response.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      'x-vercel-ai-ui-message-stream': 'v1',
    });
    const groups = body;
    let next = 0;
    const write = () => {
      const group = groups[next++];
      if (group === undefined) return void response.end();
      response.write(group);
      setTimeout(write, SPACING_MS);
    };
    write();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** Whether a long task ran the page's first render of a publication holding an item. */
function holdsRender(
  task: PeersPageResult['longTasks'][number],
  run: Pick<PeersPageResult, 'firstByteToRenderMs'>,
): boolean {
  const at = run.firstByteToRenderMs;
  return task.startMs <= at && at <= task.startMs + task.durationMs;
}

interface Run extends PeersPageResult {
  readonly scriptMs: number;
}

export async function runBrowser(): Promise<void> {
  const sizes = (process.env.BENCH_BROWSER_KIB ?? '16,64').split(',').map(Number);
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
  const { server: streams, origin } = await streamServer();
  const { server, browser, address } = await chromiumPage({
    // Production builds of React and Lit, as an application ships them ('production' mode
    // makes Vite's pre-bundling define NODE_ENV so; the condition picks Lit's).
    vite: {
      mode: 'production',
      resolve: { conditions: ['module', 'browser', 'production'] },
      cacheDir: `${repository}node_modules/.vite-bench-peers`,
    },
    optimize: ['lit', 'react', 'react-dom/client', '@ai-sdk/react', 'ai', 'rxjs'],
    launch: { protocolTimeout: 600_000, defaultViewport: { width: 1000, height: 800 } },
  });
  const runs = new Map<string, Run[]>();
  try {
    for (let round = -1; round < rounds; round++) {
      for (const kib of sizes) {
        for (const name of round % 2 === 0 ? PAGES : [...PAGES].reverse()) {
          const page = await browser.newPage();
          page.on('pageerror', (error) => console.error(`${name} page error:`, error));
          await page.goto(`http://127.0.0.1:${address.port}/${PAGE_PATHS[name]}`);
          await page.waitForFunction(() => typeof window.peersRun === 'function');
          const before = await page.metrics();
          const url = `${origin}/write-${kib}`;
          const raw = await page.evaluate((u) => window.peersRun(u), url);
          // NaN comes back from the page as null.
          const result = {
            ...raw,
            firstByteToRenderMs: raw.firstByteToRenderMs ?? Number.NaN,
            firstByteToNameMs: raw.firstByteToNameMs ?? Number.NaN,
            framesToName: raw.framesToName ?? Number.NaN,
          };
          const after = await page.metrics();
          await page.close();
          const scriptMs = ((after.ScriptDuration ?? 0) - (before.ScriptDuration ?? 0)) * 1000;
          const path = writeScenario(1).calls[0]?.path ?? '';
          const wanted = name === 'usechat' ? [path, `${kib} KiB`] : [path];
          if (!wanted.every((text) => result.shown.includes(text))) {
            throw new Error(`${name} at ${kib} KiB ended showing "${result.shown.slice(0, 200)}"`);
          }
          console.error(
            `  ${round < 0 ? 'warm-up' : `${round + 1}/${rounds}`} · ${kib} KiB · ${name}: ` +
              `script ${scriptMs.toFixed(0)} ms, ${result.longTasks.length} long tasks` +
              (result.longTasks.length > 0
                ? ` (from the first byte, start + duration: ${result.longTasks.map((t) => `${t.startMs.toFixed(0)} + ${t.durationMs.toFixed(0)} ms${holdsRender(t, result) ? ', the first render' : ''}`).join('; ')})`
                : '') +
              `; first byte → render ${result.firstByteToRenderMs.toFixed(1)} ms, → name ${result.firstByteToNameMs.toFixed(1)} ms, in frame ${result.framesToName} after it`,
          );
          if (round < 0) continue;
          const key = `${kib}:${name}`;
          runs.set(key, [...(runs.get(key) ?? []), { ...result, scriptMs }]);
        }
      }
    }
    const version = await browser.version();
    const columns = [
      { title: 'page' },
      { title: 'write', align: 'right' as const },
      { title: 'script ms (median)', align: 'right' as const },
      { title: 'long tasks (median)', align: 'right' as const },
      { title: 'their total ms (median)', align: 'right' as const },
      { title: 'runs with a long task holding the first render', align: 'right' as const },
      { title: 'first byte → first render ms (median)', align: 'right' as const },
      { title: 'first byte → name ms (median)', align: 'right' as const },
      { title: 'frames to the name (most in a run)', align: 'right' as const },
      { title: 'frame interval ms p50 / p95 / max', align: 'right' as const },
    ];
    const rows: string[][] = [];
    const goals: Goal[] = [];
    for (const kib of sizes) {
      for (const name of PAGES) {
        const all = runs.get(`${kib}:${name}`) ?? [];
        const frames = [...all.flatMap((r) => r.frameMs)].sort((a, b) => a - b);
        const longTotal = all.map((r) => r.longTasks.reduce((sum, t) => sum + t.durationMs, 0));
        const firstRender = all.filter((r) => r.longTasks.some((t) => holdsRender(t, r))).length;
        const nameMs = median(all.map((r) => r.firstByteToNameMs));
        rows.push([
          PAGE_TITLES[name],
          `${kib} KiB`,
          median(all.map((r) => r.scriptMs)).toFixed(0),
          median(all.map((r) => r.longTasks.length)).toFixed(0),
          median(longTotal).toFixed(0),
          name === 'usechat' ? '–' : `${firstRender} of ${all.length}`,
          name === 'usechat' ? '–' : median(all.map((r) => r.firstByteToRenderMs)).toFixed(1),
          nameMs.toFixed(1),
          Math.max(...all.map((r) => r.framesToName)).toFixed(0),
          `${quantile(frames, 0.5).toFixed(1)} / ${quantile(frames, 0.95).toFixed(1)} / ${(frames[frames.length - 1] ?? Number.NaN).toFixed(0)}`,
        ]);
        if (name === 'timeline') {
          const most = Math.max(...all.map((r) => r.longTasks.length));
          goals.push(
            goal(`${kib} KiB, <tool-timeline>: long tasks while streaming (most in a run)`, most, {
              op: '≤',
              bound: 0,
              digits: 0,
            }),
          );
        }
        if (name === 'prepared') {
          // The page as the element's documentation advises it: prepare() once it has loaded.
          // The cold page's frames are in the table, beside it.
          goals.push(
            goal(
              `${kib} KiB, <tool-timeline>, prepare() at load: the name in the first frame after its first byte (most frames in a run)`,
              Math.max(...all.map((r) => r.framesToName)),
              { op: '≤', bound: 1, digits: 0 },
            ),
          );
        }
      }
    }
    console.log(
      `bench:peers --browser — ${version}; UI message stream in groups of 64 chunks every ` +
        `${SPACING_MS} ms from a loopback server; ${rounds} runs per page after a warm-up, pages alternated\n`,
    );
    console.log(textTable(columns, rows));
    console.log(`\n${goalTable(goals, 'text')}`);
    console.log(`\n## Markdown (README)\n\n${markdownTable(columns, rows)}`);
  } finally {
    await browser.close();
    await server.close();
    streams.closeAllConnections();
    streams.close();
  }
}
