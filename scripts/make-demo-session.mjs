// Writes examples/transcripts/demo-session.jsonl: the recorded agent session the demo page
// replays. Deterministic (seeded PRNG): rerunning it reproduces the file byte for byte.
//
//   node scripts/make-demo-session.mjs [--kib 512] [--out path]
//
// Each line is `{"at": <ms since the session started>, "event": <CallfoldEvent>}`, in the
// order an agent host sees them: what the provider adapters emit for each model response
// (text and tool-call deltas, block ends, then `assistant/message`, one `tool/call` per
// dispatched call and `stream/settle`), and what the host records itself (`turn/start`,
// `turn/end`, `tool/result`), numbered in one `seq` sequence as a `Session` numbers them. The
// demo page re-encodes each response into every provider's wire format at load time
// (examples/demo/encoders/), so that the same session replays through every adapter and
// gives these durable events exactly; test/examples/demo.node.test.ts checks it.
//
// Two turns, twelve model responses (attempts):
//   t1  a1  reasoning, text, Read ×2 and Grep in parallel (their fragments interleave)
//       a2  text, WebFetch
//       a3  text, a Write that the network cuts after 1.8 s: settles without records, so its
//           preparing row is withdrawn
//       a4  the retry: the same text, the Write again, whose content is `--kib` KiB
//       a5  text, Edit
//       a6  text, two Bash calls with descriptions in parallel; the tests fail (an error result)
//       a7  text, Edit and Bash (the tests pass)
//   t2  a8  text, apply_patch: a free-form call (`input: 'text'`), a Codex patch of two files
//       a9  text, a Write cut by the response's token limit inside its content: stopReason
//           `length`, the call `incomplete`, never dispatched
//       a10 text, Edit (the shorter entry)
//       a11 text, acme_wiki_publish (a tool callfold has no category for), which waits for
//           the user's approval (`tool/approval-request`, then `tool/approval`; granted here)
//       a12 a web search the provider runs (`executor: 'provider'`: call and result come from
//           the response), then the closing text
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { seeded } from './seeded-random.mjs';

/** @typedef {import('../src/events/types.js').CallfoldEvent} CallfoldEvent */
/** @typedef {import('../src/events/types.js').MessageBlock} MessageBlock */
/** @typedef {import('../src/events/types.js').StopReason} StopReason */
/** @typedef {import('../src/providers/session.js').UnnumberedEvent} UnnumberedEvent */
/** @typedef {[low: number, high: number] | (() => number)} Pace ms between fragments */
/** @typedef {{ name: string, args: object, pieces?: string[], pace?: Pace }} Call */
/** @typedef {{ name: string, callId: string, block: number, argsText: string, pieces: string[], pace: Pace }} CallStream */
/** @typedef {{ input?: 'text', executor?: 'provider' }} CallShape */
/** @typedef {{ callId: string, name: string, argsText: string, shape?: CallShape }} Dispatched */
/**
 * A part of `respondBlocks`: text, or a call (JSON `args`, or free-form `text`).
 * @typedef {{ name?: undefined, text: string }
 *   | { name: string, args?: object, input?: 'text', text?: string, executor?: 'provider',
 *       pieces?: [min: number, max: number], limit?: number, after?: number, output?: unknown }} Part
 */

const { values: options } = parseArgs({
  options: {
    kib: { type: 'string', default: '512' },
    out: {
      type: 'string',
      default: fileURLToPath(
        new URL('../examples/transcripts/demo-session.jsonl', import.meta.url),
      ),
    },
  },
});
const contentBytes = Number(options.kib) * 1024;
if (!Number.isInteger(contentBytes) || contentBytes < 8192) {
  throw new Error(`--kib must give a whole number of bytes, at least 8 KiB; got ${options.kib}`);
}

const { random, between, pick, id } = seeded(0xde770);

// ── The large file ──────────────────────────────────────────────────────────────────────

const locales = [
  ['en', 'Hello', 'Good day', ', '],
  ['fr', 'Salut', 'Bonjour', ', '],
  ['de', 'Hallo', 'Grüß Gott', ', '],
  ['es', '¡Hola', 'Buenos días', ', '],
  ['tr', 'Merhaba', 'İyi günler', ', '],
  ['ja', 'やあ', 'こんにちは', ''],
  ['sw', 'Jambo', 'Shikamoo', ', '],
  ['x-wave', '👋', 'Hi there', ' '],
];
const notes = [
  'Locales fall back from the most specific tag to its language, then to English.',
  'Names come from user input: trim them before they reach the template.',
  'Keep the output stable; snapshot tests compare it byte for byte.',
  'The separator follows the locale: Japanese uses none.',
  'An empty name is not an error; it gives a greeting without an addressee.',
  'Emoji are fine in greetings, never in identifiers.',
];
const nouns = ['greeting', 'salutation', 'welcome', 'banner', 'caption', 'farewell'];

/**
 * A TypeScript module of exactly `bytes` UTF-8 bytes, with quotes, backslashes and non-ASCII text.
 * @param {number} bytes
 */
function tableModule(bytes) {
  const header = `/**
 * greetings/table.ts: one greeting per supported locale, and the helpers that pick one.
 * ${notes[0]}
 */

export interface Greeting {
  readonly locale: string;
  readonly informal: string;
  readonly formal: string;
  readonly separator: string;
}

export const TABLE: readonly Greeting[] = [
${locales.map(([l, i, f, s]) => `  { locale: '${l}', informal: '${i}', formal: "${f}", separator: '${s}' },`).join('\n')}
];
`;
  /** @type {((i: number, noun: string) => string)[]} */
  const blocks = [
    (i, noun) => `
/** ${pick(notes)} */
export function ${noun}${i}(name: string, locale = 'en'): string {
  const entry = TABLE.find((g) => g.locale === locale) ?? TABLE[0]!;
  const clean = name.trim().replace(/\\s+/g, ' ');
  return clean === '' ? entry.informal : \`\${entry.informal}\${entry.separator}\${clean}!\`;
}
`,
    (i, noun) => `
// ${pick(notes)}
export const ${noun}Check${i} = (name: string): string | null =>
  /^[\\p{L}\\p{M}\\s'.-]{1,80}$/u.test(name) ? null : "name must be 1-80 letters, \\"'\\", '.' or '-'";
`,
    (i, noun) => `
export const ${noun}Config${i} = {
  "locales": [${locales
    .slice(0, between(2, 6))
    .map(([l]) => `"${l}"`)
    .join(', ')}],
  "separator": "\\t",
  "fallback": "en",
} as const;
`,
  ];
  const footer = '\nexport default TABLE;\n';
  let text = header;
  for (let i = 1; ; i++) {
    const block = pick(blocks)(i, pick(nouns));
    if (Buffer.byteLength(text + block + footer) > bytes - 120) break;
    text += block;
  }
  for (let room = bytes - Buffer.byteLength(text + footer); room > 0; ) {
    const line = `// ${pick(notes)}`.slice(0, Math.min(room, 90) - 1);
    const fill = room - line.length - 1 < 4 ? line.padEnd(room - 1, '.') : line;
    text += `${fill}\n`;
    room -= fill.length + 1;
  }
  text += footer;
  if (Buffer.byteLength(text) !== bytes) throw new Error('table module size is off');
  return text;
}

// ── Streaming helpers ───────────────────────────────────────────────────────────────────

/**
 * Fragments of 1..max UTF-16 units (at least min), never inside a surrogate pair.
 * @param {string} text
 * @param {number} min
 * @param {number} max
 */
function fragments(text, min, max) {
  /** @type {string[]} */
  const out = [];
  for (let at = 0; at < text.length; ) {
    let end = Math.min(text.length, at + between(min, max));
    const unit = text.charCodeAt(end - 1);
    if (end < text.length && unit >= 0xd800 && unit <= 0xdbff) end += 1;
    out.push(text.slice(at, end));
    at = end;
  }
  return out;
}

/**
 * A word and the space before it, as models stream prose.
 * @param {string} text
 */
const words = (text) => text.match(/\s*\S+/gu) ?? [];

/**
 * Interleaves lists, taking 1–3 items from a random open list at a time.
 * @template T
 * @param {readonly (readonly T[])[]} lists
 * @returns {T[]}
 */
function interleave(lists) {
  const queues = lists.map((list) => [...list]);
  /** @type {T[]} */
  const out = [];
  while (queues.some((q) => q.length > 0)) {
    const queue = pick(queues.filter((q) => q.length > 0));
    for (let n = between(1, 3); n > 0 && queue.length > 0; n--) {
      out.push(/** @type {T} */ (queue.shift()));
    }
  }
  return out;
}

// ── The session ─────────────────────────────────────────────────────────────────────────

/** The session's wall clock at its start: durable events carry `at` as a Session stamps it. */
const EPOCH = Date.UTC(2026, 10, 30, 9, 0, 0);
/** @type {{ at: number, event: CallfoldEvent }[]} */
const lines = [];
let seq = 0;
let clock = 0;
/** @param {CallfoldEvent} event */
const emit = (event) => lines.push({ at: Math.round(clock), event });
/** @param {UnnumberedEvent} event */
const record = (event) =>
  emit(/** @type {CallfoldEvent} */ ({ ...event, seq: ++seq, at: EPOCH + Math.round(clock) }));
/** @param {number} ms */
const wait = (ms) => {
  clock += ms;
};

/**
 * One model response. `calls` stream after the text, each in its `pieces` (default: token-
 * sized fragments) at its `pace` (ms between fragments: a range, or a function); `parallel`
 * calls name themselves in order, then their fragments interleave. `cutAfter` (ms after the
 * calls start) cuts the stream: it settles with no records. Returns the dispatched calls.
 * @param {{ attemptId: string, reasoning?: string, text: string, calls?: Call[], parallel?: boolean, cutAfter?: number }} response
 * @returns {CallStream[]}
 */
function respond({ attemptId, reasoning, text, calls = [], parallel = false, cutAfter }) {
  const messageId = id('msg_01', 22);
  /** @type {MessageBlock[]} */
  const blocks = [];
  let block = 0;
  /**
   * @param {string} value
   * @param {boolean} isReasoning
   */
  const prose = (value, isReasoning) => {
    for (const word of words(value)) {
      wait(between(18, 42));
      emit(
        isReasoning
          ? { type: 'stream/text-delta', attemptId, block, text: word, reasoning: true }
          : { type: 'stream/text-delta', attemptId, block, text: word },
      );
    }
    wait(4);
    emit({ type: 'stream/block-end', attemptId, block, text: value });
    blocks.push({ type: isReasoning ? 'reasoning' : 'text', text: value });
    block += 1;
  };
  wait(between(380, 650)); // time to first token
  if (reasoning) prose(reasoning, true);
  prose(text, false);

  const streams = calls.map((call) => {
    /** @type {Pace} */
    const pace = call.pace ?? [12, 30];
    const argsText = JSON.stringify(call.args);
    return {
      name: call.name,
      callId: id('toolu_01', 22),
      block: block++,
      argsText,
      pieces: call.pieces ?? fragments(argsText, 1, 7),
      pace,
    };
  });
  const cut = cutAfter === undefined ? Number.POSITIVE_INFINITY : clock + cutAfter;
  /**
   * @param {CallStream} stream
   * @param {string} args
   * @param {string} [name]
   */
  const delta = (stream, args, name) => {
    const event = /** @type {const} */ ({
      type: 'stream/tool-call-delta',
      attemptId,
      block: stream.block,
      callId: stream.callId,
    });
    emit(name === undefined ? { ...event, args } : { ...event, name, args });
  };
  /** @param {CallStream} stream */
  const ending = (stream) => {
    wait(3);
    emit({
      type: 'stream/block-end',
      attemptId,
      block: stream.block,
      callId: stream.callId,
      text: stream.argsText,
    });
  };
  /**
   * Streams the pieces in order; false when the cut came first.
   * @param {readonly { stream: CallStream, piece: string, pace: Pace, last: boolean }[]} items
   */
  const play = (items) => {
    for (const item of items) {
      wait(typeof item.pace === 'function' ? item.pace() : between(...item.pace));
      if (clock >= cut) return false;
      delta(item.stream, item.piece);
      if (item.last) ending(item.stream);
    }
    return true;
  };
  /** @param {CallStream} stream */
  const items = (stream) =>
    stream.pieces.map((piece, i) => ({
      stream,
      piece,
      pace: stream.pace,
      last: i === stream.pieces.length - 1,
    }));

  let complete = true;
  if (parallel) {
    for (const stream of streams) {
      wait(between(20, 60));
      delta(stream, '', stream.name);
    }
    complete = play(interleave(streams.map(items)));
  } else {
    for (const stream of streams) {
      wait(between(30, 90));
      delta(stream, '', stream.name);
      complete = play(items(stream));
      if (!complete) break;
    }
  }
  if (!complete) {
    clock = cut;
    emit({ type: 'stream/settle', attemptId });
    return [];
  }
  wait(between(20, 60));
  for (const stream of streams) {
    blocks.push({
      type: 'tool-use',
      callId: stream.callId,
      name: stream.name,
      argsText: stream.argsText,
    });
  }
  /** @type {StopReason} */
  const stopReason = streams.length > 0 ? 'tool-calls' : 'end';
  record({ type: 'assistant/message', messageId, attemptId, blocks, stopReason });
  for (const stream of streams) {
    record({ type: 'tool/call', callId: stream.callId, name: stream.name, args: stream.argsText });
  }
  emit({ type: 'stream/settle', attemptId });
  return streams;
}

/**
 * One model response with the newer call shapes, block after block: text (`{ text }`), a
 * JSON call (`{ name, args }`), a free-form call (`{ name, input: 'text', text }`: its input
 * streams as raw text) or a provider-run call (`executor: 'provider'`: recorded at its block
 * end, its `output` recorded `after` ms later by the provider, before the next block). A
 * call's `pieces` is its fragment size range (default 1–7 units). `limit` on the last call
 * cuts the response there, as a token limit does: it ends with stopReason `length`, the call's
 * tool-use block is `incomplete` and it is never dispatched. Returns the dispatched calls.
 * @param {{ attemptId: string, parts: readonly Part[] }} response
 * @returns {Dispatched[]}
 */
function respondBlocks({ attemptId, parts }) {
  const messageId = id('msg_01', 22);
  /** @type {MessageBlock[]} */
  const blocks = [];
  /** @type {Dispatched[]} */
  const dispatched = [];
  let block = 0;
  let cut = false;
  wait(between(380, 650));
  for (const part of parts) {
    if (part.name === undefined) {
      for (const word of words(part.text)) {
        wait(between(18, 42));
        emit({ type: 'stream/text-delta', attemptId, block, text: word });
      }
      wait(4);
      emit({ type: 'stream/block-end', attemptId, block, text: part.text });
      blocks.push({ type: 'text', text: part.text });
      block += 1;
      continue;
    }
    const free = part.input === 'text';
    const provider = part.executor === 'provider';
    const argsText = free ? (part.text ?? '') : JSON.stringify(part.args);
    const callId = id(provider ? 'srvtoolu_01' : 'toolu_01', 22);
    /** @type {CallShape} */
    const shape = {
      ...(free ? { input: 'text' } : {}),
      ...(provider ? { executor: 'provider' } : {}),
    };
    cut = part.limit !== undefined;
    const streamed = cut ? argsText.slice(0, part.limit) : argsText;
    wait(between(30, 90));
    emit({
      type: 'stream/tool-call-delta',
      attemptId,
      block,
      callId,
      name: part.name,
      args: '',
      ...shape,
    });
    const [min, max] = part.pieces ?? [1, 7];
    for (const piece of fragments(streamed, min, max)) {
      wait(between(12, 30));
      emit({ type: 'stream/tool-call-delta', attemptId, block, callId, args: piece, ...shape });
    }
    wait(3);
    emit({
      type: 'stream/block-end',
      attemptId,
      block,
      callId,
      text: streamed,
      ...(free ? { input: 'text' } : {}),
    });
    blocks.push({
      type: 'tool-use',
      callId,
      name: part.name,
      argsText: streamed,
      ...shape,
      ...(cut ? { incomplete: true } : {}),
    });
    block += 1;
    if (provider) {
      record({ type: 'tool/call', callId, name: part.name, args: argsText, ...shape });
      wait(part.after ?? 0);
      record({ type: 'tool/result', callId, output: part.output, executor: 'provider' });
    } else if (!cut) {
      dispatched.push({ callId, name: part.name, argsText, shape });
    }
    if (cut) break;
  }
  wait(between(20, 60));
  /** @type {StopReason} */
  const stopReason = cut ? 'length' : dispatched.length > 0 ? 'tool-calls' : 'end';
  record({ type: 'assistant/message', messageId, attemptId, blocks, stopReason });
  for (const call of dispatched) {
    record({
      type: 'tool/call',
      callId: call.callId,
      name: call.name,
      args: call.argsText,
      ...call.shape,
    });
  }
  emit({ type: 'stream/settle', attemptId });
  return dispatched;
}

/**
 * The host's results, each `after` ms after dispatch, in time order.
 * @param {readonly { callId: string }[]} dispatched
 * @param {readonly { after: number, output: unknown, isError?: boolean }[]} outputs
 */
function results(dispatched, outputs) {
  const start = clock;
  const timed = dispatched.map((call, i) => {
    const outcome = outputs[i];
    if (outcome === undefined) throw new Error(`no result given for call ${call.callId}`);
    return { call, ...outcome };
  });
  timed.sort((a, b) => a.after - b.after);
  for (const { call, after, output, isError } of timed) {
    clock = start + after;
    record(
      isError
        ? { type: 'tool/result', callId: call.callId, output, isError: true }
        : { type: 'tool/result', callId: call.callId, output },
    );
  }
}

/**
 * A write's pace: `seconds` for all its fragments, with bursts like a real network.
 * @param {number} count
 * @param {number} seconds
 */
function spread(count, seconds) {
  const gaps = Array.from({ length: count }, () => -Math.log(1 - random()));
  const scale = (seconds * 1000) / gaps.reduce((sum, gap) => sum + gap, 0);
  let i = 0;
  return () => /** @type {number} */ (gaps[i++ % count]) * scale;
}

const writeArgs = { file_path: 'src/greetings/table.ts', content: tableModule(contentBytes) };
/** The large write streams in batches of 96–320 units (as providers batch long arguments) over 16 s. */
const writeCall = () => {
  const pieces = fragments(JSON.stringify(writeArgs), 96, 320);
  return { name: 'Write', args: writeArgs, pieces, pace: spread(pieces.length, 16) };
};

/** The free-form patch of turn 2 (the Codex `apply_patch` format): two files. */
const docsPatch = `*** Begin Patch
*** Update File: README.md
@@ ## Usage
 Import the page helpers from \`src/index.ts\`.
+
+## Greetings
+
+\`greet(name, locale)\` greets in eight locales; see docs/greetings.md.
*** Add File: docs/greetings.md
+# Greetings
+
+The table in \`src/greetings/table.ts\` holds one entry per locale. A tag falls back to
+its language (\`pt-BR\` → \`pt\`), then to English. Japanese takes no separator.
*** End Patch`;

/** A changelog entry longer than the response may write: cut inside its content. */
const changelogArgs = {
  file_path: 'CHANGELOG.md',
  content: `# Changelog\n\n## Unreleased\n\n${locales
    .flatMap(([locale, informal, formal]) =>
      notes.map((note) => `- ${locale}: “${informal}” and “${formal}”. ${note}`),
    )
    .join('\n')}\n`,
};
/** Where the token limit cuts it: about two thirds in, inside `content`. */
const changelogLimit = Math.floor(JSON.stringify(changelogArgs).length * 0.65);

// Turn 1 ────────────────────────────────────────────────────────────────────────────────
record({ type: 'turn/start', turnId: 't1' });
wait(300);
const a1 = respond({
  attemptId: 'att_1',
  reasoning:
    'The user wants a greeting table with locale fallbacks. I should look at the package, ' +
    'the entry point and any existing greeting code before writing anything.',
  text: 'I’ll look at the project first: the package, the entry point, and any greeting code.',
  parallel: true,
  calls: [
    { name: 'Read', args: { file_path: 'package.json' } },
    { name: 'Read', args: { file_path: 'src/index.ts', limit: 200 } },
    { name: 'Grep', args: { pattern: 'greet(ing)?', path: 'src', glob: '*.ts' } },
  ],
});
results(a1, [
  {
    after: 140,
    output:
      '{\n  "name": "hello-site",\n  "type": "module",\n  "scripts": { "test": "vitest run" }\n}',
  },
  {
    after: 190,
    output: "export { render } from './render.js';\nexport { route } from './route.js';",
  },
  { after: 420, output: 'src/render.ts:12:  const greeting = "Hello, " + name;' },
]);

wait(700);
const a2 = respond({
  attemptId: 'att_2',
  text: 'There is no greeting module yet. Let me check how Intl.Locale resolves fallbacks.',
  calls: [
    {
      name: 'WebFetch',
      args: {
        url: 'https://developer.mozilla.org/en-US/docs/Web/JavaScript/Reference/Global_Objects/Intl/Locale',
        prompt: 'How do I get the language of a locale tag, for a fallback chain?',
      },
    },
  ],
});
results(a2, [
  {
    after: 1800,
    output:
      'Intl.Locale parses a BCP 47 tag: new Intl.Locale("pt-BR").language is "pt". ' +
      'maximize() and minimize() add or remove likely subtags.',
  },
]);

// The first try is cut 1.8 s into the write: the host sees the stream end without its
// terminal event and sends the same request again; the retry streams the whole file.
const tableText = 'Now the table: one entry per locale, with the helpers that pick one.';
wait(800);
respond({ attemptId: 'att_3', text: tableText, calls: [writeCall()], cutAfter: 1800 });
wait(900);
const a4 = respond({ attemptId: 'att_4', text: tableText, calls: [writeCall()] });
results(a4, [{ after: 260, output: `Wrote ${contentBytes} bytes to src/greetings/table.ts` }]);

wait(600);
const a5 = respond({
  attemptId: 'att_5',
  text: 'Next, export the table from the entry point.',
  calls: [
    {
      name: 'Edit',
      args: {
        file_path: 'src/index.ts',
        old_string: "export { route } from './route.js';",
        new_string:
          "export { route } from './route.js';\nexport { TABLE, greeting1 as greet } from './greetings/table.js';",
      },
    },
  ],
});
results(a5, [{ after: 120, output: 'Applied 1 edit to src/index.ts' }]);

wait(600);
const a6 = respond({
  attemptId: 'att_6',
  text: 'Now I’ll type-check and run the greeting tests, in parallel.',
  parallel: true,
  calls: [
    {
      name: 'Bash',
      args: { description: 'Type-check the project', command: 'npx tsc --noEmit -p tsconfig.json' },
    },
    {
      name: 'Bash',
      args: {
        description: 'Run the greeting tests',
        command: 'npx vitest run src/greetings --reporter=dot',
      },
    },
  ],
});
results(a6, [
  { after: 3100, output: { stdout: '', stderr: '', exitCode: 0 } },
  {
    after: 2300,
    isError: true,
    output: {
      stdout:
        '·····×··\n\nFAIL src/greetings/table.test.ts > ja greets without a separator\n' +
        'AssertionError: expected "やあ, 太郎!" to be "やあ太郎!"',
      stderr: '',
      exitCode: 1,
    },
  },
]);

wait(700);
const a7 = respond({
  attemptId: 'att_7',
  text: 'One test fails: the Japanese greeting gets a comma. The helper must use the entry’s separator.',
  calls: [
    {
      name: 'Edit',
      args: {
        file_path: 'src/greetings/table.ts',
        old_string: "  { locale: 'ja', informal: 'やあ', formal: \"こんにちは\", separator: '' },",
        new_string:
          "  { locale: 'ja', informal: 'やあ', formal: \"こんにちは\", separator: '' }, // no comma",
      },
    },
    {
      name: 'Bash',
      args: {
        description: 'Run the greeting tests again',
        command: 'npx vitest run src/greetings --reporter=dot',
      },
    },
  ],
});
results(a7, [
  { after: 110, output: 'Applied 1 edit to src/greetings/table.ts' },
  { after: 2400, output: { stdout: '········\n\n 8 passed', stderr: '', exitCode: 0 } },
]);
wait(400);
record({ type: 'turn/end', turnId: 't1' });

// Turn 2 ────────────────────────────────────────────────────────────────────────────────
wait(1500);
record({ type: 'turn/start', turnId: 't2' });
const a8 = respondBlocks({
  attemptId: 'att_8',
  parts: [
    { text: 'I’ll document the module: a README section and a docs page, in one patch.' },
    { name: 'apply_patch', input: 'text', text: docsPatch },
  ],
});
results(a8, [
  { after: 180, output: 'Success. Updated the following files:\nM README.md\nA docs/greetings.md' },
]);

// The changelog entry runs into the response's token limit inside its content: the
// response ends with stopReason 'length', the call stays incomplete and is never run.
wait(600);
respondBlocks({
  attemptId: 'att_9',
  parts: [
    { text: 'Now a changelog entry that lists every locale.' },
    { name: 'Write', args: changelogArgs, pieces: [24, 64], limit: changelogLimit },
  ],
});
wait(700);
const a10 = respondBlocks({
  attemptId: 'att_10',
  parts: [
    { text: 'That entry ran past my output limit; a one-line entry instead.' },
    {
      name: 'Edit',
      args: {
        file_path: 'CHANGELOG.md',
        old_string: '## Unreleased\n',
        new_string: '## Unreleased\n\n- Greetings in eight locales, with fallbacks to English.\n',
      },
    },
  ],
});
results(a10, [{ after: 120, output: 'Applied 1 edit to CHANGELOG.md' }]);

// Publishing is a side effect outside the repository: the host asks the user first. The
// recording's user approves after 2.5 s; the demo page waits for its viewer's answer here.
wait(600);
const a11 = respondBlocks({
  attemptId: 'att_11',
  parts: [
    { text: 'I’ll publish a short page about the module to the team wiki, if you approve.' },
    {
      name: 'acme_wiki_publish',
      args: {
        space: 'ENG',
        title: 'Greetings: locale fallbacks',
        body:
          'The greeting table lives in src/greetings/table.ts. Locales fall back to their ' +
          'language, then to English; Japanese greetings take no separator.',
        labels: ['i18n', 'frontend'],
      },
    },
  ],
});
for (const call of a11) record({ type: 'tool/approval-request', callId: call.callId });
wait(2500);
for (const call of a11) record({ type: 'tool/approval', callId: call.callId, approved: true });
results(a11, [
  {
    after: 900,
    output: { content: [{ type: 'text', text: 'Published ENG/greetings-locale-fallbacks (v1)' }] },
  },
]);

// The provider runs the web search itself (a server tool): its call and result come from the
// response, the host runs nothing.
wait(500);
respondBlocks({
  attemptId: 'att_12',
  parts: [
    {
      name: 'web_search',
      executor: 'provider',
      args: { query: 'CLDR parent locales fallback chain' },
      after: 1400,
      output: [
        {
          type: 'web_search_result',
          url: 'https://cldr.unicode.org/development/development-process/design-proposals/language-distance-data',
          title: 'Language Distance Data - CLDR',
          encrypted_content: 'EqwBCioIBhgCIiQ5YjVkY2Q2Ny1kZDI0LTRjMjEtOGU2OS0wYTg5NGY2ZWRlNjk',
          page_age: null,
        },
        {
          type: 'web_search_result',
          url: 'https://www.unicode.org/reports/tr35/#Locale_Inheritance',
          title: 'UTS #35: Locale Inheritance and Matching',
          encrypted_content: 'EqoBCioIBhgCIiRhMTk0YzE3Ni1lZGM5LTQ5OGYtYjY0Zi1lNGUwZWQ4NjA2Y2M',
          page_age: 'March 1, 2026',
        },
      ],
    },
    {
      text:
        'Done. The table covers eight locales with fallbacks to English, it is exported from ' +
        'src/index.ts, the tests pass, and the docs describe the fallback order, which ' +
        'matches CLDR’s locale inheritance.',
    },
  ],
});
wait(300);
record({ type: 'turn/end', turnId: 't2' });

const jsonl = lines.map((line) => `${JSON.stringify(line)}\n`).join('');
writeFileSync(options.out, jsonl);
const deltas = lines.filter((l) => l.event.type === 'stream/tool-call-delta').length;
console.log(
  `${options.out}: ${lines.length} events (${deltas} tool-call deltas, ${seq} durable) over ` +
    `${(clock / 1000).toFixed(1)} s; write content ${contentBytes} bytes; ` +
    `file ${(Buffer.byteLength(jsonl) / 1024).toFixed(0)} KiB`,
);
