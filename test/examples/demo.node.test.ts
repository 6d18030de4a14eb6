/**
 * The demo end to end. First without a browser: the recorded session has every part the
 * demo promises, and re-encoding it into each provider's wire format and reading it back
 * through that provider's adapter gives the recorded durable events exactly. Then in
 * Chromium: `npm start`'s server (Vite, on a free loopback port), the page played to its end
 * at 100×, its final DOM checked (every call in its final stage, the withdrawn calls gone, the
 * error shown, the group counts), and the same final DOM after "reload as history" and after a
 * reconnection mid-stream — both over HTTP against the dev server's `sessionHandler`, whose
 * requests are checked — through every provider, in the React page, and from a live
 * endpoint (a fake OpenAI-compatible server on 127.0.0.1); the layout at 390 px and 1400 px
 * (support/demo-layout.ts) on two of the provider replays; and `write.html?speed=` honoured,
 * or reported visibly when it is not a speed. Node only.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { isDeepStrictEqual } from 'node:util';
import { expect } from 'chai';
import type { Browser, Page } from 'puppeteer-core';
import { carriedRecords } from '../../examples/demo/carried.js';
import { providers, type ReplaySource, replaySteps } from '../../examples/demo/replay-steps.js';
import { scriptOf, withoutTime } from '../../examples/demo/session-script.js';
import { type CallfoldEvent, isDurableEvent } from '../../src/events/types.js';
import { categoryOf } from '../../src/tools/categories.js';
import { decodeTranscript } from '../../src/wire/transcript.js';
import { repositoryRoot } from '../support/repository.js';
import { launchChromium } from './support/chromium.js';
import { openPage, playToEnd, watchLoading } from './support/demo-approval.js';
import { atWidth, expectLaidOut, screenshot } from './support/demo-layout.js';

const root = repositoryRoot();
const entries = decodeTranscript(
  readFileSync(join(root, 'examples/transcripts/demo-session.jsonl'), 'utf8'),
);
const events = entries.map((entry) => entry.event);
const dispatched = events.flatMap((e) => (e.type === 'tool/call' ? [e] : []));
const streamedCalls = new Set(
  events.flatMap((e) => (e.type === 'stream/tool-call-delta' ? [e.callId] : [])),
);
/** The calls settled responses kept, in order (the cut-off one too). */
const kept = new Set(
  events.flatMap((e) =>
    e.type === 'assistant/message'
      ? e.blocks.flatMap((block) => (block.type === 'tool-use' ? [block.callId] : []))
      : [],
  ),
);
/** Streamed calls no settled response kept: withdrawn with their cut stream. */
const withdrawn = [...streamedCalls].filter((id) => !kept.has(id));
const failed = events.flatMap((e) => (e.type === 'tool/result' && e.isError ? [e.callId] : []));
/** The callId of the (first) dispatched call named `name`. */
const callOf = (name: string) => dispatched.find((call) => call.name === name)?.callId;
/** The call the token limit cut: kept in its message, `incomplete`. */
const cutCall = events
  .flatMap((e) => (e.type === 'assistant/message' ? e.blocks : []))
  .find((block) => block.type === 'tool-use' && block.incomplete === true);

describe('the recorded demo session', () => {
  it('has a 512 KiB write, an edit, parallel described bash calls, reads, a search, a web fetch and an unknown tool', () => {
    const byCategory = (category: string) =>
      dispatched.filter((call) => categoryOf(call.name) === category);
    const write = byCategory('write')[0];
    const content = JSON.parse(String(write?.args)).content as string;
    expect(new TextEncoder().encode(content).length).to.equal(512 * 1024);
    expect(byCategory('edit')).to.have.length.of.at.least(1);
    expect(byCategory('read')).to.have.length(2);
    expect(byCategory('search')).to.have.length(1);
    expect(byCategory('web').map((call) => call.name)).to.deep.equal(['WebFetch', 'web_search']);
    expect(byCategory('generic').map((call) => call.name)).to.deep.equal(['acme_wiki_publish']);
    expect(byCategory('edit').map((call) => call.name)).to.deep.equal([
      'Edit',
      'Edit',
      'apply_patch',
      'Edit',
    ]);
    const bash = byCategory('bash').map((call) => JSON.parse(String(call.args)));
    expect(bash.every((args) => typeof args.description === 'string')).to.equal(true);
    // The first two bash calls are one response's parallel calls: their fragments interleave.
    const [first, second] = byCategory('bash');
    const order = events.flatMap((e) =>
      e.type === 'stream/tool-call-delta' &&
      (e.callId === first?.callId || e.callId === second?.callId)
        ? [e.callId]
        : [],
    );
    const switches = order.filter((id, i) => i > 0 && id !== order[i - 1]).length;
    expect(switches).to.be.greaterThan(1);
  });

  it('has one cut attempt whose preparing call is withdrawn, and one failing call', () => {
    expect(withdrawn).to.have.length(1);
    expect(failed).to.have.length(1);
    const attempt = events.find(
      (e) => e.type === 'stream/tool-call-delta' && e.callId === withdrawn[0],
    ) as { attemptId: string };
    const ofAttempt = events.filter((e) => 'attemptId' in e && e.attemptId === attempt.attemptId);
    expect(ofAttempt.at(-1)?.type).to.equal('stream/settle');
    expect(ofAttempt.some((e) => e.type === 'assistant/message')).to.equal(false);
  });

  it('has a free-form patch, a provider-run web search, a call cut by the token limit and an approval', () => {
    const patch = dispatched.find((call) => call.name === 'apply_patch');
    expect(patch).to.include({ input: 'text' });
    expect(String(patch?.args)).to.match(/^\*\*\* Begin Patch\n\*\*\* Update File: README\.md\n/);
    const search = dispatched.find((call) => call.name === 'web_search');
    expect(search).to.include({ executor: 'provider' });
    const searchResult = events.find(
      (e) => e.type === 'tool/result' && e.callId === search?.callId,
    );
    expect(searchResult).to.include({ executor: 'provider' });
    const messages = events.flatMap((e) => (e.type === 'assistant/message' ? [e] : []));
    const cutMessages = messages.filter((m) => m.stopReason === 'length');
    expect(cutMessages).to.have.length(1);
    const cutBlock = cutMessages[0]?.blocks.at(-1);
    expect(cutBlock).to.include({ type: 'tool-use', name: 'Write', incomplete: true });
    const cutId = cutBlock?.type === 'tool-use' ? cutBlock.callId : '';
    // Cut inside the content string: never dispatched, no result.
    expect(cutBlock?.type === 'tool-use' && cutBlock.argsText).to.match(/"content":"[^"]*$/);
    expect(
      events.some((e) => 'callId' in e && e.callId === cutId && e.type.startsWith('tool/')),
    ).to.equal(false);
    const approvals = events.flatMap((e) =>
      e.type === 'tool/approval-request' || e.type === 'tool/approval' ? [e] : [],
    );
    expect(approvals.map((e) => e.type)).to.deep.equal(['tool/approval-request', 'tool/approval']);
    expect(dispatched.find((call) => call.callId === approvals[0]?.callId)?.name).to.equal(
      'acme_wiki_publish',
    );
  });

  const cut = entries.find(
    (entry) => entry.event.type === 'stream/settle' && entry.event.attemptId === 'att_3',
  );
  /** Replays the session through `source`; `answer` stands in for the viewer. */
  async function replay(source: ReplaySource, answer?: (callId: string) => Promise<boolean>) {
    const out: { event: CallfoldEvent; at: number }[] = [];
    const run = replaySteps(
      scriptOf(entries),
      source,
      (event, at) => out.push({ event, at }),
      0,
      answer,
    );
    for (const step of run.steps) {
      const held = step.run();
      if (held instanceof Promise) await held;
    }
    run.dispose();
    return out;
  }
  const sources = [...Object.keys(providers), 'events'] as ReplaySource[];
  for (const source of sources) {
    it(`replays through ${source} to the recorded durable events as that wire carries them, at the recorded times`, async () => {
      const out = await replay(source);
      const durable = out.flatMap(({ event }) =>
        isDurableEvent(event) ? [withoutTime(event)] : [],
      );
      const expected = carriedRecords(source, entries);
      expect(durable).to.deep.equal(expected.map(({ event }) => withoutTime(event as never)));
      const recordedAt = new Map(
        expected.map(({ at, event }) => [(event as { seq: number }).seq, at]),
      );
      for (const { event, at } of out) {
        if (isDurableEvent(event))
          expect(at, `seq ${event.seq}`).to.equal(recordedAt.get(event.seq));
      }
      // The cut response settles alone, when the stream was cut.
      const settle = out.find(
        ({ event }) => event.type === 'stream/settle' && event.attemptId === 'att_3',
      );
      expect(settle?.at).to.equal(cut?.at);
    });

    it(`through ${source}, a denied approval records the denial and leaves the call's result out`, async () => {
      const asked: string[] = [];
      const out = await replay(source, async (callId) => {
        asked.push(callId);
        return false;
      });
      const durable = out.flatMap(({ event }) => (isDurableEvent(event) ? [event] : []));
      const request = events.find((e) => e.type === 'tool/approval-request');
      const callId = request?.type === 'tool/approval-request' ? request.callId : '';
      expect(asked).to.deep.equal([callId]);
      const ofCall = durable.filter((e) => 'callId' in e && e.callId === callId);
      expect(ofCall.map((e) => [e.type, 'approved' in e ? e.approved : undefined])).to.deep.equal([
        ['tool/call', undefined],
        ['tool/approval-request', undefined],
        ['tool/approval', false],
      ]);
      // Everything else is as recorded (numbered one lower after the left-out result).
      const expected = carriedRecords(source, entries).flatMap(({ event }) =>
        'callId' in event && event.callId === callId ? [] : [withoutTime(event as never)],
      );
      const others = durable.flatMap((e) =>
        'callId' in e && e.callId === callId ? [] : [withoutTime(e)],
      );
      const withoutSeq = (e: object) => {
        const { seq: _seq, ...rest } = e as { seq: number };
        return rest;
      };
      expect(others.map(withoutSeq)).to.deep.equal(expected.map(withoutSeq));
    });
  }

  it('through gemini, the 512 KiB write streams field by field as Vertex AI partialArgs, at the recorded pace', async () => {
    const out = await replay('gemini');
    // The Write that completed (an earlier one was in the cut attempt).
    const write = out.find(
      ({ event }) => event.type === 'tool/call' && event.name === 'Write',
    )?.event;
    const callId = write?.type === 'tool/call' ? write.callId : '';
    const deltas = out.filter(
      ({ event }) => event.type === 'stream/tool-call-delta' && event.callId === callId,
    );
    const recorded = entries.filter(
      ({ event }) => event.type === 'stream/tool-call-delta' && event.callId === callId,
    );
    // Its path shows before its content, and its content in as many pieces as recorded.
    const text = deltas.map(({ event }) => (event as { args: string }).args);
    expect(text[0]).to.equal('');
    expect(text.slice(0, 3).join('')).to.match(
      /^\{"file_path":"src\/greetings\/table\.ts","content":"/,
    );
    expect(deltas.length).to.be.greaterThan(recorded.length * 0.9);
    const end = out.find(
      ({ event }) => event.type === 'stream/block-end' && event.callId === callId,
    )?.event as { text: string } | undefined;
    expect(end?.text).to.equal(text.join(''));
  });
});

// ── In Chromium ──────────────────────────────────────────────────────────────────────────

/** What the timeline shows, read through the elements' shadow roots once they have rendered. */
interface Shown {
  items: (
    | { turn: string }
    | { assistant: string }
    | {
        summary: string;
        detail: string;
        failures: string;
        active: boolean;
        rows: {
          callId: string;
          stage: string | null;
          error: boolean;
          title: string;
          path: string;
          size: string;
          exit: string;
          status: string;
          executor: string;
          notice: string;
        }[];
      }
  )[];
}

/**
 * Fails, when `shown` is not `expected`, with the first item where they differ (both in full),
 * the page errors and the end of the page's log: chai cuts an object in its message to a few
 * characters, which left a CI run's failure of one replay unexplained.
 */
function expectSameTimeline(
  shown: Shown,
  expected: Shown | undefined,
  page: { errors: readonly string[]; log: string },
): void {
  const same = isDeepStrictEqual(shown, expected);
  if (page.errors.length === 0 && same) return;
  const want = expected?.items ?? [];
  const at = shown.items.findIndex((item, i) => !isDeepStrictEqual(item, want[i]));
  const index = at === -1 ? shown.items.length : at;
  throw new Error(
    [
      ...(same
        ? ['the timeline is the expected one, but the page reported errors']
        : [
            `the timeline (${shown.items.length} items) differs from the expected one (${want.length}) at item ${index}:`,
            `  shown:    ${JSON.stringify(shown.items[index])}`,
            `  expected: ${JSON.stringify(want[index])}`,
          ]),
      `page errors: ${JSON.stringify(page.errors)}`,
      `the page's log ends: ${page.log.slice(-1500)}`,
    ].join('\n'),
  );
}

/** The text of the demo page's log; empty on a page without one (the React page). */
const logOf = (page: Page) =>
  page.evaluate(() => document.querySelector('#log')?.textContent ?? '');

function readTimeline(selector: string): Promise<Shown> {
  type Lit = HTMLElement & { updateComplete: Promise<unknown>; node?: { callId: string } };
  const text = (root: ParentNode | null | undefined, part: string) =>
    root?.querySelector(`[part~="${part}"]`)?.textContent?.replace(/\s+/g, ' ').trim() ?? '';
  return (async () => {
    const timeline = document.querySelector(selector) as Lit;
    await timeline.updateComplete;
    const items: Shown['items'] = [];
    for (const item of timeline.shadowRoot?.querySelectorAll('.timeline > .section > .chunk > *') ??
      []) {
      if (item.getAttribute('part') === 'turn') {
        items.push({ turn: text(item, 'turn-prompt') });
        continue;
      }
      if (item.localName !== 'tool-group') {
        items.push({ assistant: text(item, 'text') });
        continue;
      }
      const group = item as Lit;
      await group.updateComplete;
      const rows = [...(group.shadowRoot?.querySelectorAll('tool-row') ?? [])] as Lit[];
      await Promise.all(rows.map((row) => row.updateComplete));
      items.push({
        summary: text(group.shadowRoot, 'summary'),
        detail: text(group.shadowRoot, 'detail'),
        failures: text(group.shadowRoot, 'failures'),
        active: group.shadowRoot?.querySelector('[part~="activity"]') !== null,
        rows: rows.map((row) => ({
          callId: row.node?.callId ?? '',
          stage: row.getAttribute('stage'),
          error: row.hasAttribute('error'),
          title: text(row.shadowRoot, 'title'),
          path: text(row.shadowRoot, 'path'),
          size: text(row.shadowRoot, 'size'),
          exit: text(row.shadowRoot, 'exit-code'),
          status: text(row.shadowRoot, 'stage'),
          executor: text(row.shadowRoot, 'executor'),
          notice: text(row.shadowRoot, 'notice'),
        })),
      });
    }
    return { items };
  })();
}

const skip = 'Deno' in globalThis ? 'starts Vite and Chromium (Node only)' : false;

describe('the demo page in Chromium', { skip, timeout: 600_000 }, () => {
  let vite: ChildProcess | undefined;
  let browser: Browser | undefined;
  let base = '';
  /** The final DOM of the default replay, which every other path must reproduce. */
  let final: Shown | undefined;
  /**
   * Each page in a window of its own (`focusedPage`): a page sharing a window with another is
   * a hidden tab, whose timers Chromium throttles, and the replays run on timers.
   */
  let newPage: () => Promise<Page>;
  /** What the dev server printed (its dependency optimizer's debug lines among it). */
  const viteLog: string[] = [];

  before(async () => {
    // What `npm start` runs (`vite`), on a free loopback port; it prints its local URL.
    vite = spawn(
      process.execPath,
      [join(root, 'node_modules/vite/bin/vite.js'), '--port', '0', '--host', '127.0.0.1'],
      // Its dependency optimizer says what it does, for a page that fails to load (openPage).
      { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, DEBUG: 'vite:deps' } },
    );
    base = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`vite printed no URL:\n${viteLog.join('')}`)),
        60_000,
      );
      const read = (chunk: Buffer) => {
        // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping ANSI colour codes.
        viteLog.push(chunk.toString().replace(/\x1b\[[0-9;]*m/g, ''));
        const url = /Local:\s+(http:\/\/127\.0\.0\.1:\d+\/)/.exec(viteLog.join(''))?.[1];
        if (url) {
          clearTimeout(timer);
          resolve(url);
        }
      };
      vite?.stdout?.on('data', read);
      vite?.stderr?.on('data', read);
      vite?.once('exit', (code) =>
        reject(new Error(`vite exited (${code}):\n${viteLog.join('')}`)),
      );
    });
    ({ browser, newPage } = await launchChromium());
  });

  after(async () => {
    await browser?.close();
    if (vite && vite.exitCode === null) {
      const exited = new Promise((resolve) => vite?.once('exit', resolve));
      vite.kill('SIGTERM');
      await exited;
    }
  });

  /** A request the page sent to the dev server's session endpoint (/demo-sessions). */
  interface SessionRequest {
    method: string;
    path: string;
    sse: boolean;
    lastEventId: string | undefined;
    authorized: boolean;
  }

  /**
   * Opens a page of the demo (at `width` px, in the light scheme, when given); page errors
   * fail the test that opened it.
   */
  async function open(
    path: string,
    width?: number,
  ): Promise<{ page: Page; errors: string[]; requests: SessionRequest[] }> {
    const page = await newPage();
    if (width !== undefined) await atWidth(page, width);
    const errors: string[] = [];
    const requests: SessionRequest[] = [];
    page.on('pageerror', (error) => errors.push(String(error)));
    watchLoading(page);
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (!url.pathname.startsWith('/demo-sessions')) return;
      const headers = request.headers();
      requests.push({
        method: request.method(),
        path: url.pathname + url.search,
        sse: (headers.accept ?? '').includes('text/event-stream'),
        lastEventId: headers['last-event-id'],
        authorized: /^Bearer \S+$/.test(headers.authorization ?? ''),
      });
    });
    await openPage(page, new URL(path, base).href, () => viteLog.join(''));
    return { page, errors, requests };
  }

  /**
   * Waits for the replay's end, answering the session's approval request as a viewer does:
   * the replay waits for it (`data-state="waiting"`), then Approve (or Deny) is clicked on the
   * row.
   */
  const finished = (page: Page, approve = true) => playToEnd(page, approve, 120_000);

  // The default replay's page goes on to "reload as history" and then to live mode, as a
  // viewer's would: a replay costs seconds of Chromium's CPU, and these two need one that ended.
  it('plays the session to its end: final stages, withdrawn calls gone, the error, group counts', async (t) => {
    const { page, errors, requests } = await open('/?speed=100');
    try {
      await played(page, errors);
      await t.test(
        '"reload as history" rebuilds the same final DOM from durable events in pages loaded over HTTP',
        () => reloadAsHistory(page, errors, requests),
      );
      await t.test(
        'live mode streams one turn from an OpenAI-compatible endpoint, keeping the key in memory',
        () => liveMode(page, errors),
      );
    } finally {
      await page.close();
    }
  });

  /** The checks of the default replay's final DOM; it becomes `final`. */
  async function played(page: Page, errors: readonly string[]): Promise<void> {
    await finished(page);
    const shown = await page.evaluate(readTimeline, '#timeline');
    const match = await page.evaluate(() => document.body.dataset.match);
    expect(errors).to.deep.equal([]);
    expect(match).to.equal('true');

    const groups = shown.items.flatMap((item) => ('rows' in item ? [item] : []));
    const rows = groups.flatMap((group) => group.rows);
    // Every call a settled response kept, in order; the withdrawn call is gone.
    expect(rows.map((row) => row.callId)).to.deep.equal([...kept]);
    for (const id of withdrawn) expect(rows.map((row) => row.callId)).not.to.include(id);
    const cutRow = rows.find(
      (row) => cutCall?.type === 'tool-use' && row.callId === cutCall.callId,
    );
    expect(cutRow).to.include({
      stage: 'preparing',
      title: 'Write',
      path: 'CHANGELOG.md',
      status: 'Write: Cut off',
    });
    expect(cutRow?.notice).to.match(
      /^Cut off: the response reached its token limit \([\d.]+ KiB of arguments arrived\)\. Not run\.$/,
    );
    expect(rows.filter((row) => row !== cutRow).every((row) => row.stage === 'result')).to.equal(
      true,
    );
    expect(groups.every((group) => !group.active)).to.equal(true);

    const failing = rows.find((row) => row.callId === failed[0]);
    expect(failing).to.include({ error: true, exit: 'exit 1' });
    expect(failing?.status).to.match(/Failed$/);
    expect(rows.filter((row) => row.error)).to.have.length(1);
    expect(groups.map((group) => [group.summary, group.failures])).to.deep.equal([
      ['Read 2 files · Searched 1 time', ''],
      ['Made 1 web request', ''],
      ['Wrote 1 file', ''],
      ['Edited 1 file', ''],
      ['Ran 2 commands', '1 failed'],
      ['Edited 1 file · Ran 1 command', ''],
      ['Edited 1 file', ''],
      ['Wrote 1 file', ''],
      ['Edited 1 file', ''],
      ['Used 1 tool · Made 1 web request', ''],
    ]);
    const write = rows.find((row) => row.title === 'Write');
    expect(write).to.include({ path: 'src/greetings/table.ts', size: '511 KiB' });
    // The free-form patch: an edit whose row and group name the files of its headers.
    const patch = rows.find((row) => row.callId === callOf('apply_patch'));
    expect(patch).to.include({ title: 'Edit', path: 'README.md', stage: 'result' });
    expect(groups[6]?.detail).to.equal('README.md, docs/greetings.md');
    // The approved call ran; the provider's web search carries its marker.
    expect(rows.find((row) => row.callId === callOf('acme_wiki_publish'))).to.include({
      stage: 'result',
      notice: '',
      executor: '',
    });
    expect(rows.find((row) => row.callId === callOf('web_search'))).to.include({
      title: 'Web',
      stage: 'result',
      executor: 'provider',
    });
    // One assistant response per attempt that ended; the cut one is gone with its row.
    expect(shown.items.filter((item) => 'assistant' in item)).to.have.length(11);
    // A separator where each of the two turns starts (the recording's turns carry no prompt).
    expect(shown.items.filter((item) => 'turn' in item)).to.deep.equal([
      { turn: '' },
      { turn: '' },
    ]);
    expect(shown.items[0]).to.deep.equal({ turn: '' });
    final = shown;
  }

  /** "Reload as history" on a page whose replay ended. */
  async function reloadAsHistory(
    page: Page,
    errors: readonly string[],
    requests: readonly SessionRequest[],
  ): Promise<void> {
    const before = requests.length;
    await page.click('#history');
    await page.waitForFunction(() => document.body.dataset.match !== 'pending');
    const shown = await page.evaluate(readTimeline, '#timeline');
    const match = await page.evaluate(() => document.body.dataset.match);
    const log = await logOf(page);
    expect(errors).to.deep.equal([]);
    expect(match).to.equal('true');
    expect(log).to.match(/Reloaded: 45 durable events in 6 history pages/);
    expectSameTimeline(shown, final, { errors, log });
    // The pages came from the dev server's sessionHandler (loadHistory), newest first, then
    // the live end was followed after the newest seq (followSession with Last-Event-ID).
    const reload = requests.slice(before);
    const pages = reload.filter((request) => request.method === 'GET' && !request.sse);
    expect(pages.map((request) => request.path.replace(/^.*\?/, ''))).to.deep.equal([
      'limit=8',
      'before=38&limit=8',
      'before=30&limit=8',
      'before=22&limit=8',
      'before=14&limit=8',
      'before=6&limit=8',
    ]);
    expect(
      pages.every((request) => /^\/demo-sessions\/[\w-]+\/events\?/.test(request.path)),
    ).to.equal(true);
    const follow = reload.filter((request) => request.sse);
    expect(follow.map((request) => request.lastEventId)).to.deep.equal(['45']);
    expect(reload.every((request) => request.authorized)).to.equal(true);
  }

  it('a reconnection in the middle of the write ends in the same DOM', async () => {
    // `until` pauses the replay 20 s in, with the 512 KiB write still streaming.
    const { page, errors, requests } = await open('/?speed=32&until=20000');
    await page.waitForFunction(() => document.body.dataset.state === 'paused', {
      timeout: 30_000,
    });
    await page.click('#reconnect');
    await page.waitForFunction(() =>
      /Reconnected/.test(document.querySelector('#log')?.textContent ?? ''),
    );
    const log = await logOf(page);
    await page.click('#finish');
    await finished(page);
    const shown = await page.evaluate(readTimeline, '#timeline');
    await page.close();
    expect(errors).to.deep.equal([]);
    // The write was still streaming: the replay of the live attempt carried its deltas.
    const replayed = Number(/a replay of (\d+) live stream events/.exec(log)?.[1]);
    expect(replayed).to.be.greaterThan(100);
    expectSameTimeline(shown, final, { errors, log });
    // Both connections went to the dev server's event stream; the second resumed with
    // Last-Event-ID = the seq the log reports. The events were published there by the page.
    const after = /Reconnected with Last-Event-ID (\d+)/.exec(log)?.[1];
    const streams = requests.filter((request) => request.sse);
    expect(streams.map((request) => request.lastEventId)).to.deep.equal([undefined, after]);
    expect(Number(after)).to.be.greaterThan(0);
    expect(requests.some((request) => request.method === 'POST')).to.equal(true);
  });

  // Each replay below is one page doing its own work (most of it in Chromium's renderer),
  // compared with `final`: they run side by side, a few pages at a time. Two of them are
  // played at a phone's and a desktop's width, and their layout measured once they ended (the
  // timeline's content does not depend on the width).
  describe('the same session through each provider wire', { concurrency: 2 }, () => {
    const widths: Record<string, number> = { 'ag-ui': 390, events: 1400 };
    for (const source of ['openai-responses', 'ai-sdk-ui-stream', 'ag-ui', 'events']) {
      it(`replaying through ${source} ends in the same DOM`, async (t) => {
        const width = widths[source];
        const { page, errors } = await open(`/?speed=100&provider=${source}`, width);
        try {
          await finished(page);
          const shown = await page.evaluate(readTimeline, '#timeline');
          const log = await logOf(page);
          expectSameTimeline(shown, final, { errors, log });
          if (width !== undefined) {
            await t.test(
              `at ${width} px: the chart's axis labels and the Live form's fields do not overlap, nothing scrolls sideways`,
              async () => {
                await expectLaidOut(page, width);
                expect(errors).to.deep.equal([]);
              },
            );
          }
        } finally {
          await page.close();
        }
      });
    }

    for (const source of ['openai-chat-completions', 'gemini']) {
      it(`replaying through ${source} ends in the same DOM without the provider-run search (its wire cannot carry it)`, async () => {
        const { page, errors } = await open(`/?speed=100&provider=${source}`);
        await finished(page);
        const shown = await page.evaluate(readTimeline, '#timeline');
        const log = await logOf(page);
        await page.close();
        const search = callOf('web_search');
        const expected = structuredClone(final) as Shown;
        const last = expected.items.findLast((item) => 'rows' in item);
        if (!last || !('rows' in last)) throw new Error('no group');
        expect(last.rows.map((row) => row.callId)).to.include(search);
        last.rows = last.rows.filter((row) => row.callId !== search);
        last.summary = 'Used 1 tool';
        last.detail = 'Greetings: locale fallbacks';
        expectSameTimeline(shown, expected, { errors, log });
      });
    }
  });

  it('Deny on the approval request: the call shows "Denied", never runs, and history agrees', async () => {
    const { page, errors } = await open('/?speed=100');
    await finished(page, false);
    const shown = await page.evaluate(readTimeline, '#timeline');
    const match = await page.evaluate(() => document.body.dataset.match);
    const log = await logOf(page);
    await page.click('#history');
    await page.waitForFunction(() => document.body.dataset.match !== 'pending');
    const reloaded = await page.evaluate(readTimeline, '#timeline');
    await page.close();
    expect(errors).to.deep.equal([]);
    expect(match).to.equal('true');
    expect(log).to.include('You denied acme_wiki_publish: it will not run.');
    const rows = shown.items.flatMap((item) => ('rows' in item ? item.rows : []));
    const denied = rows.find((row) => row.callId === callOf('acme_wiki_publish'));
    expect(denied).to.include({
      stage: 'start',
      status: 'acme_wiki_publish: Denied',
      notice: 'Denied. Not run.',
    });
    // Everything else is as in the approved replay.
    const others = (view: Shown) =>
      view.items.map((item) =>
        'rows' in item
          ? { ...item, rows: item.rows.filter((row) => row.callId !== denied?.callId) }
          : item,
      );
    expect(others(shown)).to.deep.equal(others(final as Shown));
    expect(reloaded).to.deep.equal(shown);
  });

  it('the React page embeds the same elements and ends in the same DOM', async () => {
    const { page, errors } = await open('/react.html?speed=100');
    await finished(page);
    await page.evaluate(
      () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
    );
    const shown = await page.evaluate(readTimeline, '#timeline');
    const log = await logOf(page);
    await page.close();
    expectSameTimeline(shown, final, { errors, log });
  });

  it('the write page replays its call to the result, and again after "Restart"', async () => {
    const recorded = decodeTranscript(
      readFileSync(join(root, 'examples/transcripts/write-call.jsonl'), 'utf8'),
    ).map((entry) => entry.event);
    const call = recorded.find((e) => e.type === 'tool/call');
    const content = JSON.parse(String(call?.args)) as { file_path: string; content: string };
    const deltas = recorded.filter((e) => e.type === 'stream/tool-call-delta').length;
    const { page, errors } = await open('/write.html?speed=16');
    const shown = async () => {
      await page.waitForSelector('#stage[data-stage="result"]', { timeout: 30_000 });
      return page.evaluate(() => ({
        name: document.querySelector('#tool-name')?.textContent,
        path: document.querySelector('#tool-path')?.textContent,
        chars: document.querySelector('#tool-size')?.getAttribute('title'),
        result: document.querySelector('#tool-result')?.textContent,
        deltas: document.querySelector('#stat-deltas')?.textContent,
      }));
    };
    const first = await shown();
    expect(first).to.deep.equal({
      name: 'write',
      path: content.file_path,
      chars: `${content.content.length.toLocaleString('en')} characters`,
      result: 'Wrote 92160 bytes',
      deltas: deltas.toLocaleString('en'),
    });
    await page.click('#restart');
    await page.waitForSelector('#stage[data-stage="waiting"], #stage[data-stage="preparing"]');
    expect(await shown()).to.deep.equal(first);
    await page.close();
    expect(errors).to.deep.equal([]);
  });

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
    await screenshot(page, 'write-speed-100');
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
      if (bad === 'fast') await screenshot(page, 'write-speed-bad-390');
      await page.close();
      expect(state).to.include({ checked: '1', speed: '1', shown: true, role: 'alert' });
      expect(state.text).to.include(`speed=${bad}`);
      expect(errors).to.deep.equal([]);
    });
  }

  /** Live mode on a page whose replay ended, against a fake OpenAI-compatible endpoint. */
  async function liveMode(page: Page, errors: readonly string[]): Promise<void> {
    const requests: { url: string; headers: IncomingHttpHeaders; body: string }[] = [];
    const sse = readFileSync(
      join(root, 'test/fixtures/openai-chat-completions/parallel-write.sse'),
      'utf8',
    );
    const endpoint: Server = createServer((request, response) => {
      const cors = {
        'access-control-allow-origin': '*',
        'access-control-allow-headers': 'authorization, content-type',
      };
      if (request.method === 'OPTIONS') return void response.writeHead(204, cors).end();
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        requests.push({ url: request.url ?? '', headers: request.headers, body });
        response.writeHead(200, { ...cors, 'content-type': 'text/event-stream' });
        response.end(sse);
      });
    });
    endpoint.listen(0, '127.0.0.1');
    await new Promise((resolve) => endpoint.once('listening', resolve));
    const { port } = endpoint.address() as AddressInfo;
    try {
      await page.evaluate(() => {
        (document.querySelector('#live') as HTMLDetailsElement).open = true;
      });
      await page.$eval(
        '#live-base',
        (input, url) => {
          (input as HTMLInputElement).value = url;
        },
        `http://127.0.0.1:${port}/v1`,
      );
      await page.$eval('#live-model', (input) => {
        (input as HTMLInputElement).value = 'test-model';
      });
      await page.type('#live-key', 'sk-demo-key');
      const prompt = await page.$eval(
        '#live-prompt',
        (area) => (area as HTMLTextAreaElement).value,
      );
      await page.click('#live-start');
      await finished(page);
      const shown = await page.evaluate(readTimeline, '#timeline');
      const stored = await page.evaluate(() => [
        localStorage.length,
        sessionStorage.length,
        document.cookie,
      ]);
      expect(errors).to.deep.equal([]);
      expect(requests).to.have.length(1);
      expect(requests[0]?.url).to.equal('/v1/chat/completions');
      expect(requests[0]?.headers.authorization).to.equal('Bearer sk-demo-key');
      const sent = JSON.parse(requests[0]?.body ?? '{}');
      expect(sent).to.include({ model: 'test-model', stream: true });
      expect(stored).to.deep.equal([0, 0, '']);
      // The live turn starts with the form's prompt, on turn/start, shown as its separator.
      expect(prompt).to.not.equal('');
      expect(shown.items[0]).to.deep.equal({ turn: prompt.replace(/\s+/g, ' ').trim() });
      const rows = shown.items.flatMap((item) => ('rows' in item ? item.rows : []));
      expect(rows.map((row) => [row.title, row.stage])).to.deep.equal([
        ['Read', 'result'],
        ['Bash', 'result'],
        ['Write', 'result'],
      ]);
    } finally {
      endpoint.closeAllConnections();
      await new Promise((resolve) => endpoint.close(resolve));
    }
  }
});
