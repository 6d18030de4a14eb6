/**
 * Durable events are identified and ordered by `seq` (DESIGN: Events, Assembler): one already
 * held is ignored, so pages may overlap; whatever the order of arrival, the log is in seq
 * order.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import type { SessionEvent } from '../../src/events/types.js';
import { describe, it } from '../harness.js';
import { project } from './support/driver.js';
import { assembler, call, message, outline, result, toolOf } from './support/events.js';
import { definitionsOption, observer, type Receipt, recording } from './support/recording.js';

function reads(n: number, from: number): SessionEvent[] {
  return Array.from({ length: n }, (_, i) => call(from + i, `c${from + i}`, 'read', '{}'));
}

function callIds(log: readonly SessionEvent[]): string[] {
  return log.flatMap((e) => (e.type === 'tool/call' ? [e.callId] : []));
}

describe('durable duplicates: a seq already held is ignored', () => {
  it('pushing an event whose seq is held changes nothing, even with other content', () => {
    const { assembler: a } = assembler();
    a.push([call(1, 'c1', 'read', '{"a":1}'), result(2, 'c1', 'first')]);
    const before = a.publish();
    a.push([
      call(1, 'c1', 'write', '{"a":2}'),
      result(2, 'c1', 'second'),
      call(1, 'c9', 'x', '{}'),
    ]);
    expect(a.publish()).to.equal(before);
    expect(toolOf(before, 'c1').result?.output).to.equal('first');
  });

  it('prepending an event whose seq is held is ignored: pages may overlap', () => {
    const { assembler: a } = assembler();
    a.push([call(5, 'c5', 'read', '{}'), result(6, 'c5', 'x')]);
    const before = a.publish();
    a.prepend([call(5, 'c5', 'write', '{"changed":true}'), result(6, 'c5', 'y')]);
    expect(a.publish()).to.equal(before);
    a.prepend([
      call(3, 'c3', 'read', '{}'),
      message(4, 'a1', [{ type: 'text', text: 'Hi' }]),
      call(5, 'c5', 'write', '{}'),
    ]);
    const after = a.publish();
    expect(outline(after)).to.deep.equal(['group:c3', 'assistant:a1', 'group:c5']);
    expect(toolOf(after, 'c5')).to.equal(toolOf(before, 'c5'));
  });

  it('pages that overlap by several events give the same Conversation as one push', () => {
    const log = [...reads(6, 1), result(7, 'c2', 'r2'), ...reads(3, 8), result(11, 'c9', 'r9')];
    const { assembler: once } = assembler();
    once.push(log);
    const { assembler: paged } = assembler();
    paged.prepend(log.slice(6));
    paged.prepend(log.slice(3, 8));
    paged.prepend(log.slice(0, 5));
    paged.prepend(log);
    expect(project(paged.publish())).to.deep.equal(project(once.publish()));
  });

  it('a page that repeats a seq folds it once, keeping the first, as push does', () => {
    const pushed = assembler().assembler;
    pushed.push([call(1, 'c1', 'read', '{"a":1}'), call(1, 'c1', 'read', '{"a":2}')]);
    expect(toolOf(pushed.publish(), 'c1').argsRaw).to.equal('{"a":1}');

    const receipts: Receipt[] = [];
    const { assembler: a } = assembler({
      definitions: definitionsOption(recording(observer, receipts)),
    });
    const twice = call(1, 'c1', 'read', '{"a":1}');
    a.prepend([twice, twice]);
    expect(receipts.length, 'folded once').to.equal(1);

    const paged = assembler().assembler;
    paged.prepend([call(1, 'c1', 'read', '{"a":1}'), call(1, 'c1', 'read', '{"a":2}')]);
    expect(toolOf(paged.publish(), 'c1').argsRaw).to.equal('{"a":1}');
  });
});

describe('durable placement: the log is in seq order whatever the arrival order', () => {
  it('a few events pushed out of order fall into place', () => {
    const { assembler: a } = assembler();
    a.push([call(1, 'c1', 'read', '{}'), call(9, 'c9', 'read', '{}')]);
    a.push(call(5, 'c5', 'read', '{}'));
    a.push(call(3, 'c3', 'read', '{}'));
    a.push(call(7, 'c7', 'read', '{}'));
    a.push(call(0, 'c0', 'read', '{}'));
    expect(outline(a.publish())).to.deep.equal(['group:c0,c1,c3,c5,c7,c9']);
  });

  it('older pages go below everything held, page after page', () => {
    const { assembler: a } = assembler();
    a.push(reads(3, 30));
    a.prepend(reads(3, 20));
    a.prepend(reads(3, 10));
    a.push(reads(2, 40));
    expect([...a.publish().tools.keys()]).to.deep.equal(
      callIds([...reads(3, 10), ...reads(3, 20), ...reads(3, 30), ...reads(2, 40)]),
    );
  });

  // Places between two held events are found by halving the gap; after ~52 halvings in one
  // gap a double can no longer tell the places apart.
  it('100 events pushed into the gap between two held seqs keep seq order', () => {
    const { assembler: a } = assembler();
    a.push([call(1, 'c1', 'read', '{}'), call(1000, 'c1000', 'read', '{}')]);
    a.push(reads(100, 2));
    const expected = callIds([
      call(1, 'c1', 'read', '{}'),
      ...reads(100, 2),
      call(1000, 'c1000', 'read', '{}'),
    ]);
    expect([...a.publish().tools.keys()]).to.deep.equal(expected);
  });

  it('a 100-event page that fills the gap between held seqs keeps seq order', () => {
    const { assembler: a } = assembler();
    a.push([call(1, 'c1', 'read', '{}'), call(1000, 'c1000', 'read', '{}')]);
    a.prepend(reads(100, 2));
    const expected = callIds([
      call(1, 'c1', 'read', '{}'),
      ...reads(100, 2),
      call(1000, 'c1000', 'read', '{}'),
    ]);
    expect([...a.publish().tools.keys()]).to.deep.equal(expected);
  });

  it('100 events pushed in descending seq order keep seq order', () => {
    const { assembler: a } = assembler();
    a.push(call(1000, 'c1000', 'read', '{}'));
    for (let seq = 999; seq >= 900; seq--) a.push(call(seq, `c${seq}`, 'read', '{}'));
    const keys = [...a.publish().tools.keys()];
    expect(keys).to.deep.equal([...keys].sort((x, y) => Number(x.slice(1)) - Number(y.slice(1))));
  });
});

describe('durable placement: exact for any arrival order', () => {
  const anchors = () => [call(1, 'c1', 'read', '{}'), call(1000, 'c1000', 'read', '{}')];

  // Failed before: halved places collided after ~45.
  it('60 late calls pushed one at a time with seq 159 down to 100 fold as in order', () => {
    const late = reads(60, 100);
    const inOrder = assembler().assembler;
    inOrder.push([...anchors().slice(0, 1), ...late, ...anchors().slice(1)]);
    const { assembler: a, errors } = assembler();
    a.push(anchors());
    for (const event of [...late].reverse()) a.push(event);
    expect(errors).to.deep.equal([]);
    expect(project(a.publish())).to.deep.equal(project(inOrder.publish()));
    expect([...a.publish().tools.keys()]).to.deep.equal([...inOrder.publish().tools.keys()]);
  });

  it('10,000 late events in one gap, in descending, zig-zag and shuffled order, keep seq order', () => {
    const late = reads(10_000, 2);
    const ends = [call(1, 'c1', 'read', '{}'), call(20_000, 'c20000', 'read', '{}')];
    const expected = callIds([ends[0] as SessionEvent, ...late, ends[1] as SessionEvent]);
    const zigzag = late.map((_, i) => late[i % 2 === 0 ? i / 2 : late.length - 1 - (i - 1) / 2]);
    let state = 7;
    const shuffled = [...late];
    for (let i = shuffled.length - 1; i > 0; i--) {
      state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
      const j = state % (i + 1);
      [shuffled[i], shuffled[j]] = [shuffled[j] as SessionEvent, shuffled[i] as SessionEvent];
    }
    for (const order of [[...late].reverse(), zigzag, shuffled]) {
      const { assembler: a } = assembler();
      a.push(ends);
      for (const event of order) a.push(event as SessionEvent);
      expect([...a.publish().tools.keys()]).to.deep.equal(expected);
    }
  });

  it('calls, results and messages arriving one at a time in any order give the in-order Conversation', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), fc.integer(), (pairs, seed) => {
        const log: SessionEvent[] = [];
        let seq = 1;
        for (let i = 0; i < pairs; i++) {
          if (i % 3 === 0) log.push(message(seq++, `a${i}`, [{ type: 'text', text: `t${i}` }]));
          log.push(call(seq++, `c${i}`, 'read', `{"file_path":"f${i}"}`));
          log.push(result(seq++, `c${i}`, `out${i}`));
        }
        const order = fc.sample(fc.shuffledSubarray(log, { minLength: log.length }), {
          seed,
          numRuns: 1,
        })[0] as SessionEvent[];
        const inOrder = assembler().assembler;
        inOrder.push(log);
        const { assembler: a, errors } = assembler();
        for (const [i, event] of order.entries()) {
          if (i % 4 === 3) a.prepend([event]);
          else a.push(event);
        }
        expect(errors).to.deep.equal([]);
        expect(project(a.publish())).to.deep.equal(project(inOrder.publish()));
      }),
      { numRuns: 200 },
    );
  });
});
