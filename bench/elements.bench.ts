/**
 * `npm run bench:elements`: `<tool-timeline>` in headless Chromium while 16 calls stream in
 * parallel (one 512 KiB write among them), `assemble()` publishing once per animation frame.
 * Reports the script time per frame (goal: p95 under 4 ms) and how many times rows of calls
 * that had finished were rendered again (goal: 0). Serves bench/elements/ with Vite's JS API
 * on loopback and drives Debian's Chromium with puppeteer-core; writes
 * bench/results/elements.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ElementsBenchResult } from './elements/page.js';
import { chromiumPage } from './support/chromium-page.js';
import { goal, goalTable } from './support/goals.js';
import { quantile } from './support/stats.js';

const repository = fileURLToPath(new URL('../../', import.meta.url));
const deltasPerFrame = Number(process.argv[2] ?? 256);
const { server, browser, address } = await chromiumPage({
  optimize: ['lit', 'lit/directives/repeat.js', 'rxjs'],
});
try {
  const page = await browser.newPage();
  page.on('pageerror', (error) => console.error('page error:', error));
  await page.goto(`http://127.0.0.1:${address.port}/index.html`, { waitUntil: 'load' });
  await page.waitForFunction(() => typeof window.runElementsBench === 'function');
  const result: ElementsBenchResult = await page.evaluate(
    (n) => window.runElementsBench(n),
    deltasPerFrame,
  );
  const sorted = [...result.frameMs].sort((a, b) => a - b);
  const median = quantile(sorted, 0.5);
  const p95 = quantile(sorted, 0.95);
  const max = sorted[sorted.length - 1] ?? Number.NaN;
  const version = await browser.version();
  const rows: [string, string][] = [
    ['browser', version],
    ['calls (rows)', String(result.rows)],
    ['big write (argument chars)', String(result.bigWriteBytes)],
    ['deltas (+16 tool/call)', String(result.deltas - 16)],
    ['deltas per frame', String(result.deltasPerFrame)],
    ['frames measured', String(result.frames)],
    ['script ms per frame, median', median.toFixed(2)],
    ['script ms per frame, p95', p95.toFixed(2)],
    ['script ms per frame, max', max.toFixed(2)],
    ['script ms, total', result.totalMs.toFixed(0)],
    ['row renders, all', String(result.rowRenders)],
    ['row renders of finished calls', String(result.unchangedRowRenders)],
  ];
  const width = Math.max(...rows.map(([name]) => name.length));
  for (const [name, value] of rows) console.log(`${name.padEnd(width)}  ${value}`);
  const goals = [
    goal('script ms per frame, p95', p95, { op: '<', bound: 4, unit: ' ms' }),
    goal('re-renders of rows whose calls had finished', result.unchangedRowRenders, {
      op: '≤',
      bound: 0,
      digits: 0,
    }),
  ];
  const [p95Met, unchangedMet] = goals.map((g) => g.met);
  console.log(`\n## Goals\n${goalTable(goals, 'text')}`);
  mkdirSync(`${repository}bench/results`, { recursive: true });
  writeFileSync(
    `${repository}bench/results/elements.json`,
    `${JSON.stringify(
      {
        date: new Date().toISOString(),
        browser: version,
        median,
        p95,
        max,
        p95Met,
        unchangedMet,
        goals,
        ...result,
      },
      null,
      2,
    )}\n`,
  );
} finally {
  await browser.close();
  await server.close();
}
