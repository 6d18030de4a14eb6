import { expect } from 'chai';
import { jsonText, jsonTextWithoutRecursion } from '../../src/events/json-text.js';
import { describe, it } from '../harness.js';
import { prng } from '../support/prng.js';

/** A random JSON-ish value: what JSON.stringify accepts, its odd corners included. */
function randomValue(random: () => number, depth: number): unknown {
  const pick = Math.floor(random() * (depth > 4 ? 9 : 12));
  switch (pick) {
    case 0:
      return null;
    case 1:
      return random() < 0.5;
    case 2:
      return [0, -0, 1.5, 1e21, -1e-7, Number.NaN, Number.POSITIVE_INFINITY][
        Math.floor(random() * 7)
      ];
    case 3:
      return ['', 'a"b\\c', '\u2028\n\t', '\ud800', '__proto__', 'é😀'][Math.floor(random() * 6)];
    case 4:
      return undefined;
    case 5:
      return () => 1;
    case 6:
      return Symbol('s');
    case 7:
      return new Date(Math.floor(random() * 1e12));
    case 8:
      return [new Number(2), new String('s'), new Boolean(false)][Math.floor(random() * 3)];
    case 9: {
      const list: unknown[] = [];
      for (let i = Math.floor(random() * 4); i > 0; i--) list.push(randomValue(random, depth + 1));
      return list;
    }
    case 10: {
      const record: Record<string, unknown> = Object.create(
        random() < 0.2 ? null : Object.prototype,
      );
      for (let i = Math.floor(random() * 4); i > 0; i--) {
        const key = ['a', 'b', '0', '__proto__', 'constructor', 'x y'][
          Math.floor(random() * 6)
        ] as string;
        Object.defineProperty(record, key, {
          value: randomValue(random, depth + 1),
          enumerable: true,
          configurable: true,
        });
      }
      return record;
    }
    default: {
      const inner = randomValue(random, depth + 1);
      return { toJSON: (key: string) => ({ key, inner }) };
    }
  }
}

describe('jsonText (JSON.stringify without recursion)', () => {
  it('writes what JSON.stringify writes, for 3,000 random values', () => {
    const random = prng(13);
    for (let i = 0; i < 3000; i++) {
      const value = randomValue(random, 0);
      expect(jsonTextWithoutRecursion(value), `case ${i}`).to.equal(JSON.stringify(value));
    }
  });

  it('writes a value nested 100,000 deep, where a recursive JSON.stringify overflows the stack', () => {
    const depth = 100_000;
    const text = `${'[{"a":'.repeat(depth)}0${'}]'.repeat(depth)}`;
    // V8 in Node 20 and Chromium overflows here; Deno's newer V8 stringifies without
    // recursion, so the overflow is the engine's and not asserted.
    expect(jsonText(JSON.parse(text))).to.equal(text);
  });

  it('throws a TypeError for a cycle and a BigInt, as JSON.stringify does, and accepts shared references', () => {
    const cyclic: unknown[] = [];
    cyclic.push([cyclic]);
    expect(() => jsonText(cyclic)).to.throw(TypeError, /cyclic/);
    expect(() => jsonText({ n: 1n })).to.throw(TypeError, /BigInt/);
    const shared = { x: 1 };
    expect(jsonTextWithoutRecursion([shared, { shared }])).to.equal('[{"x":1},{"shared":{"x":1}}]');
  });
});
