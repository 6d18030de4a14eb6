/**
 * `TimelineChunks` (elements/internal/timeline-chunks.ts), for any sequence of publications
 * (appends, the live item replaced, older pages in front, items removed or replaced in the
 * middle): the chunks hold exactly the items in order, no chunk exceeds its size, keys are
 * unique, and a chunk wholly inside the unchanged ends stays the same object.
 */
import { expect } from '@open-wc/testing';
import fc from 'fast-check';
import {
  type Chunk,
  itemKey,
  TimelineChunks,
  type TimelineItem,
} from '../../elements/internal/timeline-chunks.js';
import { Assembler } from '../../src/conversation/assembler.js';
import type { SessionEvent } from '../../src/events/types.js';
import { liveWriteBatches } from '../assembler/support/events.js';
import { describe, it } from '../harness.js';

let next = 0;
const item = (): TimelineItem =>
  ({ kind: 'group', id: `g${next++}`, tools: [] }) as unknown as TimelineItem;
const replaced = (old: TimelineItem): TimelineItem => ({ ...old }) as TimelineItem;

type Step =
  | { op: 'append'; n: number }
  | { op: 'replaceLast' }
  | { op: 'prepend'; n: number }
  | { op: 'replaceAt'; at: number }
  | { op: 'removeAt'; at: number; n: number }
  | { op: 'insertAt'; at: number; n: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ op: fc.constant('append' as const), n: fc.integer({ min: 1, max: 40 }) }),
  fc.record({ op: fc.constant('replaceLast' as const) }),
  fc.record({ op: fc.constant('prepend' as const), n: fc.integer({ min: 1, max: 40 }) }),
  fc.record({ op: fc.constant('replaceAt' as const), at: fc.nat() }),
  fc.record({
    op: fc.constant('removeAt' as const),
    at: fc.nat(),
    n: fc.integer({ min: 1, max: 5 }),
  }),
  fc.record({
    op: fc.constant('insertAt' as const),
    at: fc.nat(),
    n: fc.integer({ min: 1, max: 5 }),
  }),
);

function apply(items: readonly TimelineItem[], s: Step): TimelineItem[] {
  const list = [...items];
  const fresh = (n: number) => Array.from({ length: n }, item);
  const at = list.length === 0 ? 0 : ('at' in s ? s.at : 0) % list.length;
  switch (s.op) {
    case 'append':
      return [...list, ...fresh(s.n)];
    case 'replaceLast':
      if (list.length > 0) list[list.length - 1] = replaced(list[list.length - 1] as TimelineItem);
      return list;
    case 'prepend':
      return [...fresh(s.n), ...list];
    case 'replaceAt':
      if (list.length > 0) list[at] = replaced(list[at] as TimelineItem);
      return list;
    case 'removeAt':
      list.splice(at, s.n);
      return list;
    case 'insertAt':
      list.splice(at, 0, ...fresh(s.n));
      return list;
    default:
      return s satisfies never;
  }
}

describe('TimelineChunks', () => {
  it('for any publications: the items in order, chunks of at most 8, unique keys, unchanged ends keep their chunk objects', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 30 }), (steps) => {
        const chunks = new TimelineChunks(8, 3);
        let items: TimelineItem[] = [];
        for (const s of steps) {
          const before = new Map<Chunk, { start: number; end: number }>();
          let at = 0;
          for (const chunk of chunks.chunks) {
            before.set(chunk, { start: at, end: at + chunk.items.length });
            at += chunk.items.length;
          }
          const old = items;
          items = apply(items, s);
          chunks.update(items);
          const flat = chunks.chunks.flatMap((chunk) => chunk.items);
          expect(flat.length).to.equal(items.length);
          flat.forEach((x, i) => {
            expect(x).to.equal(items[i]);
          });
          for (const chunk of chunks.chunks) {
            expect(chunk.items.length).to.be.within(1, 8);
            expect(chunk.key).to.equal(itemKey(chunk.items[0] as TimelineItem));
          }
          expect(new Set(chunks.chunks.map((c) => c.key)).size).to.equal(chunks.chunks.length);
          // The sections hold the chunks in order, at most 3 each, keyed by their first.
          expect(chunks.sections.flatMap((section) => section.items)).to.deep.equal([
            ...chunks.chunks,
          ]);
          for (const section of chunks.sections) {
            expect(section.items.length).to.be.within(1, 3);
            expect(section.key).to.equal((section.items[0] as Chunk).key);
          }
          expect(chunks.waiting).to.equal(chunks.chunks.filter((c) => !c.rendered).length);
          // A chunk whose items all sit in the unchanged prefix stays the same object, but
          // for a short one right before the change, which takes the added items.
          let prefix = 0;
          while (prefix < Math.min(old.length, items.length) && old[prefix] === items[prefix]) {
            prefix++;
          }
          for (const [chunk, range] of before) {
            const absorbs = range.end === prefix && chunk.items.length < 8;
            if (range.end <= prefix && !absorbs) expect(chunks.chunks).to.include(chunk);
          }
        }
      }),
      { numRuns: 200 },
    );
  });

  it('appending and replacing the last item re-cut only the last chunk (the others stay the same objects)', () => {
    const chunks = new TimelineChunks(4);
    let items = Array.from({ length: 10 }, item);
    chunks.update(items);
    const [first, second] = chunks.chunks;
    items = [...items.slice(0, -1), replaced(items.at(-1) as TimelineItem), item()];
    chunks.update(items);
    expect(chunks.chunks[0]).to.equal(first);
    expect(chunks.chunks[1]).to.equal(second);
    expect(chunks.removed.length).to.equal(1);
    expect(chunks.added.length).to.equal(2);
  });

  it('a chunk re-cut from a rendered one is rendered; an older page in front keeps the chunks behind it', () => {
    const chunks = new TimelineChunks(4);
    let items = Array.from({ length: 8 }, item);
    chunks.update(items);
    for (const chunk of chunks.chunks) chunks.render(chunk);
    const kept = [...chunks.chunks];
    items = [...Array.from({ length: 3 }, item), ...items];
    chunks.update(items);
    expect(chunks.chunks.slice(-2)).to.deep.equal(kept);
    expect(chunks.chunks.slice(-2).every((c, i) => c === kept[i])).to.be.true;
    expect(chunks.chunks[0]?.rendered).to.be.false;
    items = [...items.slice(0, 5), item(), ...items.slice(5)];
    chunks.update(items);
    const flat = chunks.chunks.flatMap((c) => c.items);
    expect(flat).to.deep.equal(items);
    for (const chunk of chunks.chunks) {
      if (chunk.items.some((x) => items.indexOf(x) >= 3)) expect(chunk.rendered).to.be.true;
    }
  });

  // Failed before: one chunk per append.
  it('items appended one at a time fill chunks and sections to their size', () => {
    const chunks = new TimelineChunks(4, 3);
    const items: TimelineItem[] = [];
    for (let i = 0; i < 50; i++) {
      items.push(item());
      chunks.update([...items]);
    }
    expect(chunks.chunks.map((c) => c.items.length)).to.deep.equal([...Array(12).fill(4), 2]);
    expect(chunks.sections.map((c) => c.items.length)).to.deep.equal([3, 3, 3, 3, 1]);
  });

  it("a call streaming below 10,000 calls: each update compares no item and re-cuts one chunk and one section (negative control: a copy of the items, without the Builder's record, compares every item)", () => {
    const log: SessionEvent[] = [];
    let seq = 1;
    for (let call = 0; call < 10_000; call++) {
      const callId = `c${call}`;
      if (call % 3 === 0) {
        log.push({
          type: 'assistant/message',
          seq: seq++,
          messageId: `m${call}`,
          attemptId: `a${call}`,
          blocks: [{ type: 'text', text: `step ${call}` }],
        });
      }
      log.push({ type: 'tool/call', seq: seq++, callId, name: 'Read', args: '{"file_path":"/a"}' });
      log.push({ type: 'tool/result', seq: seq++, callId, output: 'done' });
    }
    const assembler = new Assembler({ now: () => 1_000 });
    assembler.push(log);
    const recorded = new TimelineChunks(32);
    const copied = new TimelineChunks(32);
    let items = assembler.publish().items;
    recorded.update(items);
    copied.update([...items]);
    const total = items.length;
    expect(total).to.be.above(6_000);
    const text = JSON.stringify({ file_path: '/src/live.ts', content: 'x'.repeat(8192) });
    const work = { recorded: [] as number[], copied: [] as number[], recut: [] as number[] };
    for (const batch of liveWriteBatches(text, 512)) {
      assembler.push(batch);
      const published = assembler.publish();
      // Read as a row does: the size, per KiB (so the live node changes once per KiB).
      published.tools.get('live')?.args.stringLength('content', { step: 1024 });
      const next = published.items;
      if (next === items) continue;
      items = next;
      const chunks = [...recorded.chunks];
      const sections = [...recorded.sections];
      recorded.update(items);
      copied.update([...items]);
      work.recorded.push(recorded.compared);
      work.copied.push(copied.compared);
      work.recut.push(
        recorded.chunks.filter((c) => !chunks.includes(c)).length +
          recorded.sections.filter((s) => !sections.includes(s)).length,
      );
    }
    expect(work.recorded.length).to.be.at.least(8);
    expect(Math.max(...work.recorded)).to.equal(0);
    expect(Math.max(...work.recut)).to.be.at.most(4);
    expect(Math.min(...work.copied)).to.be.at.least(total - 2);
    expect(recorded.chunks.flatMap((c) => c.items)).to.deep.equal([...items]);
  });
});
