import { expect } from 'chai';
import fc from 'fast-check';
import { jsonStringText } from '../../src/internal/json-string-text.js';
import { internalProbe } from '../../src/internal/probe.js';
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

  describe('decoded JSON string text (pushJsonString), escaped when read', () => {
    // Pieces of escapes, non-ASCII text and surrogate halves, so that pairs split between pieces.
    const unit = fc.constantFrom('a', ' ', '"', '\\', '\n', '\u0000', '\u00e9', '\ud83d', '\ude00');
    const piece = fc.array(unit, { maxLength: 4 }).map((units) => units.join(''));
    const step = fc.oneof(
      fc.record({ decoded: piece }),
      fc.record({ fragment: fc.string({ maxLength: 3 }) }),
      fc.constantFrom('cut', 'pieces', 'text', 'length', 'blank'),
    );

    it('reads as the pieces escaped one by one and pushed, for any pieces, fragments and reads between them', () => {
      fc.assert(
        fc.property(fc.array(step, { maxLength: TextBuffer.BATCH * 2 + 20 }), (steps) => {
          const lazy = new TextBuffer();
          const eager = new TextBuffer();
          for (const s of steps) {
            if (typeof s === 'object' && 'decoded' in s) {
              lazy.pushJsonString(s.decoded);
              eager.push(jsonStringText(s.decoded));
            } else if (typeof s === 'object') {
              lazy.push(s.fragment);
              eager.push(s.fragment);
            } else if (s === 'cut') expect(lazy.cut()).to.equal(eager.cut());
            else if (s === 'pieces') {
              expect(lazy.pieces().join('')).to.equal(eager.pieces().join(''));
            } else if (s === 'text') expect(lazy.text()).to.equal(eager.text());
            else if (s === 'length') expect(lazy.length).to.equal(eager.length);
            else expect(lazy.blank()).to.equal(eager.blank());
          }
          expect(lazy.empty).to.equal(eager.empty);
          expect(lazy.length).to.equal(eager.length);
          expect(lazy.text()).to.equal(eager.text());
        }),
        { numRuns: 150 },
      );
    });

    it('escapes a pair split between two pieces apart, as the pieces one by one (negative control: the pieces joined, then escaped, keep the pair)', () => {
      const buffer = new TextBuffer();
      buffer.pushJsonString('a\ud83d');
      buffer.pushJsonString('\ude00"b');
      expect(buffer.text()).to.equal('a\\ud83d\\ude00\\"b');
      expect(buffer.text()).to.equal(jsonStringText('a\ud83d') + jsonStringText('\ude00"b'));
      // The check can tell: escaping the joined pieces would have kept the pair whole.
      expect(jsonStringText('a\ud83d\ude00"b')).to.equal('a\ud83d\ude00\\"b');
      // A pair whole in one piece stays whole, as JSON.stringify writes it.
      const whole = new TextBuffer();
      whole.pushJsonString('\ud83d\ude00');
      expect(whole.text()).to.equal('\ud83d\ude00');
    });

    it('escapes a batch of pieces at once (negative control: pushed escaped, one escape per piece)', () => {
      const pieces = Array.from({ length: 1000 }, (_, i) => `line ${i} "quoted"\n`);
      const before = internalProbe.escapes;
      const lazy = new TextBuffer();
      for (const piece of pieces) lazy.pushJsonString(piece);
      const text = lazy.text();
      const lazyEscapes = internalProbe.escapes - before;
      expect(lazyEscapes).to.be.at.most(Math.ceil(pieces.length / TextBuffer.BATCH));

      const eager = new TextBuffer();
      const from = internalProbe.escapes;
      for (const piece of pieces) eager.push(jsonStringText(piece));
      expect(internalProbe.escapes - from).to.equal(pieces.length);
      expect(eager.text()).to.equal(text);
      expect(JSON.parse(`"${text}"`)).to.equal(pieces.join(''));
    });
  });
});
