/**
 * Invalid argument text: `invalid` is set exactly where JSON.parse throws once every key has
 * been read, no read ever throws at any prefix, and a bad value does not stop the indexing of
 * the keys after it.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { PartialArguments } from '../../src/arguments/partial-arguments.js';
import { describe, it } from '../harness.js';
import { fragmentSizes, keyPool, objectText } from './support/arbitraries.js';
import { fragment, keysOf, rejects, sameJson, show, topLevel } from './support/json-text.js';
import { expectFinal } from './support/stream.js';

interface Case {
  text: string;
  /** Answers that must survive the error: key → value(key). */
  after?: Record<string, unknown>;
  /** Keys whose value (and text) read undefined because their own content is invalid. */
  bad?: string[];
  /** More keys to read besides the usual ones. */
  keys?: string[];
}

const controlChars = ['\u0000', '\u0001', '\n', '\t', '\u001f'];

/** Malformed texts; JSON.parse throws on each (or yields no object). */
const malformed: Record<string, Case[]> = {
  'trailing commas': [
    { text: '{"a":[1,]}', bad: ['a'] },
    { text: '{"a":[1,],"b":"ok"}', after: { b: 'ok' }, bad: ['a'] },
    { text: '{"a":{"x":1,},"b":"ok"}', after: { b: 'ok' }, bad: ['a'] },
    { text: '{"a":1,}' },
    { text: '{"a":1,,"b":2}' },
    { text: '{,"a":1}' },
  ],
  'raw control characters in strings': controlChars.map((c) => ({
    text: `{"a":"x${c}y","b":"ok"}`,
    after: { b: 'ok' },
    bad: ['a'],
  })),
  'bad escapes': [
    { text: '{"a":"\\x","b":"ok"}', after: { b: 'ok' }, bad: ['a'] },
    { text: '{"a":"\\\'","b":"ok"}', after: { b: 'ok' }, bad: ['a'] },
    { text: '{"a":"\\u12G4","b":"ok"}', after: { b: 'ok' }, bad: ['a'] },
    { text: '{"a":"\\u12","b":"ok"}', after: { b: 'ok' }, bad: ['a'] },
    { text: '{"a":"\\u","b":"ok"}', after: { b: 'ok' }, bad: ['a'] },
    { text: '{"a":["\\x"],"b":"ok"}', after: { b: 'ok' }, bad: ['a'] },
    { text: '{"a":{"k\\x":1},"b":"ok"}', after: { b: 'ok' }, bad: ['a'] },
    { text: '{"a\\x":1}', keys: ['a\\x', 'ax', 'a'] },
    { text: '{"a\nb":1}', keys: ['a\nb'] },
  ],
  'unclosed values once sealed': [
    { text: '{"a":"abc', bad: ['a'] },
    { text: '{"a":"abc\\"', bad: ['a'] },
    { text: '{"a":"abc\\', bad: ['a'] },
    { text: '{"a":"\\u00', bad: ['a'] },
    { text: '{"b":"ok","a":[1,2', after: { b: 'ok' } },
    { text: '{"b":"ok","a":{"c":1', after: { b: 'ok' } },
    { text: '{"b":"ok","a":1', after: { b: 'ok' } },
    { text: '{"b":"ok","a":', after: { b: 'ok' } },
    { text: '{"b":"ok","a"', after: { b: 'ok' } },
    { text: '{"b":"ok",', after: { b: 'ok' } },
    { text: '{' },
  ],
  'mismatched brackets': [
    { text: '{"a":[1}' },
    { text: '{"a":[1}}' },
    { text: '{"a":{"b":1]}' },
    { text: '{"a":[1]]}' },
    { text: '{"a":[1,{"b":2]}]}' },
  ],
  'not an object': [
    { text: '[1]' },
    { text: '"x"' },
    { text: ' 1' },
    { text: '' },
    { text: '   ' },
    { text: 'null' },
    { text: 'x{"a":1}' },
    { text: '\ufeff{"a":1}' },
  ],
  'non-breaking space as whitespace': [
    { text: '{\u00a0"a":1}' },
    { text: '{"a":\u00a01}' },
    { text: '{"a":1\u00a0}' },
    { text: '\u00a0{"a":1}' },
  ],
  'bad numbers and literals': [
    { text: '{"a":01,"b":"ok"}', after: { b: 'ok' }, bad: ['a'] },
    { text: '{"a":-01,"b":"ok"}', after: { b: 'ok' }, bad: ['a'] },
    { text: '{"a":[00],"b":"ok"}', after: { b: 'ok' }, bad: ['a'] },
    { text: '{"a":1.,"b":"ok"}', after: { b: 'ok' }, bad: ['a'] },
    { text: '{"a":1e,"b":"ok"}', after: { b: 'ok' }, bad: ['a'] },
    { text: '{"a":-,"b":"ok"}', after: { b: 'ok' }, bad: ['a'] },
    { text: '{"a":tru,"b":"ok"}', after: { b: 'ok' }, bad: ['a'] },
    { text: '{"a":nul,"b":"ok"}', after: { b: 'ok' }, bad: ['a'] },
    { text: '{"a":tru}' },
    { text: '{"a":True}' },
    { text: '{"a":.5}' },
    { text: '{"a":+1}' },
    { text: '{"a":NaN}' },
    { text: '{"a":undefined}' },
  ],
  'garbage after the closing brace': [
    { text: '{"a":1}x' },
    { text: '{"a":1}}' },
    { text: '{"a":1} {}' },
    { text: '{}]' },
    { text: '{"a":1},' },
  ],
  'broken members': [
    { text: '{"a" 1}' },
    { text: '{"a":1 "b":2}' },
    { text: '{a:1}' },
    { text: "{'a':1}" },
    { text: '{"a"::1}' },
    { text: '{"a":1:2}' },
  ],
  'a bad value shadowed by a later repeated key': [
    { text: '{"a":[1,],"a":2}', after: { a: 2 } },
    { text: '{"a":"\\x","b":"ok","a":"fine"}', after: { a: 'fine', b: 'ok' } },
  ],
};

/** Valid texts that look suspicious; `invalid` must stay null. */
const tricky: string[] = [
  '{}',
  ' \t\n\r{ \t\n\r} \t\n\r',
  '{"a":"\\"}"}',
  '{"a":"}{][,:"}',
  '{"a":[[],{}],"b":{"c":[1,{"d":"]"}]}}',
  '{"a":-0.0e-0,"b":1E400,"c":-1e-400}',
  '{"__proto__":{"x":1}}',
  '{"":""}',
  '{"a":1,"a":2}',
  '{"a":"\\ud800","b":"\\udc00\\ud800"}',
  '{"a":"😀\u2028\u2029\u007f\u00a0"}',
  '{"a":"\\u0000","b":"\\\\\\\\"}',
  '{"a":"\\\\"}',
  '{"a\\u0000b":true,"c":false,"d":null}',
];

const baseKeys = ['a', 'b', 'c', 'd', 'x', '', '__proto__', 'a\u0000b'];

/** Reads everything about `keys`; throws a descriptive error if any read throws. */
function readEverything(view: PartialArguments, keys: readonly string[], where: string): void {
  const reads: [string, () => unknown][] = [];
  for (const key of [...keys, 'never-present']) {
    const k = JSON.stringify(key);
    reads.push(
      [`has(${k})`, () => view.has(key)],
      [`kind(${k})`, () => view.kind(key)],
      [`complete(${k})`, () => view.complete(key)],
      [`stringLength(${k})`, () => view.stringLength(key)],
      [`stringLength(${k}, {step: 4})`, () => view.stringLength(key, { step: 4 })],
      [`textPrefix(${k}, 3)`, () => view.textPrefix(key, 3)],
      [`text(${k})`, () => view.text(key)],
      [`value(${k})`, () => view.value(key)],
    );
  }
  reads.push(
    ['complete()', () => view.complete()],
    ['closed()', () => view.closed()],
    ['refresh()', () => view.refresh()],
    ['invalid', () => view.invalid],
  );
  for (const [name, read] of reads) {
    try {
      read();
    } catch (error) {
      expect.fail(`${name} threw ${String(error)} ${where}`);
    }
  }
}

function keysIn(text: string, extra: readonly string[] = []): string[] {
  let keys: string[] = [];
  try {
    keys = keysOf(topLevel(text));
  } catch {
    // A broken top level: the keys it may hold are among the base keys.
  }
  return [...new Set([...baseKeys, ...keyPool, ...extra, ...keys])];
}

function expectVerdict(view: PartialArguments, text: string, how: string): void {
  const where = `for ${show(text)} ${how}`;
  if (rejects(text)) {
    expect(view.invalid, `invalid ${where}`).to.be.instanceOf(Error);
    expect(view.closed(), `closed() ${where}`).to.equal(true);
  } else {
    expect(view.invalid, `invalid ${where}`).to.equal(null);
  }
}

function expectSurvivors(view: PartialArguments, c: Case, how: string): void {
  for (const [key, value] of Object.entries(c.after ?? {})) {
    expect(view.has(key), `has(${key}) for ${show(c.text)} ${how}`).to.equal(true);
    expect(view.value(key), `value(${key}) for ${show(c.text)} ${how}`).to.deep.equal(value);
    if (typeof value === 'string') {
      expect(view.text(key), `text(${key}) for ${show(c.text)} ${how}`).to.equal(value);
    }
  }
}

/** Streams `text` in `sizes` fragments reading everything after each, then seals it. */
function streamEverything(text: string, sizes: readonly number[], keys: readonly string[]) {
  const view = PartialArguments.streaming();
  let at = 0;
  let seenInvalid = false;
  for (const piece of fragment(text, sizes)) {
    view.append(piece);
    at += piece.length;
    readEverything(view, keys, `after ${at} characters of ${show(text)}`);
    if (seenInvalid) {
      expect(view.invalid, `invalid stays set, ${at} characters of ${show(text)}`).to.be.instanceOf(
        Error,
      );
    }
    seenInvalid = view.invalid !== null;
  }
  return view;
}

describe('PartialArguments reports malformed text where JSON.parse throws', () => {
  for (const [group, cases] of Object.entries(malformed)) {
    it(`${group}: invalid once read, whole or fragmented, and no read throws`, () => {
      for (const c of cases) {
        expect(rejects(c.text), `JSON.parse rejects ${show(c.text)}`).to.equal(true);
        const keys = keysIn(c.text, [...Object.keys(c.after ?? {}), ...(c.keys ?? [])]);

        const whole = PartialArguments.fromText(c.text);
        readEverything(whole, keys, `for fromText(${show(c.text)})`);
        expectVerdict(whole, c.text, 'from fromText');
        expectSurvivors(whole, c, 'from fromText');
        for (const key of c.bad ?? []) {
          expect(whole.value(key), `value(${key}) of ${show(c.text)}`).to.equal(undefined);
          expect(whole.text(key), `text(${key}) of ${show(c.text)}`).to.equal(undefined);
        }

        for (const sizes of [[1], [3], [2, 5]]) {
          const view = streamEverything(c.text, sizes, keys);
          expectSurvivors(view, c, `streamed in ${sizes} before sealing`);
          expect(view.seal(c.text), 'seal(text) with the streamed text').to.equal(view);
          readEverything(view, keys, `for sealed ${show(c.text)}`);
          expectVerdict(view, c.text, `streamed in ${sizes} and sealed`);
          expectSurvivors(view, c, `streamed in ${sizes} and sealed`);
        }

        const lazy = PartialArguments.streaming();
        for (const piece of fragment(c.text, [4])) lazy.append(piece);
        expect(lazy.seal(c.text)).to.equal(lazy);
        readEverything(lazy, keys, `for ${show(c.text)} read only once sealed`);
        expectVerdict(lazy, c.text, 'read only once sealed');
      }
    });
  }

  it('valid texts that look suspicious are never invalid, at any prefix', () => {
    for (const text of tricky) {
      expect(rejects(text), `JSON.parse accepts ${show(text)}`).to.equal(false);
      const keys = keysIn(text);
      const whole = PartialArguments.fromText(text);
      readEverything(whole, keys, `for fromText(${show(text)})`);
      expectFinal(whole, text, keys);
      for (const sizes of [[1], [3]]) {
        const view = PartialArguments.streaming();
        let at = 0;
        for (const piece of fragment(text, sizes)) {
          view.append(piece);
          at += piece.length;
          readEverything(view, keys, `after ${at} characters of ${show(text)}`);
          expect(view.invalid, `invalid after ${at} characters of ${show(text)}`).to.equal(null);
        }
        expect(view.seal(text)).to.equal(view);
        expectFinal(view, text, keys);
      }
    }
  });
});

describe('PartialArguments keeps indexing past a content error and stops at a structural one', () => {
  it('a content error surfaces when its value is read and does not close the stream', () => {
    const view = PartialArguments.streaming();
    view.append('{"a":[1,],"b":"o');
    expect(view.complete('a'), 'the delimiter arrived').to.equal(true);
    expect(view.invalid).to.equal(null);
    expect(view.value('a')).to.equal(undefined);
    expect(view.invalid).to.be.instanceOf(Error);
    expect(view.closed()).to.equal(false);
    expect(view.text('b')).to.equal('o');
    view.append('k"}');
    expect(view.text('b')).to.equal('ok');
    expect(view.closed()).to.equal(true);
  });

  it('a raw control character surfaces when the string is read, not when its length is', () => {
    const view = PartialArguments.fromText('{"a":"x\ny","b":1}');
    expect(view.stringLength('a'), 'a length from offsets').to.equal(3);
    expect(view.value('b')).to.equal(1);
    expect(view.text('a')).to.equal(undefined);
    expect(view.invalid).to.be.instanceOf(Error);
  });

  for (const [text, later] of [
    ['{"a":1 "b":2', '}'],
    ['{"a" 1,"b":2', '}'],
    ['{"a":1,}', ''],
    ['{"a":1}x', '{"b":2}'],
    ['[{"b":2}', ']'],
  ] as const) {
    it(`a structural error closes the stream: ${JSON.stringify(text)}`, () => {
      const view = PartialArguments.streaming();
      view.append(text);
      expect(view.has('b'), 'has(b)').to.equal(false);
      expect(view.invalid).to.be.instanceOf(Error);
      expect(view.closed()).to.equal(true);
      view.append(later);
      expect(view.has('b'), 'has(b) after more text').to.equal(false);
      expect(view.closed()).to.equal(true);
    });
  }

  it('a stream whose first non-space character is not { is invalid with no fields', () => {
    for (const start of ['[', '"', '1', 'n', 'x', '\u00a0']) {
      const view = PartialArguments.streaming();
      view.append('  \n');
      expect(view.has('a'), 'only whitespace so far').to.equal(false);
      expect(view.invalid, 'only whitespace so far').to.equal(null);
      expect(view.closed(), 'only whitespace so far').to.equal(false);
      view.append(`${start}{"a":1}`);
      expect(view.has('a'), `starting with ${JSON.stringify(start)}`).to.equal(false);
      expect(view.invalid, `starting with ${JSON.stringify(start)}`).to.be.instanceOf(Error);
      expect(view.closed(), `starting with ${JSON.stringify(start)}`).to.equal(true);
    }
  });

  it('a sealed unterminated string reads undefined and sets invalid', () => {
    const view = PartialArguments.fromText('{"a":"abc');
    expect(view.text('a')).to.equal(undefined);
    expect(view.value('a')).to.equal(undefined);
    expect(view.invalid).to.be.instanceOf(Error);
  });

  it('a sealed text that is not a complete object is invalid once indexing reaches its end', () => {
    const streamed = PartialArguments.streaming();
    streamed.append('{"a":1');
    expect(streamed.has('zzz')).to.equal(false);
    expect(streamed.invalid, 'an open stream may still complete').to.equal(null);
    const sealed = streamed.seal('{"a":1');
    expect(sealed).to.equal(streamed);
    expect(sealed.has('zzz')).to.equal(false);
    expect(sealed.invalid).to.be.instanceOf(Error);
    expect(sealed.closed()).to.equal(true);
  });
});

/** A content error that keeps quotes and brackets balanced. */
const badValue = fc.oneof(
  fc.constantFrom(
    '[1,]',
    '{"k":1,}',
    '[[1,],2]',
    '"\\x"',
    '"\\u12G4"',
    '"\\u12"',
    '"\\uD83D\\u"',
    '01',
    '-01',
    '[01]',
    '{"k":"\\q"}',
    '1.',
    'tru',
  ),
  fc
    .tuple(fc.constantFrom(...controlChars), fc.string({ maxLength: 3 }))
    .map(([c, s]) => `"${s.replace(/["\\]/g, '')}${c}"`),
);

const injected = fc
  .tuple(
    objectText(4),
    objectText(4),
    fc.constantFrom('a', 'b', 'content', '__proto__', ''),
    badValue,
    fc.constantFrom('%', '[%]', '{"x":%}', '[1,{"y":[%]}]'),
  )
  .map(([before, after, key, bad, wrap]) => {
    const head = before.trim().slice(1, -1).trim();
    const tail = after.trim().slice(1, -1).trim();
    const member = `${JSON.stringify(key)}:${wrap.replace('%', bad)}`;
    return `{${[head, member, tail].filter((s) => s !== '').join(',')}}`;
  });

function expectMembers(view: PartialArguments, text: string, how: string): void {
  const layout = topLevel(text);
  for (const key of keysOf(layout)) {
    const last = layout.members.filter((m) => m.key === key).at(-1)!;
    const where = `${JSON.stringify(key)} of ${show(text)} ${how}`;
    expect(view.has(key), `has ${where}`).to.equal(true);
    const value = view.value(key);
    if (!last.valid) {
      expect(value, `value of the bad ${where}`).to.equal(undefined);
    } else if (!sameJson(value, last.value)) {
      expect.fail(`value ${where}: expected ${show(last.value)}, got ${show(value)}`);
    }
  }
}

describe('PartialArguments on any text with one bad value', () => {
  it('is invalid once read, and reads every other member like JSON.parse', () => {
    fc.assert(
      fc.property(injected, fragmentSizes, (text, sizes) => {
        expect(rejects(text)).to.equal(true);
        const keys = keysIn(text);
        const whole = PartialArguments.fromText(text);
        readEverything(whole, keys, `for fromText(${show(text)})`);
        expectMembers(whole, text, 'from fromText');
        expect(whole.invalid, `invalid for ${show(text)}`).to.be.instanceOf(Error);

        const view = PartialArguments.streaming();
        for (const piece of fragment(text, sizes)) view.append(piece);
        expectMembers(view, text, `streamed in ${sizes}`);
        readEverything(view, keys, `for streamed ${show(text)}`);
        expect(view.invalid, `invalid for streamed ${show(text)}`).to.be.instanceOf(Error);
        expect(view.seal(text)).to.equal(view);
      }),
      { numRuns: 200 },
    );
  });
});

/** One edit of a valid text: delete, insert or replace one character. */
const edited = fc
  .tuple(
    objectText(5),
    fc.nat(),
    fc.constantFrom('delete', 'insert', 'replace'),
    fc.constantFrom(...'"\\,:{}[]0-.eu tn \u00a0\u0001x'),
  )
  .map(([text, at, edit, ch]) => {
    const i = text.length === 0 ? 0 : at % text.length;
    if (edit === 'delete') return text.slice(0, i) + text.slice(i + 1);
    if (edit === 'insert') return text.slice(0, i) + ch + text.slice(i);
    return text.slice(0, i) + ch + text.slice(i + 1);
  });

describe('PartialArguments on any edited text agrees with JSON.parse about validity', () => {
  it('invalid after reading every key exactly when JSON.parse rejects the text', () => {
    fc.assert(
      fc.property(edited, fragmentSizes, fc.boolean(), (text, sizes, everyPrefix) => {
        const keys = keysIn(text);
        const check = (view: PartialArguments, how: string) => {
          readEverything(view, keys, `for ${show(text)} ${how}`);
          if (rejects(text)) {
            expect(view.invalid, `invalid for ${show(text)} ${how}`).to.be.instanceOf(Error);
          } else {
            expectFinal(view, text, keys);
          }
        };
        check(PartialArguments.fromText(text), 'from fromText');
        let view: PartialArguments;
        if (everyPrefix) {
          view = streamEverything(text, sizes, keys);
        } else {
          view = PartialArguments.streaming();
          for (const piece of fragment(text, sizes)) view.append(piece);
        }
        expect(view.seal(text)).to.equal(view);
        check(view, `streamed in ${sizes}`);
      }),
      { numRuns: 300 },
    );
  });

  it('the edits produce both valid and invalid texts', () => {
    const samples = fc.sample(edited, { numRuns: 300, seed: 7 });
    const invalid = samples.filter(rejects).length;
    expect(invalid).to.be.greaterThan(100);
    expect(samples.length - invalid).to.be.greaterThan(10);
  });
});
