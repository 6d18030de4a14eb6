import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import puppeteer, { type Browser, type LaunchOptions, type Page } from 'puppeteer-core';
import { repositoryRoot } from '../../support/repository.js';

/**
 * Debian's Chromium, the tests' headless shell, started with the flags of every test and
 * script (scripts/find-chromium.mjs, `testChromiumLaunch`), and its page opener: each page in
 * a window of its own (`focusedPage`), since a tab sharing a window with a newer one is hidden, its timers
 * throttled and its animation frames stopped.
 */
export async function launchChromium(): Promise<{
  browser: Browser;
  newPage: () => Promise<Page>;
}> {
  const found = (await import(
    pathToFileURL(join(repositoryRoot(), 'scripts/find-chromium.mjs')).href
  )) as {
    testChromiumLaunch: () => LaunchOptions;
    focusedPage: (browser: Browser) => Promise<Page>;
  };
  const browser = await puppeteer.launch(found.testChromiumLaunch());
  return { browser, newPage: () => found.focusedPage(browser) };
}
