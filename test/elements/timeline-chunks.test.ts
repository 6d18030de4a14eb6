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
        const chunks = new TimelineChunks(8);
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
          // A chunk whose items all sit in the unchanged prefix stays the same object.
          let prefix = 0;
          while (prefix < Math.min(old.length, items.length) && old[prefix] === items[prefix]) {
            prefix++;
          }
          for (const [chunk, range] of before) {
            if (range.end <= prefix) expect(chunks.chunks).to.include(chunk);
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
    for (const chunk of chunks.chunks) chunk.rendered = true;
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
});
