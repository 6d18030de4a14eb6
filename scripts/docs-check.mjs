// Checks the built documentation site (docs/.vitepress/dist, from `npm run docs`):
//   - every internal link of every page leads to a file of the site, and its #anchor to an
//     element id of that page; every link to a file of the repository on GitHub
//     (`…/blob/main/<path>`, `…/tree/main/<path>`, raw.githubusercontent.com) names a path
//     that exists in this checkout;
//   - every page opens in Chromium (served by a static node:http server on a free port) with
//     no console error, no uncaught error, no failed request and no HTTP error;
//   - the live elements render: the timeline replays the demo's session into rows with
//     shadow roots, and each call shows at each stage.
// Exits 1 and lists every problem. scripts/docs-check.test.mjs plants broken links and errors
// to show that each is reported.
//
//   node scripts/docs-check.mjs [--dist docs/.vitepress/dist]
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import puppeteer from 'puppeteer-core';
import { focusedPage, testChromiumLaunch } from './find-chromium.mjs';

const REPOSITORY =
  /^https:\/\/(?:github\.com\/callfold\/callfold\/(?:blob|tree)\/main|raw\.githubusercontent\.com\/callfold\/callfold\/main)\/([^?#]*)/;

/** @param {string} dir @returns {string[]} the site's pages, as paths relative to `dir` */
export function htmlPages(dir) {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.html'))
    .map((path) => path.split(sep).join('/'))
    .sort();
}

/** @param {string} text */
const decodeEntities = (text) =>
  text
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');

/**
 * The file of the site a URL path names (`/guide/x.html`, `/guide/`, `/guide/x`), if any.
 * @param {string} dist
 * @param {string} pathname
 * @returns {string | undefined} relative to `dist`
 */
export function siteFile(dist, pathname) {
  let path;
  try {
    path = decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
  const candidates = path.endsWith('/') ? [`${path}index.html`] : [path, `${path}.html`];
  for (const candidate of candidates) {
    const full = resolve(dist, `.${candidate}`);
    if (!full.startsWith(resolve(dist))) return undefined;
    if (existsSync(full) && statSync(full).isFile())
      return relative(dist, full).split(sep).join('/');
  }
  return undefined;
}

/**
 * Broken links of the built site: internal links to no file, anchors to no id, links to
 * repository files that do not exist.
 * @param {string} dist
 * @param {string} repository the checkout whose files GitHub links name
 * @returns {string[]}
 */
export function linkProblems(dist, repository) {
  /** @type {Map<string, Set<string>>} */
  const ids = new Map();
  const idsOf = (/** @type {string} */ page) => {
    let found = ids.get(page);
    if (!found) {
      const html = readFileSync(join(dist, page), 'utf8');
      found = new Set([...html.matchAll(/\sid="([^"]*)"/g)].map((m) => decodeEntities(m[1] ?? '')));
      ids.set(page, found);
    }
    return found;
  };
  /** @type {string[]} */
  const problems = [];
  for (const page of htmlPages(dist)) {
    const html = readFileSync(join(dist, page), 'utf8');
    const base = new URL(`/${page}`, 'http://site.invalid');
    for (const match of html.matchAll(/<a\s[^>]*?\bhref="([^"]*)"/g)) {
      const href = decodeEntities(match[1] ?? '');
      const github = REPOSITORY.exec(href);
      if (github) {
        const path = decodeURIComponent(github[1] ?? '').replace(/\/$/, '');
        if (!existsSync(join(repository, path)))
          problems.push(`${page}: ${href} names ${path}, which is not in the repository`);
        continue;
      }
      if (/^[a-z][a-z0-9+.-]*:|^\/\//i.test(href) || href === '#' || href === '') continue;
      const url = new URL(href, base);
      const target = siteFile(dist, url.pathname);
      if (target === undefined) {
        problems.push(`${page}: ${href} leads to no page`);
        continue;
      }
      if (!url.hash || url.hash === '#') continue;
      const anchor = decodeURIComponent(url.hash.slice(1));
      if (target.endsWith('.html') && !idsOf(target).has(anchor))
        problems.push(`${page}: ${href} — ${target} has no id "${anchor}"`);
    }
  }
  return problems;
}

const TYPES = /** @type {Record<string, string>} */ ({
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.jsonl': 'application/x-ndjson',
});

/**
 * Serves `dist` on 127.0.0.1 at a free port, as a static host would (`/x` → x.html, `/d/` →
 * d/index.html, else 404).
 * @param {string} dist
 * @returns {Promise<{ origin: string, close: () => Promise<void> }>}
 */
export async function serve(dist) {
  const server = createServer((request, response) => {
    const pathname = new URL(request.url ?? '/', 'http://site.invalid').pathname;
    const file = siteFile(dist, pathname);
    if (file === undefined) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    response.writeHead(200, {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
    });
    response.end(readFileSync(join(dist, file)));
  });
  await new Promise((done) => server.listen(0, '127.0.0.1', () => done(undefined)));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

/**
 * What a page must show once loaded, beyond loading cleanly: run in the page, resolving when
 * the condition holds (the caller's deadline turns a hang into a problem).
 * @typedef {(page: import('puppeteer-core').Page) => Promise<void>} PageCheck
 */

/** Deadline of a page's load and of its checks: long, so that it only ever names a hang. */
const DEADLINE_MS = 60_000;

/**
 * Opens each page in Chromium and reports console errors, uncaught errors, failed requests,
 * HTTP errors and checks that did not pass.
 * @param {string} dist
 * @param {string[]} pages relative to `dist`
 * @param {Record<string, PageCheck>} [checks] by page
 * @param {number} [tabs] pages open at once
 * @param {(page: string) => boolean} [followed] pages reached by following a link from the
 *   page before, as a reader moves through the site (VitePress's router fetches the page's
 *   chunk and renders it in the running app), rather than loaded whole; the first page of
 *   each tab is always loaded whole
 * @returns {Promise<string[]>}
 */
export async function pageProblems(dist, pages, checks = {}, tabs = 2, followed = () => false) {
  const site = await serve(dist);
  const browser = await puppeteer.launch(testChromiumLaunch());
  /** @type {string[]} */
  const problems = [];
  const queue = [...pages];
  /**
   * One tab taking pages from the queue until it is empty, in a window of its own that has
   * focus (`focusedPage`): the timeline renders by animation frames.
   */
  const worker = async () => {
    const tab = await focusedPage(browser);
    let current = '';
    tab.on('console', (message) => {
      if (message.type() === 'error') problems.push(`${current}: console error: ${message.text()}`);
    });
    tab.on('pageerror', (error) =>
      problems.push(`${current}: uncaught: ${error instanceof Error ? error.message : error}`),
    );
    tab.on('requestfailed', (request) =>
      problems.push(
        `${current}: request failed: ${request.url()} (${request.failure()?.errorText})`,
      ),
    );
    tab.on('response', (response) => {
      if (response.status() >= 400)
        problems.push(`${current}: HTTP ${response.status()} for ${response.url()}`);
    });
    let loaded = false;
    for (let page = queue.shift(); page !== undefined; page = queue.shift()) {
      current = page;
      try {
        if (loaded && followed(page)) await follow(tab, `/${page}`);
        else {
          await tab.goto(`${site.origin}/${page}`, { waitUntil: 'load', timeout: DEADLINE_MS });
          // VitePress hydrates the server-rendered page once its scripts ran; Vue marks the
          // container it mounted on.
          await tab.waitForFunction(() => '__vue_app__' in (document.getElementById('app') ?? {}), {
            timeout: DEADLINE_MS,
          });
          loaded = true;
        }
        await checks[page]?.(tab);
        // callfold's elements live only in the live components; one anywhere else is a tag
        // that some text let through as HTML (a title in the sidebar or the pager, say).
        const strays = await tab.evaluate(() =>
          Array.from(document.querySelectorAll('tool-timeline, tool-group, tool-row'))
            .filter((el) => !el.closest('.callfold-replay, .callfold-stages'))
            .map((el) => `<${el.localName}> in ${el.parentElement?.className || 'the page'}`),
        );
        for (const stray of strays)
          problems.push(`${page}: an element outside the live ones: ${stray}`);
      } catch (error) {
        problems.push(`${page}: ${error instanceof Error ? error.message : error}`);
      }
    }
    // Leave the last page, so that its late errors are counted too.
    await tab.goto('about:blank');
    await tab.close();
  };
  try {
    await Promise.all(Array.from({ length: tabs }, worker));
  } finally {
    await browser.close();
    await site.close();
  }
  return problems;
}

/**
 * Moves `tab` to `path` the way a reader's click on a link does: an anchor clicked in the
 * running app, which VitePress's router takes (it fetches the page's chunk and renders it).
 * Done once the address is the page's and the content shown is not the page before's (its
 * root is marked before the click).
 * @param {import('puppeteer-core').Page} tab
 * @param {string} path
 */
async function follow(tab, path) {
  await tab.evaluate((href) => {
    for (const old of Array.from(document.querySelectorAll('.vp-doc > div'))) {
      old.setAttribute('data-left', '');
    }
    const link = document.createElement('a');
    link.href = href;
    link.textContent = href;
    document.getElementById('app')?.append(link);
    link.click();
    link.remove();
  }, path);
  await tab.waitForFunction(
    (href) => {
      // The router shows `/a/index.html` as `/a/` and may drop `.html`.
      const page = (/** @type {string} */ path) => path.replace(/(index)?\.html$/, '');
      return (
        page(location.pathname) === page(new URL(href, location.href).pathname) &&
        document.querySelector('.vp-doc > div:not([data-left])') !== null
      );
    },
    { timeout: DEADLINE_MS, polling: 'mutation' },
    path,
  );
}

/** A timeline of the page has its session's rows, rendered (shadow roots with content). */
/** @type {PageCheck} */
async function replayShows(page) {
  // The buttons are enabled once the session is loaded and replaying.
  await page.waitForSelector('.callfold-replay-controls button:not([disabled])', {
    timeout: DEADLINE_MS,
  });
  await page.evaluate(() => {
    const buttons = Array.from(document.querySelectorAll('.callfold-replay-controls button'));
    buttons.find((b) => b.textContent === 'Show all')?.dispatchEvent(new MouseEvent('click'));
  });
  await page.waitForFunction(
    () => {
      /** @param {Element | ShadowRoot} root @returns {Element[]} */
      const deep = (root) =>
        Array.from(root.querySelectorAll('*')).flatMap((el) => [
          el,
          ...(el.shadowRoot ? deep(el.shadowRoot) : []),
        ]);
      const timeline = document.querySelector('.callfold-replay tool-timeline');
      if (!timeline?.shadowRoot) return false;
      const rows = deep(timeline.shadowRoot).filter((el) => el.localName === 'tool-row');
      const drawn = rows.filter((row) => (row.shadowRoot?.childElementCount ?? 0) > 0);
      return drawn.length >= 14;
    },
    { timeout: DEADLINE_MS, polling: 100 },
  );
}

/** Each call's three rows: nodes at preparing, start and result, drawn. */
/** @type {PageCheck} */
async function stagesShow(page) {
  await replayShows(page);
  await page.waitForFunction(
    () => {
      const calls = Array.from(document.querySelectorAll('.callfold-stages-call'));
      return (
        calls.length >= 9 &&
        calls.every((call) => {
          const rows = Array.from(call.querySelectorAll('tool-row'));
          const stages = rows.map(
            (row) => /** @type {{ node?: { stage: string } }} */ (row).node?.stage,
          );
          return (
            stages.join() === 'preparing,start,result' &&
            rows.every((row) => (row.shadowRoot?.childElementCount ?? 0) > 0)
          );
        })
      );
    },
    { timeout: DEADLINE_MS, polling: 100 },
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: { dist: { type: 'string', default: 'docs/.vitepress/dist' } },
  });
  const dist = values.dist;
  if (!existsSync(join(dist, 'index.html'))) {
    console.error(`docs-check: ${dist} has no site; run \`npm run docs\` first`);
    process.exit(1);
  }
  const pages = htmlPages(dist);
  const links = linkProblems(dist, fileURLToPath(new URL('..', import.meta.url)));
  console.log(`links: ${pages.length} pages, ${links.length} problems`);
  const started = performance.now();
  // The reference's pages (about 220, one per exported name, all from one template) are
  // followed by link from one loaded whole, as a reader moves through them; every other page
  // is loaded whole. Loading each reference page whole cost about 60 s of CPU more.
  const opened = await pageProblems(
    dist,
    pages,
    { 'index.html': replayShows, 'showcase.html': stagesShow },
    2,
    (page) => page.startsWith('reference/api/'),
  );
  console.log(
    `Chromium: ${pages.length} pages opened in ${((performance.now() - started) / 1000).toFixed(0)} s, ${opened.length} problems`,
  );
  const problems = [...links, ...opened];
  for (const problem of problems) console.error(`  ${problem}`);
  if (problems.length) process.exit(1);
}
