/**
 * The demo pages' layout at a phone width (390 px) and a desktop width (1400 px), measured
 * in Chromium: no two axis labels of the stage chart overlap, no two controls of the Live
 * form overlap, nothing scrolls sideways; and `write.html?speed=` is honoured, or reported
 * visibly when it is not a speed. Screenshots of each width go to .build/screenshots/demo/
 * for a person to look at. Node only (Vite and Chromium).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { expect } from 'chai';
import type { Browser, Page } from 'puppeteer-core';
import { createServer, type ViteDevServer } from 'vite';
import { repositoryRoot } from '../support/repository.js';
import { launchChromium } from './support/chromium.js';
import { openPage, playToEnd, watchLoading } from './support/demo-approval.js';

const root = repositoryRoot();
const shots = join(root, '.build/screenshots/demo');

interface Box {
  readonly name: string;
  readonly left: number;
  readonly right: number;
  readonly top: number;
  readonly bottom: number;
}

/** The pairs of boxes that overlap by more than half a pixel each way. */
function overlaps(boxes: readonly Box[]): string[] {
  const found: string[] = [];
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i] as Box;
      const b = boxes[j] as Box;
      const x = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const y = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (x > 0.5 && y > 0.5) found.push(`${a.name} × ${b.name}`);
    }
  }
  return found;
}

/** Boxes of the elements `selector` matches, in the page, named by `name(el, i)`. */
function boxesOf(page: Page, selector: string): Promise<Box[]> {
  return page.$$eval(selector, (elements) =>
    elements.map((el, i) => {
      const b = el.getBoundingClientRect();
      const name = `${el.id || el.className || el.localName}:${el.textContent?.trim() || i}`;
      return { name, left: b.left, right: b.right, top: b.top, bottom: b.bottom };
    }),
  );
}

const skip = 'Deno' in globalThis ? 'starts Vite and Chromium (Node only)' : false;

describe('the demo layout at 390 px and 1400 px', { skip, timeout: 180_000 }, () => {
  let server: ViteDevServer | undefined;
  let browser: Browser | undefined;
  let base = '';
  let newPage: () => Promise<Page>;
  let cacheDir: string | undefined;

  before(async () => {
    // A dependency cache of its own: the demo's test (demo.node.test.ts) runs `vite` at the same
    // time, and two servers optimizing into one node_modules/.vite replace each other's files
    // under the modules they already handed out (a page of the other then fails to load).
    cacheDir = mkdtempSync(join(tmpdir(), 'callfold-vite-'));
    server = await createServer({
      root: join(root, 'examples'),
      configFile: join(root, 'vite.config.ts'),
      cacheDir,
      logLevel: 'warn',
      server: { port: 0, host: '127.0.0.1' },
    });
    await server.listen();
    base = server.resolvedUrls?.local[0] ?? '';
    ({ browser, newPage } = await launchChromium());
    mkdirSync(shots, { recursive: true });
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    if (cacheDir) rmSync(cacheDir, { recursive: true, force: true });
  });

  async function open(path: string, width: number): Promise<{ page: Page; errors: string[] }> {
    const page = await newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(String(error)));
    watchLoading(page);
    await page.setViewport({ width, height: 900 });
    await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'light' }]);
    await openPage(page, new URL(path, base).href);
    return { page, errors };
  }

  for (const width of [390, 1400]) {
    // Failed before: at 390 px "0 s" to "50 s" sat within 75 px; at 1400 px the API select ran under Base URL.
    it(`at ${width} px: the chart's axis labels and the Live form's fields do not overlap, nothing scrolls sideways`, async () => {
      const { page, errors } = await open('/?speed=100', width);
      // The session's approval waits for the viewer: approve it, as a viewer would.
      await playToEnd(page);
      await page.evaluate(() => {
        (document.querySelector('#live') as HTMLDetailsElement).open = true;
      });
      await page.screenshot({ path: join(shots, `index-${width}.png`), fullPage: true });

      const ticks = await boxesOf(page, '#chart .axis .tick');
      expect(ticks.map((tick) => tick.name.split(':')[1])).to.include.members(['0 s', '50 s']);
      expect(overlaps(ticks), 'axis labels').to.deep.equal([]);
      const chart = (await boxesOf(page, '#chart'))[0] as Box;
      for (const tick of ticks) {
        expect(tick.left, tick.name).to.be.at.least(chart.left - 0.5);
        expect(tick.right, tick.name).to.be.at.most(chart.right + 0.5);
      }
      // Each call's label beside (or above) its track, never across it.
      const rows = await page.$$eval('#chart .call', (calls) =>
        calls.map((call) => {
          const box = (selector: string) => {
            const b = (call.querySelector(selector) as Element).getBoundingClientRect();
            return { name: selector, left: b.left, right: b.right, top: b.top, bottom: b.bottom };
          };
          return [box('.label'), box('.track'), box('.gain')];
        }),
      );
      expect(rows.length).to.be.above(5);
      for (const row of rows) expect(overlaps(row), 'a call row').to.deep.equal([]);

      const fields = await boxesOf(
        page,
        '#live-form select, #live-form input, #live-form textarea',
      );
      expect(fields).to.have.length(5);
      expect(overlaps(fields), 'Live form fields').to.deep.equal([]);
      const form = (await boxesOf(page, '#live-form'))[0] as Box;
      for (const field of fields) expect(field.right, field.name).to.be.at.most(form.right + 0.5);

      const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(scroll, 'page width').to.be.at.most(width);
      await page.close();
      expect(errors).to.deep.equal([]);
    });
  }

  // Failed before: only 1, 4 and 16 were taken, others silently ignored.
  it('write.html?speed=100 replays at 100×', async () => {
    const { page, errors } = await open('/write.html?speed=100', 1400);
    await page.waitForSelector('#stage[data-stage="result"]', { timeout: 30_000 });
    const state = await page.evaluate(() => ({
      checked: document.querySelector<HTMLInputElement>('input[name="speed"]:checked')?.value,
      label: document
        .querySelector<HTMLInputElement>('input[name="speed"]:checked')
        ?.closest('label')
        ?.textContent?.trim(),
      speed: document.body.dataset.speed,
      notice: document.querySelector<HTMLElement>('#speed-error')?.hidden,
    }));
    await page.screenshot({ path: join(shots, 'write-speed-100.png') });
    await page.close();
    expect(state).to.deep.equal({ checked: '100', label: '100×', speed: '100', notice: true });
    expect(errors).to.deep.equal([]);
  });

  for (const bad of ['fast', '0', '-4', '1e9']) {
    it(`write.html?speed=${bad} says visibly that it is not a speed, and plays at 1×`, async () => {
      const { page, errors } = await open(`/write.html?speed=${bad}`, 390);
      const state = await page.evaluate(() => {
        const notice = document.querySelector<HTMLElement>('#speed-error');
        return {
          checked: document.querySelector<HTMLInputElement>('input[name="speed"]:checked')?.value,
          speed: document.body.dataset.speed,
          shown: notice !== null && !notice.hidden && notice.getBoundingClientRect().height > 0,
          role: notice?.getAttribute('role'),
          text: notice?.textContent ?? '',
        };
      });
      if (bad === 'fast') await page.screenshot({ path: join(shots, 'write-speed-bad-390.png') });
      await page.close();
      expect(state).to.include({ checked: '1', speed: '1', shown: true, role: 'alert' });
      expect(state.text).to.include(`speed=${bad}`);
      expect(errors).to.deep.equal([]);
    });
  }
});
