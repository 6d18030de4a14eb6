import puppeteer from 'puppeteer-core';
import { createServer } from 'vite';
import { chromiumPath } from './find-chromium.mjs';
const root = new URL('..', import.meta.url).pathname;
const server = await createServer({ root: `${root}examples`, configFile: `${root}vite.config.ts`, logLevel: 'warn', server: { port: 0, host: '127.0.0.1' } });
await server.listen();
const base = server.resolvedUrls?.local[0];
const browser = await puppeteer.launch({ executablePath: chromiumPath(), headless: true, args: ['--no-sandbox', '--disable-gpu', '--no-first-run'] });
try {
  for (const width of [390, 1400]) {
    const page = await browser.newPage();
    await page.setViewport({ width, height: 900 });
    await page.goto(new URL('?speed=100', base).href);
    await page.waitForFunction(() => document.body.dataset.state === 'done', { timeout: 60000 });
    await page.evaluate(() => { document.querySelector('#live').open = true; });
    const chart = await page.$('#chart');
    await chart.screenshot({ path: `/tmp/pk/chart-${width}.png` });
    const live = await page.$('#live');
    await live.screenshot({ path: `/tmp/pk/live-${width}.png` });
    console.log(width, await page.evaluate(() => {
      const r = (el) => { const b = el.getBoundingClientRect(); return [Math.round(b.left), Math.round(b.right), Math.round(b.top), Math.round(b.bottom)]; };
      return { ticks: [...document.querySelectorAll('.axis .tick')].map((t) => [t.textContent, ...r(t)]),
        api: r(document.querySelector('#live-api')), base: r(document.querySelector('#live-base')), apiLabel: r(document.querySelector('#live-api').closest('label')), baseLabel: r(document.querySelector('#live-base').closest('label')), scroll: document.documentElement.scrollWidth };
    }));
  }
} finally { await browser.close(); await server.close(); }
