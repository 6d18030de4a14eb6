import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { repositoryRoot } from '../../support/repository.js';

/**
 * Debian's Chromium, the tests' headless shell, started with the flags of every test and
 * script (scripts/find-chromium.mjs, `testChromiumPath`), and its page opener: each page in a window of its own
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
    testChromiumPath: () => string;
    headlessFor: (path: string) => true | 'shell';
    chromiumArgs: readonly string[];
    focusedPage: (browser: Browser) => Promise<Page>;
  };
  const executablePath = found.testChromiumPath();
  const browser = await puppeteer.launch({
    executablePath,
    headless: found.headlessFor(executablePath),
    args: [...found.chromiumArgs],
  });
  return { browser, newPage: () => found.focusedPage(browser) };
}
