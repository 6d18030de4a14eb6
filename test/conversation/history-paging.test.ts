/**
 * Loading a long session newest-first in pages ("scroll up for more") with a publication per
 * page costs what the page adds, not the session: the Assembler puts the Contexts a page
 * opens in order without sorting the rest and hands its compose step the nodes added at the
 * front, and the Builder groups only those (and the group they join) and prepends them to
 * the tools map. Work is counted (Contexts ordered or listed, nodes the Builder visited, map
 * entries copied), never timed; the Conversations are compared with a full rebuild's.
 */
import { expect } from 'chai';
import { projection, sessionLog, streamedWrite } from '../../bench/support/session-log.js';
import { NodeAssembler } from '../../src/assembler/node-assembler.js';
import { assemblerProbe } from '../../src/assembler/probe.js';
import { Assembler, defaultDefinitions } from '../../src/conversation/assembler.js';
import type { Conversation, ConversationNode } from '../../src/conversation/conversation.js';
import type { AssistantNode } from '../../src/definitions/assistant-definition.js';
import type { SessionEvent } from '../../src/events/types.js';
import { Builder } from '../../src/groups/builder.js';
import { keptEnds } from '../../src/groups/kept-ends.js';
import { internalProbe } from '../../src/internal/probe.js';
import { groupProbe } from '../../src/tools/probe.js';
import { NOW } from '../assembler/support/events.js';
import { describe, it } from '../harness.js';

const PAGE = 50;

type Publisher = {
  prepend(events: readonly SessionEvent[]): void;
  push(events: Parameters<Assembler['push']>[0]): void;
  publish(): Conversation;
};

/**
 * The default composition through a compose step of the caller's own: handed an array of
 * the nodes (kept in step by the NodeAssembler), not its internal list.
 */
function composingArrays(): Publisher {
  const builder = new Builder<AssistantNode>();
  return new NodeAssembler<ConversationNode, Conversation>({
    definitions: defaultDefinitions,
    compose: (nodes, changes) => {
      expect(Array.isArray(nodes)).to.equal(true);
      return builder.build(nodes, changes);
    },
    now: () => NOW,
  });
}

/** The default composition, with a compose step that ignores the changes it is told. */
function rebuilding(): Publisher {
  const builder = new Builder<AssistantNode>();
  return new NodeAssembler<ConversationNode, Conversation>({
    definitions: defaultDefinitions,
    compose: (nodes) => builder.build(nodes),
    now: () => NOW,
  });
}

const work = () =>
  assemblerProbe.ordered +
  assemblerProbe.listed +
  groupProbe.composed +
  groupProbe.toolEntries +
  internalProbe.moved;

/**
 * The work of each page, loaded newest-first with a publish per page; `read`: the `items` of
 * each publication are read too.
 */
function workPerPage(
  assembler: Publisher,
  pages: readonly SessionEvent[][],
  read = false,
): number[] {
  const perPage: number[] = [];
  for (const page of pages) {
    const before = work();
    assembler.prepend(page);
    const published = assembler.publish();
    if (read) expect(published.items.length).to.be.greaterThan(0);
    perPage.push(work() - before);
  }
  return perPage;
}

/** `log` cut in pages of `size`, newest first. */
function newestFirst(log: readonly SessionEvent[], size: number): SessionEvent[][] {
  const pages: SessionEvent[][] = [];
  for (let end = log.length; end > 0; end -= size)
    pages.push(log.slice(Math.max(0, end - size), end));
  return pages;
}

/** The mean work of the last tenth of the pages over that of the first tenth. */
function growth(perPage: readonly number[]): number {
  const tenth = Math.max(1, Math.floor(perPage.length / 10));
  const mean = (list: readonly number[]) => list.reduce((a, b) => a + b, 0) / list.length;
  return mean(perPage.slice(-tenth)) / mean(perPage.slice(0, tenth));
}

describe('history paging: a page with its publication costs what the page adds', () => {
  it('300 pages of 50 events newest-first: the last pages count no more work than the first', () => {
    const log = sessionLog(300 * PAGE);
    const perPage = workPerPage(new Assembler({ now: () => NOW }), newestFirst(log, PAGE));
    expect(Math.min(...perPage), 'each page orders and composes its own nodes').to.be.at.least(10);
    // The tools map merges its front segments as a binary counter: O(log tools) per entry.
    expect(growth(perPage)).to.be.at.most(2);
  });

  it('(negative control) reading the items after every page copies the whole list per page, as publishing a new array did, and fails the same check', () => {
    // What each page cost before a Grouping made its items array on first read: the copy
    // of every item (the work counted above includes the items copied).
    const log = sessionLog(300 * PAGE);
    const perPage = workPerPage(new Assembler({ now: () => NOW }), newestFirst(log, PAGE), true);
    expect(growth(perPage)).to.be.greaterThan(3);
  });

  it('(negative control) a compose step that ignores the changes regroups the whole session per page and fails the same check', () => {
    const log = sessionLog(300 * PAGE);
    const perPage = workPerPage(rebuilding(), newestFirst(log, PAGE));
    expect(growth(perPage)).to.be.greaterThan(8);
  });

  it('(negative control) pages that fill gaps between held events sort every Context, and the count shows it', () => {
    // Odd seqs first, then the even ones page by page: every page opens Contexts among the
    // held ones, which no front merge can place, so each publication sorts them all.
    const log = sessionLog(120 * PAGE);
    const assembler = new Assembler({ now: () => NOW });
    assembler.prepend(log.filter((e) => e.seq % 2 === 1));
    assembler.publish();
    const even = log.filter((e) => e.seq % 2 === 0);
    const before = assemblerProbe.ordered;
    const pages = newestFirst(even, PAGE);
    for (const page of pages) {
      assembler.prepend(page);
      assembler.publish();
    }
    expect((assemblerProbe.ordered - before) / pages.length).to.be.greaterThan(1_000);
    const batch = new Assembler({ now: () => NOW });
    batch.push(log);
    expect(projection(assembler.publish())).to.equal(projection(batch.publish()));
  });

  it('every paged publication equals a full rebuild, and the items after the front stay the same objects', () => {
    const log = sessionLog(40 * PAGE);
    // Uneven pages: a page often ends between a call and its result or inside a group.
    const sizes = [7, 50, 13, 1, 29, 3];
    const pages: SessionEvent[][] = [];
    for (let end = log.length, k = 0; end > 0; k++) {
      const size = sizes[k % sizes.length] as number;
      pages.push(log.slice(Math.max(0, end - size), end));
      end -= size;
    }
    const paged = new Assembler({ now: () => NOW });
    const rebuilt = rebuilding();
    let previous: Conversation | undefined;
    for (const page of pages) {
      paged.prepend(page);
      rebuilt.prepend(page);
      const [p, r] = [paged.publish(), rebuilt.publish()];
      expect(projection(p)).to.equal(projection(r));
      expect([...p.tools.keys()]).to.deep.equal([...r.tools.keys()]);
      if (previous) {
        // The older items are new; every item from the second of the last publication on is kept.
        const kept = previous.items.slice(1);
        expect(p.items.slice(p.items.length - kept.length)).to.deep.equal(kept);
        for (let i = 1; i <= kept.length; i++) {
          expect(p.items[p.items.length - i]).to.equal(kept[kept.length - i]);
        }
        for (const [callId, tool] of previous.tools) {
          if (p.tools.get(callId) !== tool) {
            // Only a tool of the front's group or one whose call arrived changes.
            expect(
              previous.items
                .slice(0, 1)
                .some((item) => item.kind === 'group' && item.tools.includes(tool)) ||
                tool.call === null,
            ).to.equal(true);
          }
        }
      }
      previous = p;
    }
    const batch = new Assembler({ now: () => NOW });
    batch.push(log);
    expect(projection(paged.publish())).to.equal(projection(batch.publish()));
  });

  it('publications whose items nobody read until later pages loaded still hold their own items', () => {
    const log = sessionLog(30 * PAGE);
    const paged = new Assembler({ now: () => NOW });
    const rebuilt = rebuilding();
    const published: { conversation: Conversation; expected: string; length: number }[] = [];
    for (const page of newestFirst(log, 23)) {
      paged.prepend(page);
      rebuilt.prepend(page);
      const expected = rebuilt.publish();
      published.push({
        conversation: paged.publish(),
        expected: projection(expected),
        length: expected.items.length,
      });
    }
    // Read oldest publication last: every later page changed the chunks it shares.
    for (const { conversation, expected, length } of published.reverse()) {
      expect(conversation.items.length).to.equal(length);
      expect(projection(conversation)).to.equal(expected);
      expect(Object.isFrozen(conversation.items)).to.equal(true);
      expect(conversation.items, 'the same array at each read').to.equal(conversation.items);
    }
  });

  it('keptEnds across publications nobody read: from the last items read, and from the publication just before', () => {
    // More items than a chunk (256) from the first page on: a shorter list is copied when
    // published, and counts as read.
    const log = sessionLog(60 * PAGE);
    const pages = [log.slice(-2_000), ...newestFirst(log.slice(0, -2_000), PAGE)];
    const assembler = new Assembler({ now: () => NOW });
    const check = (previous: readonly unknown[], next: readonly unknown[]) => {
      const ends = keptEnds(previous, next);
      expect(ends).to.not.equal(undefined);
      const { prefix, suffix } = ends as { prefix: number; suffix: number };
      expect(prefix + suffix).to.be.at.most(Math.min(previous.length, next.length));
      for (let i = 0; i < prefix; i++) expect(next[i]).to.equal(previous[i]);
      for (let i = 1; i <= suffix; i++) {
        expect(next[next.length - i]).to.equal(previous[previous.length - i]);
      }
      return suffix;
    };
    assembler.prepend(pages[0] as SessionEvent[]);
    let shown = assembler.publish().items;
    expect(shown.length).to.be.greaterThan(256);
    for (let k = 1; k + 2 < pages.length; k += 3) {
      assembler.prepend(pages[k] as SessionEvent[]);
      const skipped = assembler.publish();
      assembler.prepend(pages[k + 1] as SessionEvent[]);
      const unread = assembler.publish();
      assembler.prepend(pages[k + 2] as SessionEvent[]);
      const next = assembler.publish();
      // Read late: still the base of the publication after it.
      check(unread.items, next.items);
      // The view showed `shown`; two publications were skipped. Pages only add at the
      // front, so every item shown but the first is kept.
      expect(check(shown, next.items)).to.be.at.least(shown.length - 1);
      expect(keptEnds(skipped.items, next.items), 'neither read before nor just before').to.equal(
        undefined,
      );
      shown = next.items;
    }
  });

  it('a call streaming at the live end while older pages load: each publication equals a full rebuild, whether compose gets the internal list or arrays', () => {
    const log = sessionLog(20 * PAGE);
    const last = (log[log.length - 1] as SessionEvent).seq;
    const text = JSON.stringify({ file_path: '/src/live.ts', content: 'x'.repeat(4096) });
    const fragments: string[] = [];
    for (let i = 0; i < text.length; i += 16) fragments.push(text.slice(i, i + 16));
    const live = streamedWrite('live', 'w_live', fragments, text, last + 1);
    const paged = new Assembler({ now: () => NOW });
    const rebuilt = rebuilding();
    const arrays = composingArrays();
    let previous: Conversation[] = [];
    const publishAll = () => {
      const [p, r, q] = [paged.publish(), rebuilt.publish(), arrays.publish()];
      for (const c of [p, r, q]) {
        c.tools.get('w_live')?.args.stringLength('content', { step: 1 });
      }
      expect(projection(p)).to.equal(projection(r));
      expect(projection(q)).to.equal(projection(r));
      expect([...p.tools.keys()]).to.deep.equal([...r.tools.keys()]);
      // A node replaced is new in each (equal content could hide a stale node).
      const [pp, , pq] = previous;
      if (pp && pq) {
        const renewed = (now: Conversation, before: Conversation) =>
          now.tools.get('w_live') !== before.tools.get('w_live');
        expect(renewed(q, pq)).to.equal(renewed(p, pp));
      }
      previous = [p, r, q];
    };
    const pages = newestFirst(log, PAGE);
    let delta = 0;
    for (const [k, page] of pages.entries()) {
      // Odd pages: two publications of deltas alone (nodes replaced), then one of the page
      // (nodes added at the front); even pages: deltas and page in one publication.
      for (const half of [0, 8]) {
        for (const a of [paged, rebuilt, arrays]) {
          a.push(live.stream.slice(delta + half, delta + half + 8));
          if (k === 12 && half === 8) a.push([...live.durable, live.settle]);
        }
        if (k % 2 === 1) publishAll();
      }
      delta += 16;
      for (const a of [paged, rebuilt, arrays]) a.prepend(page);
      publishAll();
    }
    expect(paged.publish().tools.get('w_live')?.stage).to.equal('start');
  });
});
