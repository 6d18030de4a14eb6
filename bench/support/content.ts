import { pick, prng } from '../../test/support/prng.js';

/**
 * Deterministic `write` tool arguments for the benchmarks: `{"file_path":…,"content":…}`,
 * file_path first, cut into fixed-size fragments the way a provider streams them.
 */

export type ContentKind = 'prose' | 'code';

export interface WriteArguments {
  readonly kind: ContentKind;
  readonly path: string;
  /** The decoded content; its length is exactly the requested number of UTF-16 units. */
  readonly content: string;
  /** The full argument text, `JSON.stringify({ file_path, content })`. */
  readonly text: string;
  /** `text` cut into fragments; each is a fresh flat string, as a decoded SSE delta is. */
  readonly fragments: readonly string[];
  readonly fragmentSize: number;
  /** A flush happens after every `flushEvery` fragments (after fragment k·flushEvery − 1). */
  readonly flushEvery: number;
  /** Decoded length of `content` that the text received by each flush makes known. */
  readonly expectedLengths: Int32Array;
  /** Number of characters in `text` whose JSON encoding is an escape sequence. */
  readonly escapedCharacters: number;
}

export interface WriteArgumentsOptions {
  readonly kind: ContentKind;
  readonly contentLength: number;
  readonly fragmentSize?: number;
  readonly flushEvery?: number;
  readonly seed?: number;
}

export function buildWriteArguments(options: WriteArgumentsOptions): WriteArguments {
  const { kind, contentLength } = options;
  const fragmentSize = options.fragmentSize ?? 16;
  const flushEvery = options.flushEvery ?? 64;
  const random = prng(options.seed ?? 0x5eed);
  const content =
    kind === 'prose' ? proseContent(random, contentLength) : codeContent(random, contentLength);
  const path = kind === 'prose' ? '/src/docs/streaming-notes.md' : '/src/arguments/generated.ts';
  const text = JSON.stringify({ file_path: path, content });
  const fragments = cutFragments(text, fragmentSize);
  const flushes = Math.floor(fragments.length / flushEvery);
  const offsets: number[] = [];
  let offset = 0;
  for (let i = 0; i < flushes * flushEvery; i++) {
    offset += fragments[i]!.length;
    if ((i + 1) % flushEvery === 0) offsets.push(offset);
  }
  const valueStart = text.indexOf('"content":"') + '"content":"'.length;
  return {
    kind,
    path,
    content,
    text,
    fragments,
    fragmentSize,
    flushEvery,
    expectedLengths: decodedLengthsAt(text, valueStart, offsets),
    escapedCharacters: countEscaped(content),
  };
}

/**
 * Cuts `text` into `size`-unit fragments, never between the halves of a surrogate pair
 * (providers cut at token boundaries, which never split a code point).
 *
 * Each fragment is re-created through JSON.parse: a plain `slice` of 13+ units is a V8
 * SlicedString that would keep the whole text alive and flatter whoever retains fragments.
 */
export function cutFragments(text: string, size: number): string[] {
  const fragments: string[] = [];
  for (let start = 0; start < text.length; ) {
    let end = Math.min(start + size, text.length);
    if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) end--;
    fragments.push(JSON.parse(JSON.stringify(text.slice(start, end))) as string);
    start = end;
  }
  return fragments;
}

/**
 * For each raw offset (ascending), how many UTF-16 units of the JSON string starting at
 * `valueStart` are fully decodable from `text.slice(0, offset)`: an escape counts once its
 * last character has arrived.
 */
export function decodedLengthsAt(
  text: string,
  valueStart: number,
  offsets: readonly number[],
): Int32Array {
  const lengths = new Int32Array(offsets.length);
  let next = 0;
  let decoded = 0;
  let position = valueStart;
  while (position < text.length && text.charCodeAt(position) !== 0x22 /* " */) {
    const width =
      text.charCodeAt(position) === 0x5c /* \ */ ? (text[position + 1] === 'u' ? 6 : 2) : 1;
    while (next < offsets.length && offsets[next]! < position + width) lengths[next++] = decoded;
    decoded++;
    position += width;
  }
  while (next < offsets.length) lengths[next++] = decoded;
  return lengths;
}

function countEscaped(content: string): number {
  let escaped = 0;
  for (let i = 0; i < content.length; i++) {
    const code = content.charCodeAt(i);
    if (code < 0x20 || code === 0x22 || code === 0x5c) escaped++;
  }
  return escaped;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** Cuts generated text to exactly `length` units without leaving half a surrogate pair. */
function exactly(parts: string[], length: number, filler: string): string {
  let text = parts.join('');
  if (text.length > length) text = text.slice(0, length);
  if (isHighSurrogate(text.charCodeAt(text.length - 1))) text = text.slice(0, -1) + filler;
  return text;
}

const WORDS = (
  'the a of to and in that is for it as with was on be by this are from at or an which ' +
  'stream model tool call argument fragment reader value text length path content file ' +
  'render view node session event history page attempt response provider delta block ' +
  'quickly slowly often never always usually before after while until because although ' +
  'large small early late final partial complete open closed lazy eager simple careful ' +
  'write read parse index scan decode count measure compare show hide wait arrive change ' +
  'user screen row group timeline browser server network budget memory second minute ' +
  'library design record decision contract invariant boundary escape quote bracket object'
).split(' ');

/** English-like paragraphs: few escapes (only the newlines between paragraphs). */
export function proseContent(random: () => number, length: number): string {
  const parts: string[] = [];
  let total = 0;
  while (total < length) {
    const sentences = 3 + Math.floor(random() * 5);
    let paragraph = '';
    for (let s = 0; s < sentences; s++) {
      const words = 6 + Math.floor(random() * 16);
      let sentence = '';
      for (let w = 0; w < words; w++) {
        let word = pick(random, WORDS);
        if (w === 0) word = word[0]!.toUpperCase() + word.slice(1);
        sentence += (w === 0 ? '' : random() < 0.08 ? ', ' : ' ') + word;
      }
      paragraph += (s === 0 ? '' : ' ') + sentence + (random() < 0.1 ? '?' : '.');
    }
    const piece = paragraph + (random() < 0.2 ? '\n' : '\n\n');
    parts.push(piece);
    total += piece.length;
  }
  return exactly(parts, length, '.');
}

const IDENTIFIERS = (
  'value index fragment reader cursor offset length buffer chunk result options state ' +
  'token path content field scanner depth escape quote parent child node event attempt'
).split(' ');
const TYPES = [
  'string',
  'number',
  'boolean',
  'unknown',
  'readonly string[]',
  'Record<string, number>',
];
const UNICODE = ['café', 'naïve', '→', '✓', '…', 'Ω', 'über', '日本語', '🚀', '🙂', 'ß'];

/**
 * TypeScript-like source dense in characters JSON must escape: tab indentation, newlines,
 * double-quoted literals, backslashes (regexes, Windows paths, escape sequences in
 * literals), a raw control character now and then, and non-ASCII text including
 * astral characters (surrogate pairs).
 */
export function codeContent(random: () => number, length: number): string {
  const parts: string[] = [];
  let total = 0;
  const id = () => pick(random, IDENTIFIERS);
  const Id = () => {
    const name = id();
    return name[0]!.toUpperCase() + name.slice(1);
  };
  const uni = () => pick(random, UNICODE);
  while (total < length) {
    const fn = id() + Id();
    const lines = [
      `import { ${Id()}, ${Id()} } from "./${id()}/${id()}.js";`,
      '',
      `/** Reads the ${id()} of a ${id()} (${uni()} ${uni()}). */`,
      `export function ${fn}(${id()}: ${pick(random, TYPES)}, ${id()}: number): string {`,
      `\tconst pattern = /^\\s*"(?:[^"\\\\]|\\\\.)*"\\s*$/u;`,
      `\tconst label = "${id()}\\t${id()}\\n";`,
      `\tif (/^\\d+\\.\\d+$/.test(${id()})) {`,
      `\t\treturn "\\"${id()}\\": \\"" + ${id()} + "\\"";`,
      '\t}',
      `\tconst file = "C:\\\\Users\\\\${id()}\\\\${id()}.json";`,
      `\tconsole.log(\`\${${id()}} ${uni()} \${${id()}}\`, "\u001b[2m${id()}\u001b[0m");`,
      `\t// ${uni()}: keep "${id()}" and '${id()}' apart ${uni()}`,
      '\tfor (let i = 0; i < 10; i++) {',
      `\t\tif (${id()}[i] === "\\\\") ${id()} += "\\\\\\\\";`,
      `\t\telse if (${id()}[i] === "\\"") throw new Error("Unexpected \\"${id()}\\" at " + i);`,
      '\t}',
      `\treturn JSON.stringify({ "${id()}": ${id()}, "${id()}": [1, 2, 3], "${uni()}": "${uni()}" });`,
      '}',
      '',
    ];
    const piece = lines.join('\n') + '\n';
    parts.push(piece);
    total += piece.length;
  }
  return exactly(parts, length, ';');
}
