/**
 * The demo pages' layout, measured in Chromium (test/examples/demo.node.test.ts): at a phone
 * width (390 px) and a desktop width (1400 px) no two axis labels of the stage chart overlap,
 * no call's label crosses its track, no two controls of the Live form overlap, and nothing
 * scrolls sideways. Screenshots go to .build/screenshots/demo/ for a person to look at.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import type { Page } from 'puppeteer-core';
import { repositoryRoot } from '../../support/repository.js';

/** Where the screenshots go. */
const shots = join(repositoryRoot(), '.build/screenshots/demo');

/** Writes a screenshot of `page` to .build/screenshots/demo/`name`.png. */
export async function screenshot(page: Page, name: string, fullPage = false): Promise<void> {
  mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: join(shots, `${name}.png`), fullPage });
}

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

/** Boxes of the elements `selector` matches, in the page, named by id, class or text. */
function boxesOf(page: Page, selector: string): Promise<Box[]> {
  return page.$$eval(selector, (elements) =>
    elements.map((el, i) => {
      const b = el.getBoundingClientRect();
      const name = `${el.id || el.className || el.localName}:${el.textContent?.trim() || i}`;
      return { name, left: b.left, right: b.right, top: b.top, bottom: b.bottom };
    }),
  );
}

/** Gives a page about to open the width it is measured at, in the light scheme. */
export async function atWidth(page: Page, width: number): Promise<void> {
  await page.setViewport({ width, height: 900 });
  await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'light' }]);
}

/**
 * Checks the layout of the demo's main page, its replay ended, at `width` (set by `atWidth`
 * before it opened), with the Live form open. Failed before: at 390 px "0 s" to "50 s" sat
 * within 75 px; at 1400 px the API select ran under Base URL.
 */
export async function expectLaidOut(page: Page, width: number): Promise<void> {
  await page.evaluate(() => {
    (document.querySelector('#live') as HTMLDetailsElement).open = true;
  });
  await screenshot(page, `index-${width}`, true);

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

  const fields = await boxesOf(page, '#live-form select, #live-form input, #live-form textarea');
  expect(fields).to.have.length(5);
  expect(overlaps(fields), 'Live form fields').to.deep.equal([]);
  const form = (await boxesOf(page, '#live-form'))[0] as Box;
  for (const field of fields) expect(field.right, field.name).to.be.at.most(form.right + 0.5);

  const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(scroll, 'page width').to.be.at.most(width);
}
