import { expect } from 'chai';
import { fromOpenAIChatCompletions } from '../../src/providers/openai-chat-completions.js';
import { describe, it } from '../harness.js';
import { counted } from './support/counted-reads.js';
import { collect } from './support/fixtures.js';
import { ofType, run, shape, toolDeltas } from './support/run.js';

type ToolCallDelta = {
  index?: number;
  id?: string;
  function?: { name?: string; arguments?: string };
};

const chunk = (delta: object, finish: string | null = null) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion.chunk',
  choices: [{ index: 0, delta, finish_reason: finish }],
});
const calls = (...toolCalls: ToolCallDelta[]) => chunk({ tool_calls: toolCalls });
const done = chunk({}, 'tool_calls');

describe('fromOpenAIChatCompletions', () => {
  it('takes id and name from an index’s first chunk and arguments from the rest', async () => {
    const { events } = await run(fromOpenAIChatCompletions, [
      chunk({ role: 'assistant', content: '' }),
      calls({ index: 0, id: 'call_a', function: { name: 'Read', arguments: '' } }),
      calls({ index: 0, function: { arguments: '{"file_path":' } }),
      calls({ index: 0, function: { arguments: '"a.ts"}' } }),
      done,
    ]);
    expect(toolDeltas(events)).to.deep.equal([
      'call_a Read ',
      'call_a {"file_path":',
      'call_a "a.ts"}',
    ]);
    expect(shape(events)).to.deep.equal([
      'stream/tool-call-delta',
      'stream/block-end',
      'assistant/message',
      'tool/call',
      'stream/settle',
    ]);
    expect(ofType(events, 'tool/call')[0]).to.deep.include({
      callId: 'call_a',
      name: 'Read',
      args: '{"file_path":"a.ts"}',
    });
  });

  it('opens no text block for an empty first content, so reasoning comes first', async () => {
    const { events } = await run(fromOpenAIChatCompletions, [
      chunk({ role: 'assistant', content: '' }),
      chunk({ reasoning_content: 'Think.' }),
      chunk({ content: 'Answer.' }),
      chunk({}, 'stop'),
    ]);
    expect(ofType(events, 'assistant/message')[0]?.blocks).to.deep.equal([
      { type: 'reasoning', text: 'Think.' },
      { type: 'text', text: 'Answer.' },
    ]);
  });

  it('holds arguments that come before the name, and shows them with it', async () => {
    const { events } = await run(fromOpenAIChatCompletions, [
      calls({ index: 0, id: 'call_a', function: { arguments: '{"path"' } }),
      calls({ index: 0, function: { arguments: ':"x"' } }),
      calls({ index: 0, function: { name: 'Read', arguments: '}' } }),
      done,
    ]);
    expect(toolDeltas(events)).to.deep.equal(['call_a Read {"path":"x"}']);
    expect(ofType(events, 'stream/block-end')[0]?.text).to.equal('{"path":"x"}');
  });

  it('takes a name from a later chunk and keeps the first one given', async () => {
    const { events } = await run(fromOpenAIChatCompletions, [
      calls({ index: 0, id: 'call_a', function: { arguments: '' } }),
      calls({ index: 0, function: { name: 'Bash', arguments: '{}' } }),
      calls({ index: 0, function: { name: 'Bash' } }),
      done,
    ]);
    expect(toolDeltas(events)).to.deep.equal(['call_a Bash {}']);
  });

  it('synthesises attemptId:block when no id comes', async () => {
    const { events } = await run(fromOpenAIChatCompletions, [
      chunk({ content: 'Looking.' }),
      calls({ index: 0, function: { name: 'Read', arguments: '{"a":1}' } }),
      done,
    ]);
    expect(toolDeltas(events)).to.deep.equal(['a1:1 Read {"a":1}']);
    expect(ofType(events, 'tool/call')[0]?.callId).to.equal('a1:1');
    expect(ofType(events, 'assistant/message')[0]?.blocks).to.deep.equal([
      { type: 'text', text: 'Looking.' },
      { type: 'tool-use', callId: 'a1:1', name: 'Read', argsText: '{"a":1}' },
    ]);
  });

  it('skips empty argument strings and gives a call with no arguments {}', async () => {
    const { events } = await run(fromOpenAIChatCompletions, [
      calls({ index: 0, id: 'call_a', function: { name: 'now', arguments: '' } }),
      calls({ index: 0, function: { arguments: '' } }),
      calls({ index: 0, function: {} }),
      done,
    ]);
    expect(toolDeltas(events)).to.deep.equal(['call_a now ']);
    expect(ofType(events, 'stream/block-end')[0]?.text).to.equal('{}');
    expect(ofType(events, 'tool/call')[0]?.args).to.equal('{}');
  });

  it('keeps interleaved parallel calls apart by index', async () => {
    const { events } = await run(fromOpenAIChatCompletions, [
      calls(
        { index: 0, id: 'call_a', function: { name: 'Read', arguments: '{"p":' } },
        { index: 1, id: 'call_b', function: { name: 'Bash', arguments: '{"c":' } },
      ),
      calls({ index: 1, function: { arguments: '"ls"}' } }),
      calls({ index: 0, function: { arguments: '"x"}' } }),
      done,
    ]);
    expect(toolDeltas(events)).to.deep.equal([
      'call_a Read {"p":',
      'call_b Bash {"c":',
      'call_b "ls"}',
      'call_a "x"}',
    ]);
    expect(ofType(events, 'tool/call').map((c) => [c.callId, c.args])).to.deep.equal([
      ['call_a', '{"p":"x"}'],
      ['call_b', '{"c":"ls"}'],
    ]);
  });

  it('opens a new call for a new id at an index in use (servers that number every call 0)', async () => {
    const { events } = await run(fromOpenAIChatCompletions, [
      calls({ index: 0, id: 'call_a', function: { name: 'Read', arguments: '{"p":1}' } }),
      calls({ index: 0, id: 'call_b', function: { name: 'Read', arguments: '{"p":2}' } }),
      done,
    ]);
    expect(ofType(events, 'tool/call').map((c) => [c.callId, c.args])).to.deep.equal([
      ['call_a', '{"p":1}'],
      ['call_b', '{"p":2}'],
    ]);
  });

  it('uses the position when a server leaves out the index', async () => {
    const { events } = await run(fromOpenAIChatCompletions, [
      calls(
        { id: 'call_a', function: { name: 'Read', arguments: '{}' } },
        { id: 'call_b', function: { name: 'Bash', arguments: '{}' } },
      ),
      done,
    ]);
    expect(ofType(events, 'tool/call').map((c) => c.callId)).to.deep.equal(['call_a', 'call_b']);
  });

  it('does not show or dispatch a call that never gets a name', async () => {
    const { events } = await run(fromOpenAIChatCompletions, [
      calls({ index: 0, id: 'call_a', function: { arguments: '{}' } }),
      done,
    ]);
    expect(toolDeltas(events)).to.deep.equal([]);
    expect(ofType(events, 'assistant/message')[0]?.blocks).to.deep.equal([]);
    expect(ofType(events, 'tool/call')).to.deep.equal([]);
  });

  it('does not dispatch the last call of a response cut by the token limit (finish_reason length)', async () => {
    const { events } = await run(fromOpenAIChatCompletions, [
      calls({ index: 0, id: 'call_a', function: { name: 'Read', arguments: '{"p":1}' } }),
      calls({ index: 1, id: 'call_b', function: { name: 'Write', arguments: '{"content":"abc' } }),
      chunk({}, 'length'),
    ]);
    expect(ofType(events, 'assistant/message')[0]?.blocks.map((b) => b.type)).to.deep.equal([
      'tool-use',
      'tool-use',
    ]);
    expect(ofType(events, 'tool/call').map((c) => c.callId)).to.deep.equal(['call_a']);
  });

  it('streams reasoning_content as reasoning and ignores chunks after the finish (usage, [DONE])', async () => {
    const { events } = await run(fromOpenAIChatCompletions, [
      chunk({ reasoning_content: 'Think.' }),
      chunk({ content: 'Hi' }, 'stop'),
      {
        id: 'chatcmpl-1',
        object: 'chat.completion.chunk',
        choices: [],
        usage: { total_tokens: 3 },
      },
      chunk({ content: 'late' }),
    ]);
    expect(ofType(events, 'stream/text-delta')).to.deep.equal([
      { type: 'stream/text-delta', attemptId: 'a1', block: 0, text: 'Think.', reasoning: true },
      { type: 'stream/text-delta', attemptId: 'a1', block: 1, text: 'Hi' },
    ]);
    expect(ofType(events, 'assistant/message')[0]).to.deep.include({
      messageId: 'chatcmpl-1',
      blocks: [
        { type: 'reasoning', text: 'Think.' },
        { type: 'text', text: 'Hi' },
      ],
    });
    expect(events.at(-1)?.type).to.equal('stream/settle');
  });

  it('ends normally at [DONE] when no finish_reason came', async () => {
    const { events } = await run(fromOpenAIChatCompletions, [
      'data: {"choices":[{"index":0,"delta":{"content":"ok"}}]}\n\ndata: [DONE]\n',
    ]);
    expect(shape(events)).to.deep.equal([
      'stream/text-delta',
      'stream/block-end',
      'assistant/message',
      'stream/settle',
    ]);
  });
});

describe('fromOpenAIChatCompletions: work per chunk', () => {
  it('reads each field of a continuing chunk once, and its id only until the message has one (negative control: the first chunk reads its id)', async () => {
    const first = new Map<string, number>();
    const continuing = new Map<string, number>();
    const { events } = await run(fromOpenAIChatCompletions, [
      counted(calls({ index: 0, id: 'call_a', function: { name: 'Write', arguments: '' } }), first),
      counted(calls({ index: 0, function: { arguments: '{"file_path":' } }), continuing),
      calls({ index: 0, function: { arguments: '"a.ts"}' } }),
      done,
    ]);
    expect(ofType(events, 'tool/call')[0]?.args).to.equal('{"file_path":"a.ts"}');
    // The counter sees reads: the first chunk names the message.
    expect(first.get('id')).to.be.at.least(1);
    expect(continuing.has('id')).to.equal(false);
    const twice = [...continuing].filter(([, count]) => count > 1).map(([name]) => name);
    expect(twice).to.deep.equal([]);
    // What a continuing fragment costs: these fields, each once (the hot path of a 512 KiB write).
    expect([...continuing.keys()].sort()).to.deep.equal(
      [
        'choices',
        'choices.0',
        'choices.0.delta',
        'choices.0.delta.content',
        'choices.0.delta.reasoning',
        'choices.0.delta.reasoning_content',
        'choices.0.delta.refusal',
        'choices.0.delta.tool_calls',
        'choices.0.delta.tool_calls.0',
        'choices.0.delta.tool_calls.0.custom',
        'choices.0.delta.tool_calls.0.function',
        'choices.0.delta.tool_calls.0.function.arguments',
        'choices.0.delta.tool_calls.0.function.name',
        'choices.0.delta.tool_calls.0.id',
        'choices.0.delta.tool_calls.0.index',
        'choices.0.delta.tool_calls.0.type',
        'choices.0.finish_reason',
        'choices.0.index',
        'choices.length',
        'choices.0.delta.tool_calls.length',
        'error',
      ].sort(),
    );
  });

  // Failed before: once per chunk.
  it('reads the stream iterator’s next method once per stream, as for await does', async () => {
    const chunks = [
      calls({ index: 0, id: 'call_a', function: { name: 'Write', arguments: '' } }),
      ...Array.from({ length: 50 }, () => calls({ index: 0, function: { arguments: ' ' } })),
      done,
    ];
    let nextReads = 0;
    const stream: AsyncIterable<unknown> = {
      [Symbol.asyncIterator]() {
        const iterator = (async function* () {
          yield* chunks;
        })();
        return new Proxy(iterator, {
          get(target, key) {
            if (key === 'next') nextReads++;
            const value = Reflect.get(target, key, target);
            return typeof value === 'function' ? value.bind(target) : value;
          },
        });
      },
    };
    const { events } = await collect(fromOpenAIChatCompletions(stream));
    expect(ofType(events, 'tool/call')).to.have.length(1);
    // The counter counts: reading `next` on every chunk would be 52 reads.
    expect(nextReads).to.equal(1);
  });
});
