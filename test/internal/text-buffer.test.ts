import { expect } from 'chai';
import fc from 'fast-check';
import { TextBuffer } from '../../src/internal/text-buffer.js';
import { describe, it } from '../harness.js';

describe("TextBuffer (the fragments an adapter keeps for a block's full text)", () => {
  it('gives the fragments joined, for any fragments, across any number of batches', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ maxLength: 3 }), { maxLength: TextBuffer.BATCH * 3 + 5 }),
        (fragments) => {
          const buffer = new TextBuffer();
          expect(buffer.empty).to.equal(true);
          for (const fragment of fragments) buffer.push(fragment);
          expect(buffer.text()).to.equal(fragments.join(''));
          expect(buffer.empty).to.equal(fragments.length === 0);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('is not empty once an empty fragment was pushed', () => {
    const buffer = new TextBuffer();
    buffer.push('');
    expect(buffer.empty).to.equal(false);
    expect(buffer.text()).to.equal('');
  });

  it('cuts the text pushed since the last cut, for any fragments and cuts, and still gives it all', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.string({ maxLength: 3 }), fc.boolean()), {
          maxLength: TextBuffer.BATCH * 2 + 5,
        }),
        (steps) => {
          const buffer = new TextBuffer();
          let since = '';
          for (const [fragment, cut] of steps) {
            buffer.push(fragment);
            since += fragment;
            if (!cut) continue;
            expect(buffer.cut()).to.equal(since);
            since = '';
          }
          expect(buffer.cut()).to.equal(since);
          expect(buffer.cut()).to.equal('');
          expect(buffer.text()).to.equal(steps.map(([fragment]) => fragment).join(''));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('hands the text since the last cut over as its own pieces, none longer than a batch, for any fragments and cuts of either kind', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.string({ maxLength: 3 }), fc.constantFrom('none', 'cut', 'pieces')), {
          maxLength: TextBuffer.BATCH * 3 + 5,
        }),
        (steps) => {
          const buffer = new TextBuffer();
          let since: string[] = [];
          for (const [fragment, take] of steps) {
            buffer.push(fragment);
            since.push(fragment);
            if (take === 'none') continue;
            if (take === 'cut') expect(buffer.cut()).to.equal(since.join(''));
            else {
              const pieces = buffer.pieces();
              expect(pieces.join('')).to.equal(since.join(''));
              // Every piece is non-empty and holds at most a batch of fragments.
              for (const piece of pieces) {
                expect(piece).to.not.equal('');
                expect(piece.length).to.be.at.most(TextBuffer.BATCH * 3);
              }
              expect(pieces.length).to.be.at.most(Math.ceil(since.length / TextBuffer.BATCH) + 1);
            }
            since = [];
          }
          expect(buffer.pieces().join('')).to.equal(since.join(''));
          expect(buffer.pieces()).to.deep.equal([]);
          expect(buffer.text()).to.equal(steps.map(([fragment]) => fragment).join(''));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('tells a blank text as trim() does, cut or not, across batches', () => {
    const blank = fc.constantFrom(' ', '\n', '\t', '\r', '\u00a0', '\u2028', '\ufeff', '');
    fc.assert(
      fc.property(
        fc.array(fc.oneof(blank, blank, fc.string({ maxLength: 2 })), {
          maxLength: TextBuffer.BATCH + 10,
        }),
        fc.nat(TextBuffer.BATCH + 10),
        (fragments, cutAt) => {
          const buffer = new TextBuffer();
          fragments.forEach((fragment, i) => {
            buffer.push(fragment);
            if (i === cutAt) buffer.cut();
          });
          expect(buffer.blank()).to.equal(fragments.join('').trim() === '');
        },
      ),
      { numRuns: 100 },
    );
  });
});
