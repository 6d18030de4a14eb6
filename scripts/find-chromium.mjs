// Finds Debian's Chromium for browser tests, benchmarks and scripts; no browser build is ever
// downloaded.
// - `testChromiumPath()`, the tests' browser (`testChromiumLaunch()`: its launch options):
//   CHROME_PATH when set, else Debian's headless shell (`/usr/bin/chromium-headless-shell`,
//   package `chromium-headless-shell`), else the full Chromium below.
// - `chromiumPath()`, the browser users have (the framework apps' check, the benchmarks, the
//   README's screenshots): CHROME_PATH, else `/usr/bin/chromium` (package `chromium`).
// As root on Debian each installs its package when missing (scripts/debian-package.mjs: one
// install at a time, however many test processes ask); elsewhere `chromiumPath()` stops with
// one line saying what to install.
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

/**
 * The full Chromium, the browser users have.
 * @returns {string}
 */
export function chromiumPath() {
  const found = findOrInstall('chromium', candidates);
  if (found) return found;
  console.error(
    'callfold: browser tests need Chromium: install Debian package `chromium` or set CHROME_PATH',
  );
  process.exit(1);
}

/**
 * The browser the tests run in: Debian's headless shell, Chromium's old headless mode as a
 * program of its own (package `chromium-headless-shell`, built from the same sources and
 * version as `chromium`: the same Blink, V8 and Skia) without the browser around the page
 * (no windows' toolbars, no address bar, no profile services). Measured on the 2-core machine,
 * quiet (2026-12-07), against the full Chromium: the Chromium layer 132–173 → 96 CPU-s (the
 * same 1,125 tests, the screenshots within their baselines), the site's check 56 → 35, the
 * demo's tests 60–70 → 53. CHROME_PATH, when set, is used instead (the full Chromium
 * included); where the shell is neither installed nor installable, the full Chromium.
 * @returns {string}
 */
export function testChromiumPath() {
  return (
    findOrInstall('chromium-headless-shell', () => [
      process.env.CHROME_PATH,
      '/usr/bin/chromium-headless-shell',
    ]) ?? chromiumPath()
  );
}

/**
 * Puppeteer's launch options for the tests' browser (`testChromiumPath`) with the flags of
 * every launch: a headless shell is started as one (`headless: 'shell'`), the full Chromium
 * in its new headless mode. `extraArgs` follow `chromiumArgs`.
 * @param {readonly string[]} [extraArgs]
 * @returns {{ executablePath: string, headless: true | 'shell', args: string[] }}
 */
export function testChromiumLaunch(extraArgs = []) {
  const executablePath = testChromiumPath();
  return {
    executablePath,
    headless: /headless[-_]shell$/.test(executablePath) ? 'shell' : true,
    args: [...chromiumArgs, ...extraArgs],
  };
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(chromiumPath());
