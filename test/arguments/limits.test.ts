/**
 * Sizes a model can produce and a recursive or eager reader cannot survive: a million nested
 * brackets, a 50 MiB string, a million escapes, a hundred thousand keys.
 *
 * Work is bounded by the probe counters (`argumentProbe`), never by the clock: a loaded machine
 * cannot fail these tests, and a reader that re-indexes what it received can (see the negative
 * control). Time per character is the benchmarks' business (`npm run bench:arguments`).
 */
import { expect } from 'chai';
import { PartialArguments } from '../../src/arguments/partial-arguments.js';
import { describe, it } from '../harness.js';
import { fragment } from './support/json-text.js';
import { work } from './support/work.js';

const KiB = 1024;
const MiB = 1024 * KiB;
const depth = 1_000_000;

function streamed(text: string, size: number, readEach?: (view: PartialArguments) => void) {
  const view = PartialArguments.streaming();
  for (const piece of fragment(text, [size])) {
    view.append(piece);
    readEach?.(view);
  }
  return view;
}

/** Each received character is indexed once, however often the view was read while it streamed. */
function expectIndexedOnce(scanned: number, text: string): void {
  expect(scanned, 'characters indexed').to.equal(text.length);
}

function expectDeepIndexed(view: PartialArguments, kind: 'array' | 'object'): void {
  expect(view.has('deep')).to.equal(true);
  expect(view.kind('deep')).to.equal(kind);
  expect(view.complete('deep')).to.equal(true);
  expect(view.value('after')).to.equal(1);
  expect(view.complete()).to.equal(true);
  expect(view.closed()).to.equal(true);
  expect(view.invalid).to.equal(null);
}

describe('PartialArguments indexes a million nested brackets without recursion', () => {
  const arrays = `{"deep": ${'['.repeat(depth)}${']'.repeat(depth)}, "after": 1}`;
  const objects = `{"deep": ${'{"a":'.repeat(depth)}"x"${'}'.repeat(depth)}, "after": 1}`;
  const mixed = `{"deep": ${'[{"a":'.repeat(depth / 2)}0${'}]'.repeat(depth / 2)}, "after": 1}`;

  for (const [name, text, kind] of [
    ['arrays', arrays, 'array'],
    ['objects', objects, 'object'],
    ['arrays and objects', mixed, 'array'],
  ] as const) {
    it(`${name}: whole text, and streamed in 64 KiB fragments read after each, each character indexed once`, () => {
      const whole = work(() => expectDeepIndexed(PartialArguments.fromText(text), kind));
      expectIndexedOnce(whole.scanned, text);
      const { result: view, scanned } = work(() => streamed(text, 64 * KiB, (v) => v.has('after')));
      expectIndexedOnce(scanned, text);
      expectDeepIndexed(view, kind);
      expect(view.seal(text)).to.equal(view);
      expectDeepIndexed(view, kind);
    });
  }

  it('reading the shape of a deep value parses nothing', () => {
    const view = PartialArguments.fromText(arrays);
    const { parsed } = work(() => [view.kind('deep'), view.complete('deep'), view.has('after')]);
    expect(parsed).to.equal(0);
  });

  it('an unclosed million-deep value is invalid once sealed, and no read throws', () => {
    const text = `{"after": 1, "deep": ${'['.repeat(depth)}`;
    const view = streamed(text, 64 * KiB, (v) => v.has('missing'));
    expect(view.complete('deep')).to.equal(false);
    expect(view.closed()).to.equal(false);
    expect(view.invalid).to.equal(null);
    const sealed = view.seal(text);
    expect(sealed).to.equal(view);
    expect(sealed.has('missing')).to.equal(false);
    expect(sealed.value('after')).to.equal(1);
    expect(sealed.value('deep')).to.equal(undefined);
    expect(sealed.invalid).to.be.instanceOf(Error);
    expect(sealed.closed()).to.equal(true);
  });
});

describe('PartialArguments measures a huge string from offsets', () => {
  // 64 characters, structural ones included, no quote, backslash or control character.
  const chunk = 'The quick brown fox {jumps} over [the] lazy dog, 0123456789: ok.';
  const size = 50 * MiB;
  const content = chunk.repeat(size / chunk.length);
  const text = `{"file_path":"/tmp/big.txt","content":"${content}","after":true}`;

  it('a 50 MiB string streamed in 64 KiB fragments answers stringLength exactly', () => {
    expect(content.length).to.equal(size);
    const lengths: number[] = [];
    const { result: view, decoded } = work(() =>
      streamed(text, 64 * KiB, (v) => {
        const length = v.stringLength('content', { step: KiB });
        if (length !== undefined) lengths.push(length);
      }),
    );
    expect(view.stringLength('content')).to.equal(size);
    expect(view.stringLength('content', { step: KiB })).to.equal(size);
    expect(view.text('file_path')).to.equal('/tmp/big.txt');
    expect(view.value('after')).to.equal(true);
    expect(lengths.every((n) => n % KiB === 0)).to.equal(true);
    expect(lengths.at(-1)).to.equal(size);
    expect(decoded, 'characters walked for lengths of an escape-free string').to.be.below(64 * KiB);
  });

  it('a 50 MiB string read whole answers stringLength exactly without walking it', () => {
    const view = PartialArguments.fromText(text);
    const { result, decoded } = work(() => view.stringLength('content'));
    expect(result).to.equal(size);
    expect(decoded).to.be.below(64 * KiB);
  });

  // 64 raw characters with every kind of escape.
  const escaped = 'line \\"one\\"\\n\\ttab \\\\ slash \\u00e9\\ud83d\\ude00 end {[,:]}......';
  const decodedChunk = JSON.parse(`"${escaped}"`) as string;
  const repeats = (8 * MiB) / escaped.length;
  const body = escaped.repeat(repeats);
  const escapedText = `{"content":"${body}","after":1}`;
  /** Raw characters from the first backslash on: before it, a length comes from offsets. */
  const fromFirstEscape = body.length - escaped.indexOf('\\');
  /** An odd fragment size, so fragments end inside escapes, `\u` ones included. */
  const fragmentSize = 64 * KiB + 3;

  it('a string with escapes whose length is read after every fragment is walked once, by the scanner', () => {
    expect(escaped.length).to.equal(64);
    const {
      result: view,
      decoded,
      counted,
    } = work(() =>
      streamed(escapedText, fragmentSize, (v) => v.stringLength('content', { step: KiB })),
    );
    expect(view.stringLength('content')).to.equal(decodedChunk.length * repeats);
    expect(view.value('after')).to.equal(1);
    expect(counted + decoded, 'every raw character is counted').to.equal(fromFirstEscape);
    expect(decoded, 'the length cursor only catches up at cut escapes').to.be.below(
      fragmentSize * 4,
    );
  });

  it('a string with escapes whose length is read only at the end is walked by the cursor (negative control)', () => {
    const {
      result: length,
      decoded,
      counted,
    } = work(() =>
      streamed(escapedText, fragmentSize, (v) => v.has('after')).stringLength('content'),
    );
    expect(length).to.equal(decodedChunk.length * repeats);
    expect(counted, 'nobody read the length while it streamed').to.equal(0);
    expect(decoded, 'the cursor walks the escaped string').to.equal(fromFirstEscape);
  });

  it('a million escaped backslashes keep their parity across fragment boundaries', () => {
    const backslashes = '\\\\'.repeat(depth);
    const tricky = `{"a":"${backslashes}","b":1,"c":"\\"${backslashes}\\""}`;
    for (const size of [4097, 64 * KiB + 1]) {
      const view = streamed(tricky, size, (v) => v.has('zzz'));
      expect(view.value('b'), `fragments of ${size}`).to.equal(1);
      expect(view.stringLength('a'), `fragments of ${size}`).to.equal(depth);
      expect(view.stringLength('c'), `fragments of ${size}`).to.equal(depth + 2);
      expect(view.complete()).to.equal(true);
    }
  });
});

describe('PartialArguments finds any of many keys', () => {
  const count = 200_000;
  const text = `{${Array.from({ length: count }, (_, i) => `"k${i}":${i}`).join(',')}}`;

  for (const [name, make] of [
    ['whole', () => PartialArguments.fromText(text)],
    ['streamed in 4 KiB fragments, read once at the end', () => streamed(text, 4 * KiB)],
    [
      'streamed in 4 KiB fragments, read after each',
      () => streamed(text, 4 * KiB, (v) => v.has('zzz')),
    ],
  ] as const) {
    it(`two hundred thousand keys, ${name}: each character indexed once, each value read parsed once`, () => {
      const {
        result: view,
        scanned,
        parsed,
      } = work(() => {
        const view = make();
        expect(view.value('k0')).to.equal(0);
        expect(view.value(`k${count - 1}`)).to.equal(count - 1);
        expect(view.value(`k${count >> 1}`)).to.equal(count >> 1);
        expect(view.has(`k${count}`)).to.equal(false);
        return view;
      });
      expect(view.closed()).to.equal(true);
      expectIndexedOnce(scanned, text);
      expect(parsed, 'JSON.parse calls for three values read').to.be.at.most(3);
    });
  }

  it('re-indexing the received text after every fragment fails the same count (negative control)', () => {
    // What a reader without an incremental index does; on the first MiB, to keep it quick.
    const head = text.slice(0, MiB);
    let received = '';
    const { scanned } = work(() => {
      for (const piece of fragment(head, [256 * KiB])) {
        received += piece;
        const view = PartialArguments.streaming();
        view.append(received);
        view.has('zzz');
      }
    });
    expect(received).to.equal(head);
    expect(() => expectIndexedOnce(scanned, head)).to.throw(/characters indexed/);
  });
});
