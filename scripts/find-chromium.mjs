// Finds Debian's Chromium for browser tests: CHROME_PATH, else /usr/bin/chromium. As root on
// Debian it installs the `chromium` package when neither exists (scripts/debian-package.mjs:
// one install at a time, however many test processes ask); elsewhere it stops with one line
// saying what to install. It never downloads a browser build.
import { findOrInstall } from './debian-package.mjs';

/**
 * The flags every headless Chromium of the tests, benchmarks and scripts starts with: no
 * sandbox (containers run as root), no GPU, shared memory in /tmp (a container's /dev/shm is
 * small), and none of the browser's own network traffic or first-run work, which would add
 * requests and CPU that no test asked for.
 *
 * Nor the address bar's popup. Chromium 156 builds it as a web page of its own (WebUI, in a
 * renderer of its own) for every window, two documents of some 200 scripts, and keeps that
 * renderer busy while the window sits idle: three idle windows (`focusedPage`) cost 1.9 CPU-s
 * per 10 s, 0.04 without it (measured 2026-12-07). A headless window never shows it. Puppeteer
 * adds these features to the ones it disables itself.
 */
export const chromiumArgs = Object.freeze([
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup',
]);

/**
 * A page in a window of its own that is told it has focus. With several pages open at once, a
 * page that is not the focused tab of its window runs no requestAnimationFrame and takes no
 * keyboard focus, and a test waiting on either would wait forever.
 *
 * The windows share the browser's default context, and with it the HTTP cache: a page loaded
 * again (the demo's tests load it twelve times, web-test-runner a page per test file) takes
 * its modules from the cache instead of the server. Measured on the demo page, quiet: a load
 * cost 3.1 CPU-s in a context of its own and 1.5 CPU-s in the shared one. They also share
 * storage and cookies: a test that needs a clean origin makes its own context.
 * @param {import('puppeteer-core').Browser} browser
 */
export async function focusedPage(browser) {
  const page = await browser.newPage({ type: 'window' });
  const session = await page.createCDPSession();
  await session.send('Emulation.setFocusEmulationEnabled', { enabled: true });
  return page;
}

const candidates = () => [
  process.env.CHROME_PATH,
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
];

export function chromiumPath() {
  const found = findOrInstall('chromium', candidates);
  if (found) return found;
  console.error(
    'callfold: browser tests need Chromium: install Debian package `chromium` or set CHROME_PATH',
  );
  process.exit(1);
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(chromiumPath());
