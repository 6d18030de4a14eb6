/**
 * fast-check arbitraries for JSON object texts as a model streams them: every escape form,
 * astral characters raw and escaped, lone surrogates escaped, long strings, every number
 * form, repeated keys, `__proto__` and empty keys, escaped keys and random JSON whitespace.
 */
import fc from 'fast-check';

/** Decoded keys drawn for members; small, so that keys repeat. */
export const keyPool: readonly string[] = [
  'a',
  'b',
  'path',
  'content',
  '__proto__',
  '',
  'é',
  '😀',
  'a"b',
  'x\\y',
  'line\nbreak',
  'constructor',
  '\ud800',
];

/** Keys a test looks up besides the pool: never generated, so always absent. */
export const absentKeys: readonly string[] = ['missing', 'toString', 'hasOwnProperty', 'a\u0000'];

const hex4 = (unit: number, upper: boolean) => {
  const h = unit.toString(16).padStart(4, '0');
  return upper ? h.toUpperCase() : h;
};

const shortEscapes: Record<string, string> = {
  '"': '\\"',
  '\\': '\\\\',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
};

/**
 * Encode `key` as a JSON string; bit i of `mask` escapes unit i as `\uXXXX`. Quotes,
 * backslashes, control characters and lone surrogates are always escaped.
 */
export function encodeKey(key: string, mask: number): string {
  let out = '"';
  for (let i = 0; i < key.length; i++) {
    const ch = key[i]!;
    const unit = key.charCodeAt(i);
    const pairedHigh = unit >= 0xd800 && unit <= 0xdbff && /[\udc00-\udfff]/.test(key[i + 1] ?? '');
    const pairedLow = unit >= 0xdc00 && unit <= 0xdfff && /[\ud800-\udbff]/.test(key[i - 1] ?? '');
    const lone = unit >= 0xd800 && unit <= 0xdfff && !pairedHigh && !pairedLow;
    const escapeIt = (mask >>> (i % 31)) & 1;
    if (escapeIt || lone || unit < 0x20) out += `\\u${hex4(unit, (mask & 1) === 1)}`;
    else out += shortEscapes[ch] ?? ch;
  }
  return `${out}"`;
}

/** JSON whitespace, mostly none. */
export const space: fc.Arbitrary<string> = fc.oneof(
  { weight: 5, arbitrary: fc.constant('') },
  {
    weight: 1,
    arbitrary: fc
      .array(fc.constantFrom(' ', '\t', '\n', '\r'), { minLength: 1, maxLength: 3 })
      .map((s) => s.join('')),
  },
);

const plainChars = "abcxyz ABC019{}[],:.-+eE/'`~!?";

/** Pieces of the raw body of a JSON string, each valid on its own. */
const stringPiece: fc.Arbitrary<string> = fc.oneof(
  { weight: 8, arbitrary: fc.string({ unit: fc.constantFrom(...plainChars), maxLength: 8 }) },
  {
    weight: 4,
    arbitrary: fc.constantFrom('\\"', '\\\\', '\\/', '\\b', '\\f', '\\n', '\\r', '\\t'),
  },
  {
    weight: 3,
    arbitrary: fc
      .tuple(fc.integer({ min: 0, max: 0xffff }), fc.boolean())
      .map(([unit, upper]) => `\\u${hex4(unit, upper)}`),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.integer({ min: 0xd800, max: 0xdfff }), fc.boolean())
      .map(([unit, upper]) => `\\u${hex4(unit, upper)}`),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.integer({ min: 0x10000, max: 0x10ffff }), fc.boolean())
      .map(([cp, upper]) => {
        const s = String.fromCodePoint(cp);
        return `\\u${hex4(s.charCodeAt(0), upper)}\\u${hex4(s.charCodeAt(1), upper)}`;
      }),
  },
  {
    weight: 3,
    arbitrary: fc
      .oneof(
        fc.constantFrom('😀', '𝄞', '🏳️‍🌈', '👍🏽'),
        fc.integer({ min: 0x10000, max: 0x10ffff }).map((cp) => String.fromCodePoint(cp)),
      )
      .map((s) => s),
  },
  {
    weight: 2,
    arbitrary: fc.oneof(
      fc.constantFrom('é', '中', '\u2028', '\u2029', '\ufeff', '\u00a0', '\u007f', 'ÿ'),
      fc.integer({ min: 0xa0, max: 0xd7ff }).map((u) => String.fromCharCode(u)),
    ),
  },
  {
    weight: 1,
    arbitrary: fc
      .integer({ min: 100, max: 1500 })
      .map((n) => 'lorem ipsum dolor sit amet, {[ ]} '.repeat(Math.ceil(n / 34)).slice(0, n)),
  },
);

/** A JSON string token. */
export const stringText: fc.Arbitrary<string> = fc
  .array(stringPiece, { maxLength: 10 })
  .map((pieces) => `"${pieces.join('')}"`);

/** A JSON number token of any form. */
export const numberText: fc.Arbitrary<string> = fc
  .tuple(
    fc.boolean(),
    fc.oneof(fc.constant('0'), fc.stringMatching(/^[1-9][0-9]{0,20}$/)),
    fc.option(fc.stringMatching(/^[0-9]{1,12}$/), { nil: undefined }),
    fc.option(
      fc.tuple(
        fc.constantFrom('e', 'E'),
        fc.constantFrom('', '+', '-'),
        fc.stringMatching(/^[0-9]{1,3}$/),
      ),
      { nil: undefined },
    ),
  )
  .map(
    ([negative, int, frac, exp]) =>
      `${negative ? '-' : ''}${int}${frac === undefined ? '' : `.${frac}`}${exp ? exp.join('') : ''}`,
  );

const literalText = fc.constantFrom('true', 'false', 'null');

const keyArb: fc.Arbitrary<string> = fc
  .tuple(
    fc.oneof(fc.constantFrom('a', 'b', '__proto__'), fc.constantFrom(...keyPool)),
    fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 0x7fffffff })),
  )
  .map(([key, mask]) => encodeKey(key, mask));

const member = (value: fc.Arbitrary<string>) =>
  fc
    .tuple(space, keyArb, space, space, value, space)
    .map(([a, k, b, c, v, d]) => `${a}${k}${b}:${c}${v}${d}`);

const json = fc.letrec<{ value: string; array: string; object: string }>((tie) => ({
  value: fc.oneof(
    { maxDepth: 3, depthIdentifier: 'json' },
    { weight: 5, arbitrary: stringText },
    { weight: 3, arbitrary: numberText },
    { weight: 1, arbitrary: literalText },
    { weight: 1, arbitrary: tie('array') },
    { weight: 1, arbitrary: tie('object') },
  ),
  array: fc
    .tuple(
      space,
      fc.array(
        fc.tuple(space, tie('value'), space).map((p) => p.join('')),
        { maxLength: 4, depthIdentifier: 'json' },
      ),
    )
    .map(([inner, items]) => `[${items.length ? items.join(',') : inner}]`),
  object: fc
    .tuple(space, fc.array(member(tie('value')), { maxLength: 4, depthIdentifier: 'json' }))
    .map(([inner, members]) => `{${members.length ? members.join(',') : inner}}`),
}));

/** Any JSON value text. */
export const valueText: fc.Arbitrary<string> = json.value;

/** A valid JSON object text with up to `maxMembers` top-level members. */
export function objectText(maxMembers = 8): fc.Arbitrary<string> {
  return fc
    .tuple(space, fc.array(member(json.value), { maxLength: maxMembers }), space, space)
    .map(
      ([lead, members, inner, trail]) =>
        `${lead}{${members.length ? members.join(',') : inner}}${trail}`,
    );
}

/** Fragment sizes, cycled over a text: single characters, small and large cuts. */
export const fragmentSizes: fc.Arbitrary<number[]> = fc.oneof(
  fc.constant<number[]>([1]),
  fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 8 }),
  fc.array(fc.integer({ min: 1, max: 200 }), { minLength: 1, maxLength: 8 }),
);
