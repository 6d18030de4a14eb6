// Writes examples/transcripts/write-call.jsonl: one recorded `write` tool call whose
// arguments stream in fragments, as the demo page replays it. Deterministic (seeded PRNG), so
// rerunning it reproduces the committed file byte for byte.
//
//   node scripts/make-write-transcript.mjs [--kib 90] [--out path]
//
// Each line is `{"at": <ms since start>, "event": <CallfoldEvent>}`. The content is a
// plausible TypeScript module of exactly `--kib` KiB of UTF-8, mostly ASCII with a few
// non-ASCII characters (accents, CJK, one emoji: a surrogate pair, which fragments never
// split). Its JSON text carries escapes (`\n`, `\"`, `\\`) that fragments sometimes cut in
// half, as real model streams do. The whole argument text appears three times (deltas,
// block-end, tool/call), plus about 100 bytes of envelope per delta: 90 KiB of content makes
// a file of about 590 KiB, within the 600 KiB budget for it (200 KiB would make 1.3 MiB).
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { seeded } from './seeded-random.mjs';

const { values: options } = parseArgs({
  options: {
    kib: { type: 'string', default: '90' },
    out: {
      type: 'string',
      default: fileURLToPath(new URL('../examples/transcripts/write-call.jsonl', import.meta.url)),
    },
  },
});
const contentBytes = Number(options.kib) * 1024;
if (!Number.isInteger(contentBytes) || contentBytes < 4096) {
  throw new Error(`--kib must give a whole number of bytes, at least 4 KiB; got ${options.kib}`);
}

const { random, pick, between } = seeded(0xca11f01d);

const greetings = [
  ['en', 'Hello', 'Good day'],
  ['es', '¡Hola', 'Buenos días'],
  ['pt', 'Olá', 'Bom dia'],
  ['fr', 'Salut', 'Bonjour'],
  ['de', 'Hallo', 'Grüß Gott'],
  ['it', 'Ciao', 'Buongiorno'],
  ['tr', 'Merhaba', 'İyi günler'],
  ['ja', 'やあ', 'こんにちは'],
  ['sw', 'Jambo', 'Shikamoo'],
  ['haw', 'Aloha', 'Aloha kakahiaka'],
  ['x-wave', '👋', 'Hi there'],
];
const nouns = [
  'greeting',
  'salutation',
  'visitor',
  'audience',
  'banner',
  'welcome',
  'caption',
  'message',
  'signature',
  'farewell',
];
const verbs = ['format', 'render', 'compose', 'resolve', 'normalize', 'choose', 'build', 'select'];
const prose = [
  'Names arrive from user input, so they are trimmed and collapsed before they reach the template.',
  'A formal greeting is used when the audience is unknown; the informal one only after a first reply.',
  'Locales fall back from the most specific tag to its language, then to English.',
  'Keep the output stable: snapshot tests compare it byte for byte.',
  'The table is ordered by how often each locale appears in the access logs.',
  'An empty name is not an error; it produces a greeting without an addressee.',
  'Emoji are allowed in greetings but never in identifiers or file names.',
  'Right-to-left scripts are out of scope for this module and handled by the layout layer.',
  'This runs on every page view, so it avoids regular expressions in the hot path where it can.',
  'Time of day is passed in rather than read from the clock, which keeps the function pure.',
  'A caller that needs plural forms should use Intl.PluralRules instead of string concatenation.',
  'The separator after the greeting follows the locale: a comma in most, none in Japanese.',
];

/**
 * `count` distinct sentences as JSDoc lines.
 * @param {number} count
 */
function paragraph(count) {
  const pool = [...prose];
  /** @type {string[]} */
  const lines = [];
  for (let i = 0; i < count; i++)
    lines.push(` * ${pool.splice(between(0, pool.length - 1), 1)[0]}`);
  return lines.join('\n');
}

const header = `/**
 * hello.ts: greetings for every locale the site supports.
 *
${paragraph(4)}
 */

export interface Greeting {
  readonly locale: string;
  readonly informal: string;
  readonly formal: string;
}

export const GREETINGS: readonly Greeting[] = [
${greetings.map(([locale, informal, formal]) => `  { locale: '${locale}', informal: '${informal}', formal: "${formal}" },`).join('\n')}
];

const NAME_PATTERN = /^[\\p{L}\\p{M}\\s'.-]{1,80}$/u;
const SPACES = /\\s+/g;

`;

/** @type {((i: number, noun: string, verb: string) => string)[]} */
const blocks = [
  (i, noun, verb) => `/**
${paragraph(between(1, 3))}
 */
export function ${verb}${capitalize(noun)}${i}(name: string, locale = 'en'): string {
  const entry = GREETINGS.find((g) => g.locale === locale) ?? GREETINGS[0]!;
  const clean = name.trim().replace(SPACES, ' ');
  if (clean === '') return entry.informal;
  return \`\${entry.informal}, \${clean}!\`;
}
`,
  (i, noun, verb) => `/**
${paragraph(between(1, 2))}
 */
export function ${verb}${capitalize(noun)}Checked${i}(name: string): { ok: boolean; reason?: string } {
  if (!NAME_PATTERN.test(name)) {
    return { ok: false, reason: "name must be 1-80 letters, spaces, \\"'\\", '.' or '-'" };
  }
  return { ok: true };
}
`,
  (i, noun) => `export class ${capitalize(noun)}Book${i} {
  readonly #seen = new Map<string, number>();

  /** ${pick(prose)} */
  record(locale: string): number {
    const count = (this.#seen.get(locale) ?? 0) + 1;
    this.#seen.set(locale, count);
    return count;
  }

  get size(): number {
    return this.#seen.size;
  }
}
`,
  (i, noun, verb) => `// ${pick(prose)}
export function ${verb}${capitalize(noun)}ForHour${i}(hour: number, locale: string): string {
  const entry = GREETINGS.find((g) => g.locale === locale);
  switch (true) {
    case entry === undefined:
      return "Hello";
    case hour < 12:
      return entry.formal;
    case hour < 18:
      return \`\${entry.informal} (\${locale})\`;
    default:
      return entry.informal + '\\u00a0' + '\\u2014';
  }
}
`,
  (i, noun) => `export const ${noun}Config${i} = {
  "name": "hello-${noun}",
  "version": "1.${i}.${between(0, 9)}",
  "locales": [${greetings
    .slice(0, between(2, 6))
    .map(([locale]) => `"${locale}"`)
    .join(', ')}],
  "separator": "\\t",
} as const;
`,
];

/** @param {string} word */
function capitalize(word) {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/**
 * A module of exactly `bytes` UTF-8 bytes: whole blocks, then comment lines to fill.
 * @param {number} bytes
 */
function content(bytes) {
  const footer = '\nexport default GREETINGS;\n';
  const limit = bytes - Buffer.byteLength(footer) - 8;
  let body = header;
  for (let i = 1; ; i++) {
    const block = '\n' + pick(blocks)(i, pick(nouns), pick(verbs));
    if (Buffer.byteLength(body + block) > limit) break;
    body += block;
  }
  body += '\n';
  for (let room = bytes - Buffer.byteLength(body + footer); room > 0; ) {
    const line = `// ${pick(prose)}`.slice(0, Math.min(room, 98) - 1);
    const fill = room - line.length - 1 < 4 ? line.padEnd(room - 1, '.') : line;
    body += fill + '\n';
    room -= fill.length + 1;
  }
  const text = body + footer;
  if (Buffer.byteLength(text) !== bytes) throw new Error('content size is off');
  return text;
}

/**
 * Cuts text into 8–64 unit fragments, never between the halves of a surrogate pair.
 * @param {string} text
 */
function fragments(text) {
  /** @type {string[]} */
  const out = [];
  for (let at = 0; at < text.length; ) {
    let end = Math.min(text.length, at + between(8, 64));
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end++;
    out.push(text.slice(at, end));
    at = end;
  }
  return out;
}

const file = content(contentBytes);
const argsText = JSON.stringify({ file_path: 'examples/hello.ts', content: file });
const pieces = fragments(argsText);

// Arrival times: exponential gaps (a bursty network) with rare long pauses, scaled so the
// body streams over 7.6 s after a 420 ms wait for the first token.
const gaps = pieces.map(() => -Math.log(1 - random()) * (random() < 0.004 ? 60 : 1));
const scale = 7600 / gaps.reduce((sum, gap) => sum + gap, 0);
const ids = { attemptId: 'a1', block: 0, callId: 'call_1' };
/** @type {{ at: number, event: Record<string, unknown> }[]} */
const lines = [
  { at: 420, event: { type: 'stream/tool-call-delta', ...ids, name: 'write', args: '' } },
];
let clock = 420;
for (const [i, args] of pieces.entries()) {
  clock += /** @type {number} */ (gaps[i]) * scale;
  lines.push({ at: Math.round(clock), event: { type: 'stream/tool-call-delta', ...ids, args } });
}
const end = Math.round(clock);
lines.push(
  { at: end + 12, event: { type: 'stream/block-end', ...ids, text: argsText } },
  {
    at: end + 30,
    event: { type: 'tool/call', seq: 1, callId: 'call_1', name: 'write', args: argsText },
  },
  { at: end + 31, event: { type: 'stream/settle', attemptId: 'a1' } },
  {
    at: end + 214,
    event: {
      type: 'tool/result',
      seq: 2,
      callId: 'call_1',
      output: `Wrote ${Buffer.byteLength(file)} bytes`,
    },
  },
);
const jsonl = lines.map((line) => JSON.stringify(line)).join('\n') + '\n';
writeFileSync(options.out, jsonl);
console.log(
  `${options.out}: ${pieces.length} deltas over ${((end - 420) / 1000).toFixed(1)} s, ` +
    `content ${file.length} UTF-16 units (${Buffer.byteLength(file)} bytes), ` +
    `file ${(Buffer.byteLength(jsonl) / 1024).toFixed(0)} KiB`,
);
