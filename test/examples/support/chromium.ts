import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { repositoryRoot } from '../../support/repository.js';

/**
 * Debian's Chromium, started with the flags of every test and script
 * (scripts/find-chromium.mjs), and its page opener: each page in a window of its own
 * (`focusedPage`), since a tab sharing a window with a newer one is hidden, its timers
 * throttled and its animation frames stopped.
 */
export async function launchChromium(): Promise<{
  browser: Browser;
  newPage: () => Promise<Page>;
}> {
  const found = (await import(
    pathToFileURL(join(repositoryRoot(), 'scripts/find-chromium.mjs')).href
  )) as {
    chromiumPath: () => string;
    chromiumArgs: readonly string[];
    focusedPage: (browser: Browser) => Promise<Page>;
  };
  const browser = await puppeteer.launch({
    executablePath: found.chromiumPath(),
    headless: true,
    args: [...found.chromiumArgs],
  });
  return { browser, newPage: () => found.focusedPage(browser) };
}
