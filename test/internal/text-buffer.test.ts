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
});
