import { expect } from 'chai';
import fc from 'fast-check';
import { cutPrefix } from '../../src/internal/cut-prefix.js';
import { prefixesOf } from '../../src/tools/detail-text.js';
import { describe, it } from '../harness.js';

const isHigh = (unit: number) => unit >= 0xd800 && unit <= 0xdbff;
const isLow = (unit: number) => unit >= 0xdc00 && unit <= 0xdfff;

describe('cutPrefix (shared by the argument reader and the group details)', () => {
  it('cuts any text to at most `units` units, one less only to keep a surrogate pair whole', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.nat({ max: 40 }), (text, units) => {
        const prefix = cutPrefix(text, units, false);
        expect(text.startsWith(prefix)).to.equal(true);
        expect(prefix.length).to.be.at.most(units);
        const splitsPair =
          prefix.length > 0 &&
          isHigh(prefix.charCodeAt(prefix.length - 1)) &&
          isLow(text.charCodeAt(prefix.length));
        expect(splitsPair).to.equal(false);
        expect(prefix.length).to.be.at.least(Math.min(text.length, units) - 1);
        // The group details read prefixes through the same cut.
        expect(prefixesOf(text)(units)).to.equal(prefix);
      }),
    );
  });

  it('holds back a trailing high surrogate while the text may continue', () => {
    expect(cutPrefix('ab\ud83d', 10, true)).to.equal('ab');
    expect(cutPrefix('ab\ud83d', 10, false)).to.equal('ab\ud83d');
    expect(cutPrefix('a\ud83d\ude00b', 2, false)).to.equal('a');
    expect(cutPrefix('a\ud83d\ude00b', 3, false)).to.equal('a\ud83d\ude00');
  });
});
