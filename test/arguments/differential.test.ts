/**
 * Differential truth: for any valid object text cut into any fragments, every completed value
 * equals JSON.parse of the whole text and every open string shows exactly what has decoded so
 * far, whatever was read before and whether or not refresh() ran in between.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { PartialArguments } from '../../src/arguments/partial-arguments.js';
import { describe, it } from '../harness.js';
import { fragmentSizes, objectText } from './support/arbitraries.js';
import { keysOf, kindOf, ownValue, topLevel } from './support/json-text.js';
import { expectFinal, lookupKeys, type StreamParams, streamAndCheck } from './support/stream.js';

const params: fc.Arbitrary<StreamParams> = fc.record({
  prefixUnits: fc.array(
    fc.oneof(fc.integer({ min: 0, max: 12 }), fc.integer({ min: 0, max: 600 })),
    {
      minLength: 1,
      maxLength: 3,
    },
  ),
  step: fc.integer({ min: 1, max: 64 }),
  seed: fc.integer(),
});

/** Texts that put every hard case near a fragment boundary when cut at every size. */
const trickyTexts: readonly (readonly [string, string])[] = [
  [
    'escaped astral, brackets inside strings',
    '{"a":"\\u00e9\\ud83d\\ude00x","b":[1,{"c":"]}\\""}],"c":-1.5e-3}',
  ],
  ['raw astral, backslash parity, a repeated key', '{"a":"😀𝄞x","b":"\\\\\\"","a":true}'],
  ['__proto__, empty and escaped keys', '{ "__proto__" : {"x":[]} , "" : "" , "a\\u0022b":null}'],
  [
    'lone and paired escaped surrogates',
    '{"a":"\\ud800\\ud800\\udc00\\udc00\\uDBFF","b":"\\uDBFF\\uDFFF"}',
  ],
  ['every short escape and scalar', '{"a":"\\/\\b\\f\\n\\r\\t","b":0,"c":1E+2,"d":false,"e":-0}'],
  ['whitespace everywhere', '\n\t{\r"a"\n:\t[ ]\r,"b":{ },"a":"again"}\n'],
  ['escaped key, trailing backslashes', '{"\\u0061":"\\\\","b":"x\\\\\\\\"}'],
];

describe('PartialArguments agrees with JSON.parse for any fragmentation', () => {
  it('answers every query exactly after every fragment', () => {
    fc.assert(
      fc.property(objectText(), fragmentSizes, params, (text, sizes, p) => {
        streamAndCheck(text, sizes, p, 'every');
      }),
      { numRuns: 150 },
    );
  });

  it('refresh() between reads reports exactly the answers that changed', () => {
    fc.assert(
      fc.property(objectText(), fragmentSizes, params, (text, sizes, p) => {
        streamAndCheck(text, sizes, p, 'refresh');
      }),
      { numRuns: 120 },
    );
  });

  it('answers the same whatever was read before, in any order and subset', () => {
    fc.assert(
      fc.property(objectText(), fragmentSizes, params, (text, sizes, p) => {
        streamAndCheck(text, sizes, p, 'random');
      }),
      { numRuns: 150 },
    );
  });

  it('a stream read only after its last fragment answers like JSON.parse', () => {
    fc.assert(
      fc.property(objectText(), fragmentSizes, params, (text, sizes, p) => {
        streamAndCheck(text, sizes, p, 'end');
      }),
      { numRuns: 200 },
    );
  });

  it('fromText answers like JSON.parse and never reports a change', () => {
    fc.assert(
      fc.property(objectText(), (text) => {
        const view = PartialArguments.fromText(text);
        expect(view.refresh(), 'refresh() before any read').to.equal(false);
        expectFinal(view, text, lookupKeys);
        expect(view.refresh(), 'refresh() after reads').to.equal(false);
        const whole = JSON.parse(text) as object;
        for (const key of keysOf(topLevel(text))) {
          expect(view.kind(key), `kind(${JSON.stringify(key)})`).to.equal(
            kindOf(ownValue(whole, key).value),
          );
        }
      }),
      { numRuns: 200 },
    );
  });

  it('the generated texts cover repeated, __proto__, empty and escaped keys', () => {
    // Guards the generator: the properties above are only as strong as what it produces.
    const samples = fc.sample(objectText(), { numRuns: 400, seed: 42 });
    const raw = samples.join('\n');
    const keys = samples.flatMap((t) => topLevel(t).members.map((m) => m.key));
    const repeated = samples.some((t) => {
      const layout = topLevel(t);
      return new Set(layout.members.map((m) => m.key)).size < layout.members.length;
    });
    expect(repeated, 'a text with a repeated key').to.equal(true);
    expect(keys).to.include('__proto__');
    expect(keys).to.include('');
    expect(keys).to.include('\ud800');
    for (const form of [
      '\\"',
      '\\\\',
      '\\/',
      '\\b',
      '\\f',
      '\\n',
      '\\r',
      '\\t',
      '\\u',
      'e+',
      'E-',
    ]) {
      expect(raw, `an occurrence of ${form}`).to.include(form);
    }
    expect(/[\ud800-\udbff][\udc00-\udfff]/.test(raw), 'a raw astral character').to.equal(true);
    expect(
      samples.some((t) => t.length > 1000),
      'a long text',
    ).to.equal(true);
  });
});

describe('PartialArguments agrees with JSON.parse for tricky texts cut at every size', () => {
  const p: StreamParams = { prefixUnits: [0, 1, 2, 3, 5, 8], step: 2, seed: 1 };
  for (const [name, text] of trickyTexts) {
    it(`${name}: every fragment size and every single cut`, () => {
      for (let size = 1; size <= text.length; size++) {
        streamAndCheck(text, [size], p, 'refresh');
      }
      for (let cut = 1; cut < text.length; cut++) {
        streamAndCheck(text, [cut, text.length], p, 'every');
      }
    });
  }
});
