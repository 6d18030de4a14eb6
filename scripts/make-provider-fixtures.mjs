// Writes the recorded provider streams under test/fixtures/<provider>/: for each provider a
// raw SSE body exactly as the provider's documented wire format sends it
// (parallel-write.sse) and what a correct adapter must make of it
// (parallel-write.expected.json: the blocks of each attempt's assistant/message, and the
// tool results). Deterministic (seeded PRNG): rerunning it reproduces the files byte for byte.
//
//   node scripts/make-provider-fixtures.mjs [--kib 64]
//
// One agent turn, the same for every provider: reasoning, text, two parallel calls (Read and
// Bash; their argument fragments interleave where the provider allows it), text between
// calls, then a large Write whose `content` is `--kib` KiB of UTF-8 (mostly ASCII, with
// accents, CJK and emoji, so byte cuts fall inside multi-byte sequences), streamed in
// token-sized fragments that sometimes cut an escape (`\n`, `\"`) in half, as real models
// do. Fragments never split a surrogate pair (providers cut at code points).
//
// Wire formats, from the providers' API references:
// - OpenAI Chat Completions: `data: {chat.completion.chunk}` lines, `data: [DONE]` last;
//   tool_calls deltas by `index`, `id`/`type`/`function.name` only in an index's first chunk.
// - OpenAI Responses: `event: <type>` + `data: {type, sequence_number, …}`; output items
//   (reasoning, message, function_call) with added/delta/done events, `response.completed`.
// - Anthropic Messages: `event: <type>` + `data: {type, …}`; message_start,
//   content_block_start/delta/stop (thinking, text, tool_use with input_json_delta),
//   ping, message_delta, message_stop.
// - AI SDK v5 UI message stream: `data: {UIMessageChunk}` lines, `data: [DONE]` last; one
//   step per model call, tool outputs inside the step.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { seeded } from './seeded-random.mjs';

const { values: options } = parseArgs({ options: { kib: { type: 'string', default: '64' } } });
const contentBytes = Number(options.kib) * 1024;
if (!Number.isInteger(contentBytes) || contentBytes < 4096) {
  throw new Error(`--kib must give a whole number of bytes, at least 4 KiB; got ${options.kib}`);
}
const root = fileURLToPath(new URL('../test/fixtures/', import.meta.url));

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

/** A TypeScript module of exactly `bytes` UTF-8 bytes. */
function moduleText(bytes) {
  const parts = ['/**\n * greetings/table.ts: one greeting per supported locale.\n */\n\n'];
  let size = Buffer.byteLength(parts[0]);
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
 */
function fragments(text, max) {
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

/** Word-sized fragments of prose: a word and the space before it, as models stream text. */
function words_(text) {
  return text.match(/\s*\S+/gu) ?? [];
}

const turn = {
  reasoning:
    'The user wants the greeting table rewritten. I should read the current module and list ' +
    'the source folder first, then write the new table in one go.',
  intro: "I'll read the current module and list the source folder first.",
  between: 'Both look as expected. Now I’ll write the new table — about 64 KiB of TypeScript.',
  calls: [
    { name: 'Read', args: { file_path: 'src/greetings/table.ts' } },
    {
      name: 'Bash',
      args: { command: 'ls -la src/greetings', description: 'List the greeting sources' },
    },
  ],
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

/** A call's argument text, as a model writes it (compact JSON) and its fragments. */
function streamedArgs(args, max) {
  const text = JSON.stringify(args);
  return { text, pieces: fragments(text, max) };
}

/** Interleaves lists of items, taking 1–3 items from a random list at a time. */
function interleave(lists) {
  const queues = lists.map((list) => [...list]);
  const out = [];
  while (queues.some((q) => q.length > 0)) {
    const open = queues.filter((q) => q.length > 0);
    const queue = pick(open);
    for (let n = between(1, 3); n > 0 && queue.length > 0; n--) out.push(queue.shift());
  }
  return out;
}

function write(provider, body, expected) {
  const dir = join(root, provider);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'parallel-write.sse'), body);
  writeFileSync(
    join(dir, 'parallel-write.expected.json'),
    `${JSON.stringify(expected, null, 1)}\n`,
  );
  const kib = (Buffer.byteLength(body) / 1024).toFixed(0);
  console.log(`${provider}/parallel-write.sse: ${kib} KiB`);
}

const sse = (event, data) =>
  event
    ? `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`
    : `data: ${JSON.stringify(data)}\n\n`;

// ── OpenAI Chat Completions ─────────────────────────────────────────────────────────────

function chatCompletions() {
  reseed(0xc4a7);
  const completion = id('chatcmpl-', 29);
  const created = 1754000000;
  const chunk = (delta, finish = null) =>
    sse(null, {
      id: completion,
      object: 'chat.completion.chunk',
      created,
      model: 'gpt-4.1-2025-04-14',
      service_tier: 'default',
      system_fingerprint: 'fp_b3f1157249',
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    });
  const calls = [...turn.calls, turn.write].map((call, index) => ({
    index,
    id: id('call_', 24),
    name: call.name,
    ...streamedArgs(call.args, call === turn.write ? 96 : 6),
  }));
  const out = [chunk({ role: 'assistant', content: '', refusal: null })];
  for (const word of words_(turn.intro)) out.push(chunk({ content: word }));
  const toolChunks = (call) => [
    chunk({
      tool_calls: [
        {
          index: call.index,
          id: call.id,
          type: 'function',
          function: { name: call.name, arguments: '' },
        },
      ],
    }),
    ...call.pieces.map((piece) =>
      chunk({ tool_calls: [{ index: call.index, function: { arguments: piece } }] }),
    ),
  ];
  // Read and Bash interleave; text between them and the Write (a compatible server's habit:
  // OpenAI itself sends content first).
  const [first, second] = [toolChunks(calls[0]), toolChunks(calls[1])];
  out.push(first[0], second[0], ...interleave([first.slice(1), second.slice(1)]));
  for (const word of words_(` ${turn.between}`)) out.push(chunk({ content: word }));
  out.push(...toolChunks(calls[2]));
  out.push(chunk({}, 'tool_calls'), 'data: [DONE]\n\n');
  write('openai-chat-completions', out.join(''), {
    messageId: completion,
    attempts: [
      {
        blocks: [
          { type: 'text', text: `${turn.intro} ${turn.between}` },
          ...calls.map((c) => ({ type: 'tool-use', callId: c.id, name: c.name, argsText: c.text })),
        ],
      },
    ],
    results: [],
  });
}

// ── OpenAI Responses ────────────────────────────────────────────────────────────────────

function responses() {
  reseed(0x7e5b);
  const response = id('resp_', 48);
  let sequence = 0;
  const event = (type, fields) => sse(type, { type, sequence_number: sequence++, ...fields });
  const base = {
    id: response,
    object: 'response',
    created_at: 1754000000,
    model: 'gpt-5-2025-08-07',
    parallel_tool_calls: true,
    tool_choice: 'auto',
  };
  const out = [
    event('response.created', { response: { ...base, status: 'in_progress', output: [] } }),
    event('response.in_progress', { response: { ...base, status: 'in_progress', output: [] } }),
  ];
  const output = [];

  const reasoning = { id: id('rs_', 48), type: 'reasoning', summary: [] };
  out.push(event('response.output_item.added', { output_index: 0, item: reasoning }));
  const summaryPart = { item_id: reasoning.id, output_index: 0, summary_index: 0 };
  out.push(
    event('response.reasoning_summary_part.added', {
      ...summaryPart,
      part: { type: 'summary_text', text: '' },
    }),
  );
  for (const word of words_(turn.reasoning)) {
    out.push(event('response.reasoning_summary_text.delta', { ...summaryPart, delta: word }));
  }
  out.push(event('response.reasoning_summary_text.done', { ...summaryPart, text: turn.reasoning }));
  out.push(
    event('response.reasoning_summary_part.done', {
      ...summaryPart,
      part: { type: 'summary_text', text: turn.reasoning },
    }),
  );
  const reasoningDone = { ...reasoning, summary: [{ type: 'summary_text', text: turn.reasoning }] };
  output.push(reasoningDone);
  out.push(event('response.output_item.done', { output_index: 0, item: reasoningDone }));

  const message = (index, text) => {
    const item = {
      id: id('msg_', 48),
      type: 'message',
      status: 'in_progress',
      content: [],
      role: 'assistant',
    };
    const at = { item_id: item.id, output_index: index, content_index: 0 };
    const part = { type: 'output_text', annotations: [], logprobs: [], text: '' };
    out.push(event('response.output_item.added', { output_index: index, item }));
    out.push(event('response.content_part.added', { ...at, part }));
    for (const word of words_(text)) {
      out.push(event('response.output_text.delta', { ...at, delta: word, logprobs: [] }));
    }
    out.push(event('response.output_text.done', { ...at, text, logprobs: [] }));
    out.push(event('response.content_part.done', { ...at, part: { ...part, text } }));
    const done = { ...item, status: 'completed', content: [{ ...part, text }] };
    output.push(done);
    out.push(event('response.output_item.done', { output_index: index, item: done }));
  };
  const functionCall = (index, call, max) => {
    const item = {
      id: id('fc_', 48),
      type: 'function_call',
      status: 'in_progress',
      arguments: '',
      call_id: id('call_', 24),
      name: call.name,
    };
    const { text, pieces } = streamedArgs(call.args, max);
    return {
      item,
      text,
      added: event('response.output_item.added', { output_index: index, item }),
      deltas: pieces.map(
        (delta) => () =>
          event('response.function_call_arguments.delta', {
            item_id: item.id,
            output_index: index,
            delta,
          }),
      ),
      done: () => {
        const done = { ...item, status: 'completed', arguments: text };
        output.push(done);
        return [
          event('response.function_call_arguments.done', {
            item_id: item.id,
            output_index: index,
            arguments: text,
          }),
          event('response.output_item.done', { output_index: index, item: done }),
        ];
      },
    };
  };

  message(1, turn.intro);
  // Read and Bash are added together and their argument deltas interleave.
  const read = functionCall(2, turn.calls[0], 6);
  const bash = functionCall(3, turn.calls[1], 6);
  out.push(read.added, bash.added);
  for (const delta of interleave([read.deltas, bash.deltas])) out.push(delta());
  out.push(...read.done(), ...bash.done());
  message(4, turn.between);
  const writeCall = functionCall(5, turn.write, 96);
  out.push(writeCall.added);
  for (const delta of writeCall.deltas) out.push(delta());
  out.push(...writeCall.done());
  out.push(
    event('response.completed', {
      response: {
        ...base,
        status: 'completed',
        output,
        usage: { input_tokens: 2311, output_tokens: 19042, total_tokens: 21353 },
      },
    }),
  );
  const calls = [read, bash, writeCall];
  write('openai-responses', out.join(''), {
    messageId: response,
    attempts: [
      {
        blocks: [
          { type: 'reasoning', text: turn.reasoning },
          { type: 'text', text: turn.intro },
          ...calls.slice(0, 2).map(toolUseBlock),
          { type: 'text', text: turn.between },
          toolUseBlock(writeCall),
        ],
      },
    ],
    results: [],
  });
  function toolUseBlock(call) {
    return {
      type: 'tool-use',
      callId: call.item.call_id,
      name: call.item.name,
      argsText: call.text,
    };
  }
}

// ── Anthropic Messages ──────────────────────────────────────────────────────────────────

function anthropic() {
  reseed(0xa17c);
  const message = id('msg_01', 22);
  const out = [
    sse('message_start', {
      type: 'message_start',
      message: {
        id: message,
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-5-20250929',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: {
          input_tokens: 2311,
          cache_creation_input_tokens: 0,
          cache_read_input_tokens: 0,
          output_tokens: 4,
        },
      },
    }),
  ];
  const blocks = [];
  let index = 0;
  const start = (content_block) =>
    out.push(sse('content_block_start', { type: 'content_block_start', index, content_block }));
  const delta = (d) => sse('content_block_delta', { type: 'content_block_delta', index, delta: d });
  const stop = () => {
    out.push(sse('content_block_stop', { type: 'content_block_stop', index }));
    index += 1;
  };

  start({ type: 'thinking', thinking: '', signature: '' });
  for (const word of words_(turn.reasoning))
    out.push(delta({ type: 'thinking_delta', thinking: word }));
  out.push(delta({ type: 'signature_delta', signature: id('Eq', 120) }));
  stop();
  blocks.push({ type: 'reasoning', text: turn.reasoning });
  out.push(sse('ping', { type: 'ping' }));

  const text = (value) => {
    start({ type: 'text', text: '' });
    for (const word of words_(value)) out.push(delta({ type: 'text_delta', text: word }));
    stop();
    blocks.push({ type: 'text', text: value });
  };
  const tool = (call, max) => {
    const toolId = id('toolu_01', 22);
    start({ type: 'tool_use', id: toolId, name: call.name, input: {} });
    const { text: args, pieces } = streamedArgs(call.args, max);
    out.push(delta({ type: 'input_json_delta', partial_json: '' }));
    for (const piece of pieces) out.push(delta({ type: 'input_json_delta', partial_json: piece }));
    stop();
    blocks.push({ type: 'tool-use', callId: toolId, name: call.name, argsText: args });
  };

  // Anthropic streams content blocks one after another: parallel calls are consecutive.
  text(turn.intro);
  tool(turn.calls[0], 6);
  tool(turn.calls[1], 6);
  text(turn.between);
  tool(turn.write, 96);
  out.push(
    sse('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: 'tool_use', stop_sequence: null },
      usage: { output_tokens: 19042 },
    }),
    sse('message_stop', { type: 'message_stop' }),
  );
  write('anthropic-messages', out.join(''), {
    messageId: message,
    attempts: [{ blocks }],
    results: [],
  });
}

// ── AI SDK v5 UI message stream ─────────────────────────────────────────────────────────

function aiSdk() {
  reseed(0xa15d);
  const messageId = id('msg-', 24);
  const out = [sse(null, { type: 'start', messageId })];
  const attempts = [];
  const results = [];
  const text = (value, reasoning = false) => {
    const blockId = reasoning ? 'reasoning-0' : id('msg_', 48);
    const kind = reasoning ? 'reasoning' : 'text';
    out.push(sse(null, { type: `${kind}-start`, id: blockId }));
    for (const word of words_(value))
      out.push(sse(null, { type: `${kind}-delta`, id: blockId, delta: word }));
    out.push(sse(null, { type: `${kind}-end`, id: blockId }));
    return { type: kind, text: value };
  };
  const tool = (call, max) => {
    const toolCallId = id('call_', 24);
    const { text: args, pieces } = streamedArgs(call.args, max);
    return {
      toolCallId,
      block: { type: 'tool-use', callId: toolCallId, name: call.name, argsText: args },
      start: sse(null, { type: 'tool-input-start', toolCallId, toolName: call.name }),
      deltas: pieces.map((inputTextDelta) =>
        sse(null, { type: 'tool-input-delta', toolCallId, inputTextDelta }),
      ),
      available: sse(null, {
        type: 'tool-input-available',
        toolCallId,
        toolName: call.name,
        input: call.args,
      }),
    };
  };
  const output = (call, value) => {
    out.push(
      sse(null, { type: 'tool-output-available', toolCallId: call.toolCallId, output: value }),
    );
    results.push({ callId: call.toolCallId, output: value });
  };

  // Step 1: reasoning, text, Read and Bash in parallel (deltas interleaved), both run.
  out.push(sse(null, { type: 'start-step' }));
  const step1 = [text(turn.reasoning, true), text(turn.intro)];
  const read = tool(turn.calls[0], 6);
  const bash = tool(turn.calls[1], 6);
  out.push(
    read.start,
    bash.start,
    ...interleave([read.deltas, bash.deltas]),
    read.available,
    bash.available,
  );
  output(read, turn.results[0]);
  output(bash, turn.results[1]);
  out.push(sse(null, { type: 'finish-step' }));
  attempts.push({ blocks: [...step1, read.block, bash.block] });

  // Step 2: text, then the large Write.
  out.push(sse(null, { type: 'start-step' }));
  const step2 = [text(turn.between)];
  const writeCall = tool(turn.write, 96);
  out.push(writeCall.start, ...writeCall.deltas, writeCall.available);
  output(writeCall, turn.results[2]);
  out.push(sse(null, { type: 'finish-step' }));
  attempts.push({ blocks: [...step2, writeCall.block] });

  // Step 3: the closing text.
  out.push(sse(null, { type: 'start-step' }));
  attempts.push({ blocks: [text(turn.outro)] });
  out.push(sse(null, { type: 'finish-step' }), sse(null, { type: 'finish' }), 'data: [DONE]\n\n');
  write('ai-sdk-ui-stream', out.join(''), { messageId, attempts, results });
}

chatCompletions();
responses();
anthropic();
aiSdk();
