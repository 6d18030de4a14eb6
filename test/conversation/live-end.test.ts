/**
 * A call or response starting at the live end, and an attempt settling, cost what changed,
 * not the session: the Assembler puts the Contexts they open (or move) in order at the end
 * of its order without sorting the rest, and hands its compose step the nodes dropped and
 * appended at the end; the Builder regroups only those (and the group they continue) and
 * appends them to the tools map. Work is counted (Contexts ordered or listed, nodes the
 * Builder visited, map entries copied), never timed; every publication is compared with a
 * full rebuild's.
 */
import { expect } from 'chai';
import { assemblerProbe } from '../../src/assembler/probe.js';
import { Assembler } from '../../src/conversation/assembler.js';
import type { CallfoldEvent, MessageBlock, SessionEvent } from '../../src/events/types.js';
import { groupProbe } from '../../src/tools/probe.js';
import {
  call,
  conversationShape,
  message,
  NOW,
  result,
  settle,
  settledLog,
  textDelta,
  toolDelta,
} from '../assembler/support/events.js';
import { describe, it } from '../harness.js';

/** `tools` settled calls in groups of 1–4 with assistant text between. */
const settled = settledLog;

interface Attempt {
  /** Stream batches, one publication each. */
  readonly batches: CallfoldEvent[][];
  /** The durable message and calls (none for an attempt retried), then the settle and results. */
  readonly end: CallfoldEvent[];
  readonly callIds: readonly string[];
}

/**
 * One attempt at the live end: optional text, then `calls` calls whose arguments stream in
 * 8-character deltas (a few publications each); durable unless `retried` (its Contexts then
 * lose every Match at the settle).
 */
function attempt(
  id: string,
  seq: number,
  calls: number,
  options: { text?: boolean; retried?: boolean } = {},
): Attempt {
  const stream: CallfoldEvent[] = [];
  const blocks: MessageBlock[] = [];
  if (options.text) {
    stream.push(textDelta(id, 0, 'Looking at '), textDelta(id, 0, 'the files.'));
    blocks.push({ type: 'text', text: 'Looking at the files.' });
  }
  const callIds: string[] = [];
  for (let c = 0; c < calls; c++) {
    const callId = `${id}_call${c}`;
    callIds.push(callId);
    const args = JSON.stringify({ file_path: `/src/${callId}.ts`, content: 'x'.repeat(40) });
    for (let at = 0; at < args.length; at += 8) {
      const name = at === 0 ? 'Write' : undefined;
      stream.push(toolDelta(id, c + 1, callId, args.slice(at, at + 8), name));
    }
    blocks.push({ type: 'tool-use', callId, name: 'Write', argsText: args });
  }
  const batches: CallfoldEvent[][] = [];
  for (let at = 0; at < stream.length; at += 5) batches.push(stream.slice(at, at + 5));
  const end: CallfoldEvent[] = [];
  if (!options.retried) {
    end.push(message(seq++, id, blocks));
    for (const [c, callId] of callIds.entries()) {
      end.push(
        call(
          seq++,
          callId,
          'Write',
          (blocks[c + (options.text ? 1 : 0)] as { argsText: string }).argsText,
        ),
      );
    }
  }
  end.push(settle(id));
  if (!options.retried) for (const callId of callIds) end.push(result(seq++, callId, 'ok'));
  return { batches, end, callIds };
}

const work = () =>
  assemblerProbe.ordered + assemblerProbe.listed + groupProbe.composed + groupProbe.toolEntries;

/** The work of the first publication of a new call, and of the publication of its settle. */
function liveEndWork(tools: number): { first: number; settle: number } {
  const assembler = new Assembler({ now: () => NOW });
  const log = settled(tools);
  assembler.push(log);
  assembler.publish();
  // One attempt before the one measured: its settle leaves the end as a session's would.
  let seq = log.length + 1;
  for (const id of ['w0', 'w1']) {
    const { batches, end } = attempt(id, seq, 1);
    seq += 10;
    let before = work();
    assembler.push(batches[0] as CallfoldEvent[]);
    assembler.publish();
    const first = work() - before;
    for (const batch of batches.slice(1)) {
      assembler.push(batch);
      assembler.publish();
    }
    assembler.push(end);
    before = work();
    assembler.publish();
    if (id === 'w1') return { first, settle: work() - before };
  }
  throw new Error('unreachable');
}

/**
 * Publishes `assembler`, checks the publication against a fresh Assembler given `all` in one
 * push, and returns the work the publication counted.
 */
function publishAgainstRebuild(assembler: Assembler, all: readonly CallfoldEvent[]): number {
  const before = work();
  const published = assembler.publish();
  const counted = work() - before;
  const rebuilt = new Assembler({ now: () => NOW });
  rebuilt.push(all);
  expect(conversationShape(published)).to.deep.equal(conversationShape(rebuilt.publish()));
  return counted;
}

describe('a call starting and settling at the live end costs what changed', () => {
  // Failed before: each sorted and listed every Context and regrouped every node.
  it('with 2,000 settled tools, the first publication of a new call and that of its settle sort nothing and visit a few nodes', () => {
    const large = liveEndWork(2_000);
    const small = liveEndWork(100);
    expect(large.first).to.be.at.most(32);
    expect(large.settle).to.be.at.most(32);
    expect(large.first).to.be.at.most(small.first + 8);
    expect(large.settle).to.be.at.most(small.settle + 8);
  });

  // Failed before: dropping that never-opened Context sorted and listed every Context.
  it('an attempt whose only Match for its response is a block end (its deltas never named the tool) settles without sorting', () => {
    const assembler = new Assembler({ now: () => NOW });
    const all: CallfoldEvent[] = [...settled(2_000)];
    assembler.push(all);
    assembler.publish();
    const live: CallfoldEvent[] = [
      toolDelta('n', 0, 'cn', '{"file_path":'),
      toolDelta('n', 0, 'cn', '"/a.ts"}'),
      {
        type: 'stream/block-end',
        attemptId: 'n',
        block: 0,
        callId: 'cn',
        text: '{"file_path":"/a.ts"}',
      },
    ];
    assembler.push(live);
    all.push(...live);
    assembler.publish();
    assembler.push(settle('n'));
    all.push(settle('n'));
    expect(publishAgainstRebuild(assembler, all)).to.be.at.most(32);
  });

  // Failed before: 7,338 and 5,338 units of counted work after 2,000 settled tools.
  it('a call named after its first delta, and a response whose text follows its first call, publish their node a publication later without listing every node', () => {
    const cases: [CallfoldEvent, CallfoldEvent][] = [
      [toolDelta('n', 0, 'cn', '{"file_path":'), toolDelta('n', 0, 'cn', '"/a.ts"}', 'Read')],
      [toolDelta('n', 0, 'cn', '{"file_path":"/a.ts"}', 'Read'), textDelta('n', 1, 'Now')],
    ];
    for (const [first, second] of cases) {
      const assembler = new Assembler({ now: () => NOW });
      const all: CallfoldEvent[] = [...settled(2_000), first];
      assembler.push(all);
      assembler.publish();
      assembler.push(second);
      all.push(second);
      expect(publishAgainstRebuild(assembler, all)).to.be.at.most(32);
    }
    // Contexts placed since the last publication stay in the appended tail: 100 new calls
    // pushed at once cost about them, not a sort of every Context (which a repair from the
    // first of them, more than 64 from the end, would be).
    const assembler = new Assembler({ now: () => NOW });
    assembler.push(settled(2_000));
    assembler.publish();
    const calls: SessionEvent[] = [];
    for (let i = 0; i < 100; i++)
      calls.push(call(100_000 + i, `n${i}`, 'Read', '{"file_path":"/a"}'));
    assembler.push(calls);
    const before = work();
    assembler.publish();
    expect(work() - before).to.be.at.most(400);
  });

  it('(negative control) a settle whose Contexts are farther from the end than the repair looks sorts and lists every Context, and the count shows it', () => {
    const assembler = new Assembler({ now: () => NOW });
    assembler.push(settled(2_000));
    assembler.publish();
    const { batches, end } = attempt('early', 100_000, 1);
    for (const batch of batches) {
      assembler.push(batch);
      assembler.publish();
    }
    // 100 calls (200 Contexts with their messages) opened after the live one, then its settle.
    let seq = 200_000;
    const later: SessionEvent[] = [];
    for (let i = 0; i < 100; i++) {
      later.push(message(seq++, `later${i}`, [{ type: 'text', text: `later ${i}` }]));
      later.push(call(seq++, `later_c${i}`, 'Read', '{"file_path":"/a.ts"}'));
    }
    assembler.push(later);
    assembler.publish();
    assembler.push(end);
    const before = work();
    assembler.publish();
    expect(work() - before).to.be.at.least(2_000);
  });

  it('every publication equals a full rebuild through calls, parallel calls, text, retried attempts and settles; items and tools that did not change stay the same objects', () => {
    const assembler = new Assembler({ now: () => NOW });
    const all: CallfoldEvent[] = [...settled(40)];
    assembler.push(all);
    let previous = assembler.publish();
    let seq = 1_000;
    const plan: { calls: number; text?: boolean; retried?: boolean }[] = [
      { calls: 1 },
      { calls: 1 },
      { calls: 3, text: true },
      { calls: 2, retried: true },
      { calls: 1, text: true },
      { calls: 0, text: true },
      { calls: 2 },
      { calls: 1, retried: true },
      { calls: 4, text: true },
    ];
    let publications = 0;
    for (const [n, step] of plan.entries()) {
      const { batches, end, callIds } = attempt(`p${n}`, seq, step.calls, step);
      seq += 20;
      for (const events of [...batches, end]) {
        assembler.push(events);
        all.push(...events);
        const published = assembler.publish();
        publications++;
        const rebuilt = new Assembler({ now: () => NOW });
        rebuilt.push(all);
        expect(conversationShape(published)).to.deep.equal(conversationShape(rebuilt.publish()));
        // Every item but the last three (the live attempt's response and group, and the
        // group it may continue) is the object published before, at the same index.
        for (let i = 0; i < previous.items.length - 3; i++) {
          expect(published.items[i]).to.equal(previous.items[i]);
        }
        for (const [callId, tool] of previous.tools) {
          if (!callIds.includes(callId)) expect(published.tools.get(callId)).to.equal(tool);
        }
        previous = published;
      }
    }
    expect(publications).to.be.greaterThan(30);
  });
});

/**
 * Map entries copied per publication while `calls` calls stream one after another (a few
 * publications each, then the durable message and call, the settle and the result) after
 * `tools` settled ones; of the last `last` calls.
 */
function entriesWhileCallsStream(tools: number, calls: number, last: number): number[] {
  const assembler = new Assembler({ now: () => NOW });
  const log = settled(tools);
  assembler.push(log);
  assembler.publish();
  let seq = log.length + 1;
  const entries: number[] = [];
  for (let k = 0; k < calls; k++) {
    const { batches, end, callIds } = attempt(`s${k}`, seq, 1);
    seq += 10;
    for (const events of [...batches, end]) {
      assembler.push(events);
      const before = groupProbe.toolEntries;
      const published = assembler.publish();
      published.tools.get(callIds[0] as string)?.args.stringLength('content');
      if (k >= calls - last) entries.push(groupProbe.toolEntries - before);
    }
  }
  return entries;
}

const median = (list: readonly number[]) =>
  [...list].sort((a, b) => a - b)[list.length >> 1] as number;
const mean = (list: readonly number[]) => list.reduce((a, b) => a + b, 0) / list.length;

describe('the tools map while calls stream and settle one after another', () => {
  // Failed before: each call left its entry in an overlay every publication copied, median 15–20, a fold of all 2,000 every ~45 calls.
  it('after 300 calls on 2,000 settled tools, a publication copies a few map entries', () => {
    const entries = entriesWhileCallsStream(2_000, 300, 100);
    expect(median(entries)).to.be.at.most(4);
    expect(mean(entries)).to.be.at.most(10);
  });

  it('(negative control) results of old calls, far from the live end, each replace an entry in the overlay, which every publication copies: the count grows with them', () => {
    const assembler = new Assembler({ now: () => NOW });
    const log = settled(2_000).filter((event) => event.type !== 'tool/result');
    assembler.push(log);
    assembler.publish();
    const entries: number[] = [];
    for (let i = 0; i < 40; i++) {
      assembler.push([result(100_000 + i, `c${i * 10}`, 'late')]);
      const before = groupProbe.toolEntries;
      assembler.publish();
      entries.push(groupProbe.toolEntries - before);
    }
    expect(entries[entries.length - 1]).to.be.at.least(30);
  });
});

describe('the order of the tools map after a settle far back', () => {
  // Failed before: the full rebuild kept the last map, in the old order.
  it('a settle farther back than the repair looks, whose calls were recorded in another order, lists the tools map in the new order', () => {
    const assembler = new Assembler({ now: () => NOW });
    const all: CallfoldEvent[] = [
      toolDelta('x', 0, 'c1', '{"file_path":"/a.ts"}', 'Read'),
      toolDelta('x', 1, 'c2', '{"file_path":"/b.ts"}', 'Read'),
      message(1, 'x', [
        { type: 'tool-use', callId: 'c1', name: 'Read', argsText: '{"file_path":"/a.ts"}' },
        { type: 'tool-use', callId: 'c2', name: 'Read', argsText: '{"file_path":"/b.ts"}' },
      ]),
      // The producer records c2 first: once the deltas are withdrawn, c2 opens before c1.
      call(2, 'c2', 'Read', '{"file_path":"/b.ts"}'),
      call(3, 'c1', 'Read', '{"file_path":"/a.ts"}'),
    ];
    for (let i = 0; i < 70; i++)
      all.push(call(10 + i, `later${i}`, 'Read', '{"file_path":"/c.ts"}'));
    assembler.push(all);
    const before = assembler.publish();
    expect([...before.tools.keys()].slice(0, 2)).to.deep.equal(['c1', 'c2']);
    all.push(settle('x'));
    assembler.push(settle('x'));
    const after = assembler.publish();
    const rebuilt = new Assembler({ now: () => NOW });
    rebuilt.push(all);
    expect([...after.tools.keys()].slice(0, 2)).to.deep.equal(['c2', 'c1']);
    expect(conversationShape(after)).to.deep.equal(conversationShape(rebuilt.publish()));
    // The nodes themselves did not change: the same objects, in the new order.
    expect(after.tools.get('c1')).to.equal(before.tools.get('c1'));
  });
});
