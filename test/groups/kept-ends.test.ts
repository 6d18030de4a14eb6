/**
 * `keptEnds` (src/groups/kept-ends.ts): for consecutive `items` arrays of one Builder, the
 * ends it reports are the same objects in both; for lists it did not publish one after the
 * other, it reports nothing. `commonEnds`, the fallback: the longest common ends by identity.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import type { SessionEvent } from '../../src/events/types.js';
import { commonEnds, keptEnds } from '../../src/groups/kept-ends.js';
import { describe, it } from '../harness.js';
import { assembler, toolDelta } from './support.js';

/** `rounds` settled rounds: assistant text and one or two calls with their results. */
function history(rounds: number, firstSeq: number, tag: string): SessionEvent[] {
  const log: SessionEvent[] = [];
  let seq = firstSeq;
  for (let round = 0; round < rounds; round++) {
    const ids = Array.from({ length: 1 + (round % 2) }, (_, i) => `${tag}${round}_${i}`);
    log.push({
      type: 'assistant/message',
      seq: seq++,
      messageId: `m${tag}${round}`,
      attemptId: `a${tag}${round}`,
      blocks: [{ type: 'text', text: `step ${round}` }],
    });
    for (const callId of ids) {
      log.push({ type: 'tool/call', seq: seq++, callId, name: 'Read', args: '{"file_path":"/a"}' });
      log.push({ type: 'tool/result', seq: seq++, callId, output: 'ok' });
    }
  }
  return log;
}

type Step = { op: 'prepend'; n: number } | { op: 'delta' } | { op: 'append' };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ op: fc.constant('prepend' as const), n: fc.integer({ min: 1, max: 12 }) }),
  fc.record({ op: fc.constant('delta' as const) }),
  fc.record({ op: fc.constant('append' as const) }),
);

describe('keptEnds', () => {
  it('for any appends, older pages in front and a call streaming at the end: the ends it reports are the same items in both publications', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 25 }), (steps) => {
        const older = history(30, 1, 'h');
        const session = assembler();
        let front = older.length - 20;
        session.push(older.slice(front));
        let previous = session.publish().items;
        let seq = 10_000;
        let appended = 0;
        let delta = 0;
        for (const s of steps) {
          if (s.op === 'prepend') {
            const start = Math.max(0, front - s.n);
            if (start === front) continue;
            session.prepend(older.slice(start, front));
            front = start;
          } else if (s.op === 'delta') {
            const part = delta === 0 ? '{"file_path":"/live.ts","content":"' : 'x'.repeat(600);
            session.push([toolDelta('live', 0, 'live', part, delta === 0 ? 'Write' : undefined)]);
            delta++;
          } else {
            const log = history(1, seq, `n${appended++}`);
            seq += log.length;
            session.push(log);
          }
          const published = session.publish();
          published.tools.get('live')?.args.stringLength('content', { step: 512 });
          const next = published.items;
          const ends = keptEnds(previous, next);
          if (ends !== undefined) {
            expect(ends.prefix + ends.suffix).to.be.at.most(Math.min(previous.length, next.length));
            for (let i = 0; i < ends.prefix; i++) expect(next[i]).to.equal(previous[i]);
            for (let i = 1; i <= ends.suffix; i++) {
              expect(next[next.length - i]).to.equal(previous[previous.length - i]);
            }
          }
          if (next !== previous) previous = next;
        }
      }),
      { numRuns: 100 },
    );
  });

  it('knows the ends of consecutive publications while a call streams, not of lists it did not publish one after the other', () => {
    const session = assembler();
    session.push(history(40, 1, 'h'));
    const lists = [session.publish().items];
    const content = '{"file_path":"/live.ts","content":"'.padEnd(4096, 'x');
    for (let at = 0; at < content.length; at += 512) {
      session.push([
        toolDelta('live', 0, 'live', content.slice(at, at + 512), at ? undefined : 'Write'),
      ]);
      const published = session.publish();
      published.tools.get('live')?.args.stringLength('content', { step: 512 });
      if (published.items !== lists.at(-1)) lists.push(published.items);
    }
    expect(lists.length).to.be.above(4);
    for (let i = 2; i < lists.length; i++) {
      const previous = lists[i - 1] as readonly unknown[];
      const next = lists[i] as readonly unknown[];
      // The live group, last, is the only item replaced.
      expect(keptEnds(previous, next)).to.deep.equal({ prefix: next.length - 1, suffix: 0 });
      expect(keptEnds(lists[i - 2] as readonly unknown[], next)).to.equal(undefined);
      expect(keptEnds(previous, [...next])).to.equal(undefined);
    }
  });

  it('commonEnds: for any two lists, the longest prefix and suffix of the same objects that do not overlap', () => {
    const objects = Array.from({ length: 4 }, (_, i) => ({ i }));
    const list = fc.array(fc.constantFrom(...objects), { maxLength: 12 });
    fc.assert(
      fc.property(list, list, (a, b) => {
        const { prefix, suffix } = commonEnds(a, b);
        const shorter = Math.min(a.length, b.length);
        expect(prefix + suffix).to.be.at.most(shorter);
        for (let i = 0; i < prefix; i++) expect(b[i]).to.equal(a[i]);
        for (let i = 1; i <= suffix; i++) expect(b[b.length - i]).to.equal(a[a.length - i]);
        // Longest: the next item at either end differs, or the ends would overlap.
        if (prefix < shorter) expect(b[prefix]).not.to.equal(a[prefix]);
        if (prefix + suffix < shorter) {
          expect(a[a.length - 1 - suffix]).not.to.equal(b[b.length - 1 - suffix]);
        }
      }),
      { numRuns: 300 },
    );
  });
});
