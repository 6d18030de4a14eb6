/**
 * How an ArgumentSource turns the fragments received between two reads into chunks: short
 * fragments are joined (thousands of 16-character deltas must not stay thousands of strings),
 * long ones (the batches `assemble()`'s direct path hands over) are kept as they are, never
 * copied. Whatever the mix, every answer is the one the whole text gives.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { PartialArguments } from '../../src/arguments/partial-arguments.js';
import { argumentProbe } from '../../src/arguments/probe.js';
import { ArgumentSource } from '../../src/arguments/source.js';
import { describe, it } from '../harness.js';
import { objectText } from './support/arbitraries.js';
import { topLevel } from './support/json-text.js';

/** `count` strings of `length` characters, each a distinct string. */
function strings(count: number, length: number): string[] {
  return Array.from({ length: count }, (_, i) => String.fromCharCode(97 + (i % 26)).repeat(length));
}

describe('ArgumentSource.join (the fragments received between two reads)', () => {
  // Failed before: joined into one chunk.
  it('keeps each fragment of 256 characters or more as a chunk of its own, the very string, copying none (negative control: 16-character fragments are joined into one chunk, each copied)', () => {
    const long = strings(5, 4096);
    const source = new ArgumentSource();
    const before = argumentProbe.joined;
    for (const piece of long) source.append(piece);
    expect(source.join()).to.equal(true);
    expect(source.chunkCount).to.equal(long.length);
    long.forEach((piece, i) => {
      expect(source.chunk(i)).to.equal(piece);
      expect(source.start(i)).to.equal(i * 4096);
    });
    expect(argumentProbe.joined - before).to.equal(0);

    const short = strings(1280, 16);
    const control = new ArgumentSource();
    for (const piece of short) control.append(piece);
    control.join();
    expect(control.chunkCount).to.equal(1);
    expect(control.chunk(0)).to.equal(short.join(''));
    expect(argumentProbe.joined - before).to.equal(short.length);
  });

  it('joins the short fragments between long ones, in order: a tail after the batches, a first delta before them', () => {
    const source = new ArgumentSource();
    const parts = ['{"a":"', ...strings(2, 300), 'x', 'y', ...strings(1, 256), 'z"}'];
    for (const part of parts) source.append(part);
    source.join();
    expect(source.chunkCount).to.equal(6);
    expect(source.slice(0, source.joined)).to.equal(parts.join(''));
    expect(source.chunk(3)).to.equal('xy');
  });

  it('answers what the whole text answers, for any object cut into any mix of short and long fragments read at any points', () => {
    const sizes = fc.array(
      fc.oneof(fc.integer({ min: 1, max: 20 }), fc.integer({ min: 256, max: 700 })),
      {
        minLength: 1,
        maxLength: 6,
      },
    );
    fc.assert(
      fc.property(
        objectText(6),
        sizes,
        fc.array(fc.boolean(), { minLength: 1, maxLength: 5 }),
        (text, cut, reads) => {
          const reader = PartialArguments.streaming();
          const keys = topLevel(text).members.map((member) => member.key);
          let at = 0;
          for (let n = 0; at < text.length; n++) {
            const size = cut[n % cut.length] as number;
            reader.append(text.slice(at, at + size));
            at += size;
            if (reads[n % reads.length]) for (const key of keys) reader.stringLength(key);
          }
          const whole = PartialArguments.fromText(text);
          const parsed = JSON.parse(text) as Record<string, unknown>;
          for (const key of keys) {
            expect(reader.value(key), key).to.deep.equal(parsed[key]);
            expect(reader.stringLength(key), key).to.equal(whole.stringLength(key));
          }
          expect(reader.complete()).to.equal(true);
        },
      ),
      { numRuns: 200 },
    );
  });
});
