/**
 * The scanner counts a string's length as it indexes, once a length has been read. That path
 * must answer exactly what the lazy length cursor answers, for valid and invalid escapes cut
 * anywhere: a reader reading the length after every fragment is compared, prefix by prefix,
 * with a fresh reader that reads the same prefix once.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { PartialArguments } from '../../src/arguments/partial-arguments.js';
import { argumentProbe } from '../../src/arguments/probe.js';
import { describe, it } from '../harness.js';
import { fragment, show } from './support/json-text.js';

/** Raw pieces of JSON string content: plain text, every escape form, and a few bad ones. */
const validPiece = fc.oneof(
  fc.constantFrom('a', 'plain text ', 'é', 'ÿ', '→', '日本', '😀', '{[,:]}'),
  fc.constantFrom('\\"', '\\\\', '\\/', '\\b', '\\f', '\\n', '\\r', '\\t'),
  fc.constantFrom(
    '\\u0041',
    '\\u00e9',
    '\\u2192',
    '\\uD83D\\uDE00',
    '\\ud800',
    '\\udfff',
    '\\u001b',
  ),
);
const badPiece = fc.constantFrom('\\x', '\\u12G4', '\\u00', '\\', '\u0001', '\\U0041');

const content = (pieces: fc.Arbitrary<string>) =>
  fc.array(pieces, { maxLength: 40 }).map((parts) => parts.join(''));

function isValidJsonString(raw: string): boolean {
  try {
    JSON.parse(`"${raw}"`);
    return true;
  } catch {
    return false;
  }
}

/** Streams `text`, reading `stringLength('s')` after every fragment, checked against a fresh reader. */
function checkAgainstFresh(text: string, sizes: readonly number[]): PartialArguments {
  const reader = PartialArguments.streaming();
  let received = '';
  for (const piece of fragment(text, sizes)) {
    reader.append(piece);
    received += piece;
    const counted = reader.stringLength('s');
    const stepped = reader.stringLength('s', { step: 3 });
    const fresh = PartialArguments.streaming();
    fresh.append(received);
    const where = `after ${show(received)}`;
    expect(counted, `stringLength, ${where}`).to.equal(fresh.stringLength('s'));
    expect(stepped, `stringLength step 3, ${where}`).to.equal(fresh.stringLength('s', { step: 3 }));
    expect(reader.invalid === null, `invalid, ${where}`).to.equal(fresh.invalid === null);
  }
  return reader;
}

describe('PartialArguments counts a read string while indexing it', () => {
  it('valid escapes cut anywhere: each prefix answers what a fresh reader answers, and the end what JSON.parse says', () => {
    fc.assert(
      fc.property(
        content(validPiece),
        fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 6 }),
        (raw, sizes) => {
          const text = `{"s":"${raw}","after":1}`;
          const reader = checkAgainstFresh(text, sizes);
          const sealed = reader.seal(text);
          const expected = (JSON.parse(text) as { s: string }).s;
          expect(sealed.stringLength('s')).to.equal(expected.length);
          expect(sealed.text('s')).to.equal(expected);
          expect(sealed.value('after')).to.equal(1);
          expect(sealed.invalid).to.equal(null);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('bad escapes and control characters: the same answers as a fresh reader, and invalid exactly when JSON.parse throws', () => {
    fc.assert(
      fc.property(
        content(fc.oneof({ weight: 4, arbitrary: validPiece }, { weight: 1, arbitrary: badPiece })),
        fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 6 }),
        fc.boolean(),
        (raw, sizes, closed) => {
          const text = closed ? `{"s":"${raw}","after":1}` : `{"s":"${raw}`;
          const reader = checkAgainstFresh(text, sizes);
          const sealed = reader.seal(text);
          const lazy = PartialArguments.fromText(text);
          expect(sealed.stringLength('s'), show(text)).to.equal(lazy.stringLength('s'));
          // A length from offsets does not look for raw control characters; text() does.
          for (const view of [sealed, lazy]) {
            view.text('s');
            view.value('after');
          }
          const valid = closed && isValidJsonString(raw);
          expect(sealed.invalid === null, `invalid, ${show(text)}`).to.equal(valid);
          expect(lazy.invalid === null, `invalid (fresh), ${show(text)}`).to.equal(valid);
          // A lone backslash can escape the closing quote, so `after` is there only when valid.
          if (valid) expect(sealed.value('after')).to.equal(1);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('a string nobody reads is never counted, even while another key is read after every fragment', () => {
    const text = `{"s":"${'x\\n'.repeat(5000)}","t":"${'y\\t'.repeat(5000)}"}`;
    const before = argumentProbe.counted + argumentProbe.decoded;
    const reader = PartialArguments.streaming();
    for (const piece of fragment(text, [7])) {
      reader.append(piece);
      reader.stringLength('t');
    }
    const walked = argumentProbe.counted + argumentProbe.decoded - before;
    const tRaw = 'y\\t'.repeat(5000).length;
    expect(reader.stringLength('t')).to.equal(10000);
    expect(walked, 'only t is walked').to.be.at.most(tRaw);
    expect(walked, 't is walked').to.be.at.least(tRaw - 2);
  });
});
