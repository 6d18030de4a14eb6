// Writes the recorded provider streams under test/fixtures/<provider>/: for each provider a
// raw SSE body as the provider's documented wire format sends it (parallel-write.sse) and
// what a correct adapter must make of it (parallel-write.expected.json: the blocks of each
// attempt's assistant/message, and the tool results). Deterministic (seeded PRNG): rerunning
// it reproduces the files byte for byte (test/providers/provider-fixtures.node.test.ts checks that the
// committed files are what it writes).
//
//   npm run fixtures:providers            # compiles the encoders, then runs this
//   node scripts/make-provider-fixtures.mjs [--kib 64] [--out DIR]   # after tsc -p tsconfig.test.json
//
// One agent turn, the same for every provider: reasoning, text, two parallel calls (Read and
// Bash; their argument fragments interleave where the provider allows it), text between
// calls, then a large Write whose `content` is `--kib` KiB of UTF-8 (mostly ASCII, with
// accents, CJK and emoji, so byte cuts fall inside multi-byte sequences), streamed in
// token-sized fragments that sometimes cut an escape (`\n`, `\"`) in half, as real models
// do. Fragments never split a surrogate pair (providers cut at code points).
//
// This script only decides what the model says. The wire formats are written by the demo's
// typed encoders (examples/demo/encoders/*.ts, compiled into .build/ by tsconfig.test.json),
// the one place each format is encoded: the turn becomes the stream events of a recorded
// response (a ScriptAttempt) and each encoder writes it. The AI SDK stream is one run of
// three steps, with the tools' outputs inside it (`tool-output-available`), as a server that
// runs the tools sends it: the steps are encoded one by one and joined into one stream.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { seeded } from './seeded-random.mjs';

/** @typedef {import('../examples/demo/session-script.js').ScriptAttempt} ScriptAttempt */
/** @typedef {ScriptAttempt['stream'][number]['event']} StreamEvent */
/** @typedef {import('../src/events/types.js').MessageBlock} MessageBlock */
/** @typedef {import('../src/events/types.js').ToolUseBlock} ToolUseBlock */
/** @typedef {import('../examples/demo/encoders/timed-chunk.js').TimedChunk} TimedChunk */

const { values: options } = parseArgs({
  options: {
    kib: { type: 'string', default: '64' },
    out: { type: 'string', default: fileURLToPath(new URL('../test/fixtures/', import.meta.url)) },
  },
});
const contentBytes = Number(options.kib) * 1024;
if (!Number.isInteger(contentBytes) || contentBytes < 4096) {
  throw new Error(`--kib must give a whole number of bytes, at least 4 KiB; got ${options.kib}`);
}
const root = options.out;

/**
 * Imports a compiled encoder module from .build/ (tsconfig.test.json compiles them).
 * @param {string} file
 * @returns {Promise<any>}
 */
async function compiled(file) {
  const url = new URL(`../.build/examples/demo/encoders/${file}`, import.meta.url);
  try {
    return await import(url.href);
  } catch (error) {
    if (/** @type {{ code?: string }} */ (error).code !== 'ERR_MODULE_NOT_FOUND') throw error;
    throw new Error(
      `${fileURLToPath(url)} is missing: compile first (npx tsc -p tsconfig.test.json), or run npm run fixtures:providers`,
    );
  }
}

/** @type {typeof import('../examples/demo/encoders/openai-chat-completions.js')} */
const chat = await compiled('openai-chat-completions.js');
/** @type {typeof import('../examples/demo/encoders/openai-responses.js')} */
const responses = await compiled('openai-responses.js');
/** @type {typeof import('../examples/demo/encoders/anthropic-messages.js')} */
const anthropic = await compiled('anthropic-messages.js');
/** @type {typeof import('../examples/demo/encoders/ai-sdk-ui-stream.js')} */
const aiSdk = await compiled('ai-sdk-ui-stream.js');
/** @type {typeof import('../examples/demo/encoders/timed-chunk.js')} */
const timed = await compiled('timed-chunk.js');

const { between, pick, id, reseed } = seeded(0xf17c5);

// ── The turn ────────────────────────────────────────────────────────────────────────────

const words = [
  'greeting',
  'locale',
  'table',
  'fallback',
  'module',
  'export',
  'caller',
  'snapshot',
  'separator',
  'formal',
  'informal',
  'audience',
  'visitor',
  'banner',
  'template',
  'name',
];
const sentences = [
  'Names arrive from user input, so they are trimmed before they reach the template.',
  'Locales fall back from the most specific tag to its language, then to English.',
  'Keep the output stable: snapshot tests compare it byte for byte.',
  'Un café, s’il vous plaît — the separator follows the locale.',
  'こんにちは is used for the Japanese formal greeting.',
  'Emoji such as 👋 are allowed in greetings but never in identifiers.',
  'An empty name is not an error; it produces a greeting without an addressee.',
  'Grüß Gott, İyi günler and ¡Hola! all need their own capitalisation rules.',
];

/**
 * A TypeScript module of exactly `bytes` UTF-8 bytes.
 * @param {number} bytes
 */
function moduleText(bytes) {
  const header = '/**\n * greetings/table.ts: one greeting per supported locale.\n */\n\n';
  const parts = [header];
  let size = Buffer.byteLength(header);
  const footer = '\nexport default TABLE;\n';
  const limit = bytes - Buffer.byteLength(footer);
  for (let i = 1; ; i++) {
    const noun = pick(words);
    const block =
      `/** ${pick(sentences)} */\n` +
      `export function ${noun}${i}(name: string, locale = "en"): string {\n` +
      `\tconst entry = TABLE.find((g) => g.locale === locale) ?? TABLE[0]!;\n` +
      `\tif (name.trim() === '') return entry.informal;\n` +
      `\treturn \`\${entry.informal}, \${name.trim()}! \\u2014 ${pick(sentences).replaceAll('`', "'")}\`;\n` +
      `}\n\n`;
    const blockBytes = Buffer.byteLength(block);
    if (size + blockBytes > limit) break;
    parts.push(block);
    size += blockBytes;
  }
  let room = limit - size;
  while (room > 0) {
    const line = `// ${pick(sentences)}`;
    let fill = line.length + 1 <= room ? line : '/'.repeat(room - 1);
    if (room - Buffer.byteLength(fill) - 1 < 4 && room - Buffer.byteLength(fill) - 1 > 0) {
      fill = '/'.repeat(room - 1);
    }
    parts.push(`${fill}\n`);
    room -= Buffer.byteLength(fill) + 1;
  }
  parts.push(footer);
  const text = parts.join('');
  if (Buffer.byteLength(text) !== bytes) throw new Error('module size');
  return text;
}

/**
 * Fragments of `text` of 1–`max` UTF-16 units (at least `max / 8`), never inside a surrogate
 * pair. Small calls stream token by token (max 6); the large Write in batches of several
 * tokens (max 96), as Anthropic and OpenAI batch long arguments, which keeps the fixtures small.
 * @param {string} text
 * @param {number} max
 */
function fragments(text, max) {
  /** @type {string[]} */
  const out = [];
  for (let start = 0; start < text.length; ) {
    let end = Math.min(text.length, start + between(Math.max(1, max >> 3), max));
    const unit = text.charCodeAt(end - 1);
    if (end < text.length && unit >= 0xd800 && unit <= 0xdbff) end += 1;
    out.push(text.slice(start, end));
    start = end;
  }
  return out;
}

/**
 * Word-sized fragments of prose: a word and the space before it, as models stream text.
 * @param {string} text
 */
function words_(text) {
  return text.match(/\s*\S+/gu) ?? [];
}

const turn = {
  reasoning:
    'The user wants the greeting table rewritten. I should read the current module and list ' +
    'the source folder first, then write the new table in one go.',
  intro: "I'll read the current module and list the source folder first.",
  between: 'Both look as expected. Now I’ll write the new table — about 64 KiB of TypeScript.',
  read: { name: 'Read', args: { file_path: 'src/greetings/table.ts' } },
  bash: {
    name: 'Bash',
    args: { command: 'ls -la src/greetings', description: 'List the greeting sources' },
  },
  write: {
    name: 'Write',
    args: { file_path: 'src/greetings/table.ts', content: moduleText(contentBytes) },
  },
  outro: 'Done: the table now covers every locale, with a fallback to English.',
  results: [
    'export const TABLE = [];\n',
    { stdout: 'table.ts\nformat.ts\n', exitCode: 0 },
    'Wrote 65536 bytes to src/greetings/table.ts',
  ],
};

/**
 * A call's argument text, as a model writes it (compact JSON) and its fragments.
 * @param {object} args
 * @param {number} max
 */
function streamedArgs(args, max) {
  const text = JSON.stringify(args);
  return { text, pieces: fragments(text, max) };
}

/**
 * Interleaves lists of items, taking 1–3 items from a random list at a time.
 * @template T
 * @param {readonly (readonly T[])[]} lists
 * @returns {T[]}
 */
function interleave(lists) {
  const queues = lists.map((list) => [...list]);
  /** @type {T[]} */
  const out = [];
  while (queues.some((q) => q.length > 0)) {
    const open = queues.filter((q) => q.length > 0);
    const queue = pick(open);
    for (let n = between(1, 3); n > 0 && queue.length > 0; n--)
      out.push(/** @type {T} */ (queue.shift()));
  }
  return out;
}

/**
 * Writes one provider's stream and what its adapter must make of it.
 * @param {string} provider
 * @param {readonly TimedChunk[]} chunks
 * @param {{ messageId: string, attempts: { blocks: MessageBlock[] }[], results: { callId: string, output: unknown }[] }} expected
 */
function write(provider, chunks, expected) {
  const dir = join(root, provider);
  mkdirSync(dir, { recursive: true });
  const body = chunks.map((chunk) => chunk.data).join('');
  writeFileSync(join(dir, 'parallel-write.sse'), body);
  writeFileSync(
    join(dir, 'parallel-write.expected.json'),
    `${JSON.stringify(expected, null, 1)}\n`,
  );
  const kib = (Buffer.byteLength(body) / 1024).toFixed(0);
  console.log(`${provider}/parallel-write.sse: ${kib} KiB`);
}

// ── The turn as recorded responses ──────────────────────────────────────────────────────

/**
 * A model response in the making, as the encoders read it: its stream events in order (each
 * at its position), then, when done, its `assistant/message` and a `tool/call` per call.
 * @param {string} attemptId
 * @param {string} messageId
 */
function response(attemptId, messageId) {
  /** @type {{ at: number, event: StreamEvent }[]} */
  const stream = [];
  /** @param {StreamEvent} event */
  const push = (event) => stream.push({ at: stream.length, event });
  return {
    /**
     * Block `block` of text (or reasoning) in word-sized deltas; `end: false` leaves it open
     * (Chat Completions has one text block, continued after the calls).
     * @param {number} block
     * @param {string} text
     * @param {{ reasoning?: boolean, end?: boolean }} [how]
     */
    text(block, text, { reasoning = false, end = true } = {}) {
      for (const word of words_(text)) {
        push({
          type: 'stream/text-delta',
          attemptId,
          block,
          text: word,
          ...(reasoning ? { reasoning: true } : {}),
        });
      }
      if (end) push({ type: 'stream/block-end', attemptId, block, text });
    },
    /**
     * Call `call` as block `block`: a first delta naming it with no arguments (every
     * provider announces a call before its arguments), then one thunk per argument fragment
     * and one for its end, to be pushed in any interleaving.
     * @param {number} block
     * @param {string} callId
     * @param {{ name: string, args: object }} call
     * @param {number} max
     * @returns {{ use: ToolUseBlock, steps: (() => void)[], end: () => void }}
     */
    call(block, callId, call, max) {
      const { text, pieces } = streamedArgs(call.args, max);
      push({ type: 'stream/tool-call-delta', attemptId, block, callId, name: call.name, args: '' });
      return {
        use: { type: 'tool-use', callId, name: call.name, argsText: text },
        steps: pieces.map(
          (args) => () => push({ type: 'stream/tool-call-delta', attemptId, block, callId, args }),
        ),
        end: () => push({ type: 'stream/block-end', attemptId, block, callId, text }),
      };
    },
    /**
     * The response ended normally with `blocks`; its calls are dispatched.
     * @param {MessageBlock[]} blocks
     * @returns {ScriptAttempt}
     */
    done(blocks) {
      const at = stream.length;
      /** @type {ScriptAttempt['records'][number][]} */
      const records = [
        { at, event: { type: 'assistant/message', seq: 0, messageId, attemptId, blocks } },
      ];
      for (const block of blocks) {
        if (block.type !== 'tool-use') continue;
        const { callId, name, argsText: args } = block;
        records.push({ at, event: { type: 'tool/call', seq: 0, callId, name, args } });
      }
      return { attemptId, messageId, stream, end: at, finished: true, records };
    },
  };
}

/** @param {(() => void)[][]} lists */
const run = (lists) => {
  for (const step of interleave(lists)) step();
};

// ── OpenAI Chat Completions ─────────────────────────────────────────────────────────────

function chatCompletions() {
  reseed(0xc4a7);
  const messageId = id('chatcmpl-', 29);
  const r = response('attempt-1', messageId);
  // One text block, continued after the calls: Chat Completions has a single `content`.
  r.text(0, turn.intro, { end: false });
  // Read and Bash interleave; text between them and the Write (a compatible server's habit:
  // OpenAI itself sends content first).
  const read = r.call(1, id('call_', 24), turn.read, 6);
  const bash = r.call(2, id('call_', 24), turn.bash, 6);
  run([read.steps, bash.steps]);
  r.text(0, ` ${turn.between}`, { end: false });
  const writeCall = r.call(3, id('call_', 24), turn.write, 96);
  run([writeCall.steps]);
  /** @type {MessageBlock[]} */
  const blocks = [
    { type: 'text', text: `${turn.intro} ${turn.between}` },
    read.use,
    bash.use,
    writeCall.use,
  ];
  write(
    'openai-chat-completions',
    chat.encodeOpenAIChatCompletions(r.done(blocks), {
      model: 'gpt-4.1-2025-04-14',
      created: 1754000000,
    }),
    { messageId, attempts: [{ blocks }], results: [] },
  );
}

/**
 * The turn as one response with separate blocks: reasoning, text, Read and Bash (their
 * fragments interleaved), text, Write. Responses and Anthropic stream it alike (Anthropic's
 * encoder sends blocks one after another).
 * @param {string} messageId
 * @param {() => string} callId
 */
function blocksTurn(messageId, callId) {
  const r = response('attempt-1', messageId);
  r.text(0, turn.reasoning, { reasoning: true });
  r.text(1, turn.intro);
  const read = r.call(2, callId(), turn.read, 6);
  const bash = r.call(3, callId(), turn.bash, 6);
  run([read.steps, bash.steps]);
  read.end();
  bash.end();
  r.text(4, turn.between);
  const writeCall = r.call(5, callId(), turn.write, 96);
  run([writeCall.steps]);
  writeCall.end();
  /** @type {MessageBlock[]} */
  const blocks = [
    { type: 'reasoning', text: turn.reasoning },
    { type: 'text', text: turn.intro },
    read.use,
    bash.use,
    { type: 'text', text: turn.between },
    writeCall.use,
  ];
  return { attempt: r.done(blocks), blocks };
}

// ── OpenAI Responses ────────────────────────────────────────────────────────────────────

function openAIResponses() {
  reseed(0x7e5b);
  const messageId = id('resp_', 48);
  const { attempt, blocks } = blocksTurn(messageId, () => id('call_', 24));
  write(
    'openai-responses',
    responses.encodeOpenAIResponses(attempt, { model: 'gpt-5-2025-08-07', created: 1754000000 }),
    { messageId, attempts: [{ blocks }], results: [] },
  );
}

// ── Anthropic Messages ──────────────────────────────────────────────────────────────────

function anthropicMessages() {
  reseed(0xa17c);
  const messageId = id('msg_01', 22);
  const { attempt, blocks } = blocksTurn(messageId, () => id('toolu_01', 22));
  write(
    'anthropic-messages',
    anthropic.encodeAnthropicMessages(attempt, {
      model: 'claude-sonnet-4-5-20250929',
      created: 1754000000,
    }),
    { messageId, attempts: [{ blocks }], results: [] },
  );
}

// ── AI SDK UI message stream ────────────────────────────────────────────────────────────

/**
 * The chunk type of an encoded AI SDK chunk (`data: {"type": …}`), or `[DONE]`.
 * @param {TimedChunk} chunk
 * @returns {string}
 */
function chunkType(chunk) {
  const data = chunk.data.slice('data: '.length).trim();
  return data === '[DONE]' ? data : JSON.parse(data).type;
}

function aiSdkUIStream() {
  reseed(0xa15d);
  const messageId = id('msg-', 24);
  /** @type {{ callId: string, output: unknown }[]} */
  const results = [];
  /** @type {{ blocks: MessageBlock[] }[]} */
  const attempts = [];
  /** @type {TimedChunk[]} */
  const out = [];
  /**
   * One step of the run, encoded as one response; the run sends `start` once, the tools'
   * outputs before each `finish-step`, and `finish` and `[DONE]` only at its end.
   * @param {ScriptAttempt} attempt
   * @param {MessageBlock[]} blocks
   * @param {unknown[]} outputs
   * @param {'first' | 'middle' | 'last'} place
   */
  const step = (attempt, blocks, outputs, place) => {
    attempts.push({ blocks });
    const uses = blocks.filter((block) => block.type === 'tool-use');
    for (const chunk of aiSdk.encodeAISDKUIStream(attempt)) {
      const type = chunkType(chunk);
      if (type === 'start' && place !== 'first') continue;
      if ((type === 'finish' || type === '[DONE]') && place !== 'last') continue;
      if (type === 'finish-step') {
        uses.forEach((use, i) => {
          const output = outputs[i];
          out.push({
            at: chunk.at,
            data: timed.sseMessage({
              type: 'tool-output-available',
              toolCallId: use.callId,
              output,
            }),
          });
          results.push({ callId: use.callId, output });
        });
      }
      out.push(chunk);
    }
  };

  // Step 1: reasoning, text, Read and Bash in parallel (deltas interleaved), both run.
  const first = response('step-1', messageId);
  first.text(0, turn.reasoning, { reasoning: true });
  first.text(1, turn.intro);
  const read = first.call(2, id('call_', 24), turn.read, 6);
  const bash = first.call(3, id('call_', 24), turn.bash, 6);
  run([read.steps, bash.steps]);
  read.end();
  bash.end();
  /** @type {MessageBlock[]} */
  const step1 = [
    { type: 'reasoning', text: turn.reasoning },
    { type: 'text', text: turn.intro },
    read.use,
    bash.use,
  ];
  step(first.done(step1), step1, turn.results.slice(0, 2), 'first');

  // Step 2: text, then the large Write.
  const second = response('step-2', messageId);
  second.text(0, turn.between);
  const writeCall = second.call(1, id('call_', 24), turn.write, 96);
  run([writeCall.steps]);
  writeCall.end();
  /** @type {MessageBlock[]} */
  const step2 = [{ type: 'text', text: turn.between }, writeCall.use];
  step(second.done(step2), step2, turn.results.slice(2), 'middle');

  // Step 3: the closing text.
  const third = response('step-3', messageId);
  third.text(0, turn.outro);
  /** @type {MessageBlock[]} */
  const step3 = [{ type: 'text', text: turn.outro }];
  step(third.done(step3), step3, [], 'last');

  write('ai-sdk-ui-stream', out, { messageId, attempts, results });
}

chatCompletions();
openAIResponses();
anthropicMessages();
aiSdkUIStream();
