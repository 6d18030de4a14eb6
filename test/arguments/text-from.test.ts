/**
 * `textFrom`: the reads an incremental scanner makes. Reading on from where the last answer
 * ended gives the decoded string piece by piece, for any fragmentation, and walks each
 * character once; any other start decodes from the string's start.
 */
import { expect } from 'chai';
import { PartialArguments } from '../../src/arguments/partial-arguments.js';
import { describe, it } from '../harness.js';
import { fragment } from './support/json-text.js';
import { work } from './support/work.js';

const value = 'line one\n\t"quoted" \\ back\u00e9 😀 end\n'.repeat(40);
const text = JSON.stringify({ path: 'a.ts', input: value, after: 1 });

/** Reads `input` on from the last answer after each fragment; returns the pieces joined. */
function scan(
  view: PartialArguments,
  fragments: readonly string[],
  units: number,
  expected: string | null = value,
): string {
  let read = '';
  for (const piece of fragments) {
    view.append(piece);
    for (;;) {
      const next = view.textFrom('input', read.length, units);
      if (next === undefined || next === '') break;
      read += next;
    }
    if (expected !== null) {
      expect(expected.startsWith(read), 'every answer continues the value').to.be.true;
    }
  }
  return read;
}

describe('PartialArguments.textFrom', () => {
  for (const sizes of [[1], [2, 3], [7], [64], [1, 5, 2, 11]]) {
    for (const units of [1, 5, 4096]) {
      it(`sequential reads give the decoded string (fragments ${sizes}, ${units} units a read)`, () => {
        const view = PartialArguments.streaming();
        expect(scan(view, fragment(text, sizes), units)).to.equal(value);
      });
    }
  }

  it('reads of a sealed, a parsed and an object view slice the value', () => {
    const sealed = PartialArguments.fromText(text);
    expect(sealed.textFrom('input', 9, 6)).to.equal('\t"quot');
    sealed.value('input');
    expect(sealed.textFrom('input', 9, 6)).to.equal('\t"quot');
    const object = PartialArguments.fromObject({ input: value });
    expect(object.textFrom('input', 9, 6)).to.equal('\t"quot');
    expect(object.textFrom('missing', 0, 6)).to.equal(undefined);
    expect(sealed.textFrom('after', 0, 6), 'not a string').to.equal(undefined);
  });

  it('any start works; past what arrived the answer is empty', () => {
    const view = PartialArguments.streaming();
    view.append(text.slice(0, 200));
    const open = JSON.parse(`${text.slice(0, 200).replace(/\\$/, '')}"}`).input as string;
    expect(view.textFrom('input', 20, 10)).to.equal(open.slice(20, 30));
    expect(view.textFrom('input', 3, 5)).to.equal(open.slice(3, 8));
    expect(view.textFrom('input', 10_000, 5)).to.equal('');
  });

  it('never shows half an escape or a lone high surrogate while open', () => {
    const emoji = JSON.stringify({ input: 'ab\\n😀c' });
    for (let cut = 1; cut < emoji.length; cut++) {
      const view = PartialArguments.streaming();
      view.append(emoji.slice(0, cut));
      let read = '';
      for (
        let next = view.textFrom('input', 0, 100);
        next;
        next = view.textFrom('input', read.length, 100)
      ) {
        read += next;
      }
      view.append(emoji.slice(cut));
      for (
        let next = view.textFrom('input', read.length, 100);
        next;
        next = view.textFrom('input', read.length, 100)
      ) {
        read += next;
      }
      expect(read, `cut at ${cut}`).to.equal('ab\\n😀c');
    }
  });

  it('reads nothing for change detection: refresh() sees no change', () => {
    const view = PartialArguments.streaming();
    view.append(text.slice(0, 100));
    view.textFrom('input', 0, 50);
    view.append(text.slice(100, 300));
    expect(view.refresh()).to.equal(false);
  });

  const bigValue = 'x = "a\\b";\n'.repeat(50_000);
  const big = JSON.stringify({ input: bigValue });
  const bigFragments = fragment(big, [64]);

  it('reading on after every fragment walks each character once', () => {
    const view = PartialArguments.streaming();
    const w = work(() => scan(view, bigFragments, 65_536, null));
    expect(w.result).to.equal(bigValue);
    expect(w.decoded, 'characters decoded').to.be.at.most(big.length);
  });

  it('reading on after every fragment walks each character once (negative control)', () => {
    // Reading from the start every time is what textFrom lets a scanner avoid.
    const view = PartialArguments.streaming();
    const w = work(() => {
      for (const piece of bigFragments.slice(0, 300)) {
        view.append(piece);
        view.textFrom('input', 0, 1 << 30);
      }
    });
    expect(w.decoded).to.be.above(300 * 64 * 100);
  });
});
