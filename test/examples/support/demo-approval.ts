import type { ElementHandle, Page } from 'puppeteer-core';

/** What went wrong on each watched page: failed requests, error statuses, console and uncaught errors. */
const problems = new WeakMap<Page, string[]>();

/** Records `page`'s failed requests, responses ≥ 400 and console errors, for `playToEnd`'s report. */
export function watchLoading(page: Page): void {
  const found: string[] = [];
  problems.set(page, found);
  page.on('requestfailed', (request) =>
    found.push(`${request.url()}: ${request.failure()?.errorText ?? 'failed'}`),
  );
  page.on('response', (response) => {
    if (response.status() >= 400) found.push(`${response.url()}: HTTP ${response.status()}`);
  });
  page.on('console', (message) => {
    if (message.type() === 'error') found.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => found.push(`uncaught: ${String(error)}`));
}

/**
 * Opens `url` in a page `watchLoading` watches. A pre-bundled dependency that Vite's dev server
 * answered with 504 ("Outdated Optimize Dep": its optimizer's files are not where its state
 * says) fails the test at once, with `serverLog()` (the dev server's optimizer log) beside it:
 * three clean-clone runs with both cores busy left the React page at `data-state="loading"`
 * that way, and a reload was answered the same.
 */
export async function openPage(page: Page, url: string, serverLog = () => ''): Promise<void> {
  await page.goto(url);
  const outdated = (problems.get(page) ?? []).filter((problem) =>
    /\/\.vite\/deps\/.*: HTTP 504$/.test(problem),
  );
  if (outdated.length > 0) {
    throw new Error(`${url}: Vite answered ${outdated.join(', ')}\n${serverLog()}`);
  }
}

/**
 * Plays the demo page to its end, answering its approval request as a viewer does: a real
 * click on the row's Approve or Deny button.
 *
 * A click lands where the button was when puppeteer measured it; if the timeline's layout moves
 * in between (a waiting chunk above fills in during idle time and takes its real height), the
 * click can miss. The page ignores a second answer for a call, so a missed click is simply
 * clicked again, up to five times, instead of waiting out the whole timeout (a clean-clone CI run
 * failed that way once).
 */
export async function playToEnd(page: Page, approve = true, timeout = 60_000): Promise<void> {
  for (;;) {
    await page
      // Checked at each change of the DOM, not at animation frames (a hidden page has none).
      .waitForFunction(() => ['done', 'waiting'].includes(document.body.dataset.state ?? ''), {
        timeout,
        polling: 'mutation',
      })
      .catch(async (error: unknown) => {
        // Say where the page stood: its state, whether it is visible, what its log says.
        const where = await page
          .evaluate(() => ({
            state: document.body.dataset.state,
            visibility: document.visibilityState,
            status: document.querySelector('[role="status"]')?.textContent,
            log: document.querySelector('#log')?.textContent?.slice(-500),
          }))
          .catch((cause: unknown) => String(cause));
        const loading = problems.get(page)?.slice(0, 20);
        throw new Error(`the replay did not end: ${JSON.stringify({ where, loading })}`, {
          cause: error,
        });
      });
    if ((await page.evaluate(() => document.body.dataset.state)) === 'done') return;
    for (let attempt = 1; ; attempt++) {
      // The row may render a moment after the replay starts waiting (a chunk, a reconnection).
      // Looked for every 50 ms, not at DOM changes: the button renders inside shadow roots,
      // which a MutationObserver on the document (how `waitForSelector` waits for a plain or
      // `>>>` selector) does not see. The page itself is still while it waits, so a button that
      // rendered after the first look was never looked for again: the replays that failed with
      // "no row shows the request" showed the button in the row (three runs in eight under load
      // once the page stopped rewriting its clock every frame; twice in clean-clone CI runs
      // before).
      const button = await page
        .waitForFunction(approvalButton, { timeout: 30_000, polling: 50 }, approve)
        .then((handle) => handle.asElement() as ElementHandle<Element> | null)
        .catch(async (error: unknown) => {
          throw new Error(
            `the replay waits for an answer, but no row shows the request: ${await waitingState(page)}`,
            { cause: error },
          );
        });
      await button?.click();
      try {
        await page.waitForFunction(() => document.body.dataset.state !== 'waiting', {
          timeout: 5_000,
          polling: 'mutation',
        });
        break;
      } catch (error) {
        if (attempt === 5) throw error;
      }
    }
  }
}

/**
 * What the page shows while its replay waits for an answer that no row asks for: each row the
 * timeline rendered (its call, stage and approval), each group's summary, the page's state and
 * the end of its log. It showed the button there in every failure of the wait it explains.
 */
async function waitingState(page: Page): Promise<string> {
  return page
    .evaluate(() => {
      const timeline = document.querySelector('#timeline');
      const groups = [...(timeline?.shadowRoot?.querySelectorAll('tool-group') ?? [])];
      return JSON.stringify({
        state: document.body.dataset.state,
        match: document.body.dataset.match,
        visibility: document.visibilityState,
        groups: groups.map((group) => ({
          summary: group.shadowRoot?.querySelector('[part~="summary"]')?.textContent?.trim(),
          rows: [...(group.shadowRoot?.querySelectorAll('tool-row') ?? [])].map((row) => {
            const { node } = row as unknown as { node?: Record<string, unknown> };
            return {
              callId: node?.callId,
              stage: row.getAttribute('stage'),
              approval: row.getAttribute('approval'),
              // What the row rendered, and the node it holds, where a request is shown.
              ...(row.getAttribute('approval') === 'requested'
                ? {
                    node: { stage: node?.stage, approval: node?.approval },
                    shadow: row.shadowRoot?.innerHTML.replace(/<!--[^>]*-->/g, '').slice(0, 1500),
                  }
                : {}),
            };
          }),
        })),
        log: document.querySelector('#log')?.textContent?.slice(-1500),
      });
    })
    .then((shown) => `${shown}; page problems: ${JSON.stringify(problems.get(page) ?? [])}`)
    .catch((cause: unknown) => String(cause));
}

/**
 * Runs in the page: the Approve (or Deny) button of the timeline's row that asks for an
 * answer, looked for through every shadow root under `#timeline`; null while there is none.
 */
function approvalButton(approve: boolean): Element | null {
  const part = approve ? 'approve' : 'deny';
  const roots: ParentNode[] = [];
  const timeline = document.querySelector('#timeline');
  if (timeline?.shadowRoot) roots.push(timeline.shadowRoot);
  for (let root = roots.pop(); root !== undefined; root = roots.pop()) {
    for (const element of root.querySelectorAll('*')) {
      if (element.localName === 'tool-row' && element.getAttribute('approval') === 'requested') {
        const button = element.shadowRoot?.querySelector(`[part~="${part}"]`);
        if (button) return button;
      }
      if (element.shadowRoot) roots.push(element.shadowRoot);
    }
  }
  return null;
}
