// Takes docs/demo.png, the README's picture: the demo page in headless Chromium, paused
// 25 s into the recorded session (the 512 KiB write streaming, earlier calls done).
//
//   npm run screenshot [-- --until 25000 --out docs/demo.png]
//
// Starts the demo's Vite server on a free loopback port, replays at 16× up to `--until`
// recorded ms (the page's `?until=`), waits for the elements to render, and writes the PNG.
// Uses Debian's Chromium (scripts/find-chromium.mjs); it never downloads a browser.
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import puppeteer from 'puppeteer-core';
import { createServer } from 'vite';
import { chromiumArgs, chromiumPath } from './find-chromium.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const { values: options } = parseArgs({
  options: {
    until: { type: 'string', default: '25000' },
    out: { type: 'string', default: fileURLToPath(new URL('../docs/demo.png', import.meta.url)) },
  },
});

const server = await createServer({
  root: `${root}examples`,
  configFile: `${root}vite.config.ts`,
  logLevel: 'warn',
  server: { port: 0, host: '127.0.0.1' },
});
await server.listen();
const base = server.resolvedUrls?.local[0];
const browser = await puppeteer.launch({
  executablePath: chromiumPath(),
  headless: true,
  args: [...chromiumArgs],
});
try {
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 860 });
  await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'light' }]);
  await page.goto(new URL(`?speed=16&until=${options.until}`, base).href);
  await page.waitForFunction(
    (until) =>
      document.body.dataset.state === 'paused' &&
      (document.querySelector('progress')?.value ?? 0) >= until,
    { timeout: 30_000 },
    Number(options.until),
  );
  // Two frames: the last publication is rendered.
  await page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
  );
  await page.screenshot({ path: options.out });
  console.log(`${options.out}: the demo at ${options.until} ms`);
} finally {
  await browser.close();
  await server.close();
}
