import { expect } from 'chai';
import fc from 'fast-check';
import { lastValueFrom, toArray } from 'rxjs';
import { anthropicWire } from '../../src/cli/probe/anthropic-wire.js';
import { observe as observeStream } from '../../src/cli/probe/first-call.js';
import { FirstKeyScanner } from '../../src/cli/probe/first-key.js';
import { openAIWire } from '../../src/cli/probe/openai-wire.js';
import { type Observation, StreamError, type Wire } from '../../src/cli/probe/wire.js';
import { fromOpenAIChatCompletions } from '../../src/providers/openai-chat-completions.js';
import { cutAt } from '../events/arbitraries.js';
import { describe, it } from '../harness.js';

function scan(pieces: readonly string[]): string | null | undefined {
  const scanner = new FirstKeyScanner();
  for (const piece of pieces) scanner.push(piece);
  return scanner.result;
}

describe('FirstKeyScanner', () => {
  it('finds the first key of any object text, cut into any fragments', () => {
    const key = fc.string({ unit: 'binary', maxLength: 12 });
    fc.assert(
      fc.property(
        fc.dictionary(key, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
        fc.constantFrom(undefined, 1, '\t', ' \n '),
        fc.array(fc.nat(), { maxLength: 8 }),
        (object, indent, offsets) => {
          const text = JSON.stringify(object, null, indent);
          // JSON.stringify writes keys in Object.keys order: the oracle for the textual first key.
          expect(scan(cutAt(text, offsets))).to.equal(Object.keys(object)[0] ?? null);
        },
      ),
    );
  });

  it('decodes escapes in the key and ignores everything after it', () => {
    expect(scan(['{"a\\', '"b\\u00', '41":', ' ['])).to.equal('a"bA');
    const scanner = new FirstKeyScanner();
    expect(scanner.push('  {\n "path"')).to.equal('path');
    expect(scanner.push(',"other": 1}')).to.equal('path');
  });

  it('answers null for text that is not an object, and for an empty one', () => {
    expect(scan(['[1]'])).to.equal(null);
    expect(scan(['"x"'])).to.equal(null);
    expect(scan(['{', ' }'])).to.equal(null);
    expect(scan(['{x:1}'])).to.equal(null);
  });

  it('stays undecided until the key closes, and gives up on an absurdly long key', () => {
    expect(scan(['{"descr'])).to.equal(undefined);
    expect(scan([''])).to.equal(undefined);
    expect(scan([`{"${'k'.repeat(2000)}`])).to.equal(null);
  });
});

/**
 * Reads raw SSE text through the wire's adapter, as the probe reads a response body: the
 * observation, or the StreamError thrown.
 */
async function observe(wire: Wire, text: string): Promise<Observation | StreamError> {
  try {
    return await observeStream(text, wire);
  } catch (error) {
    if (error instanceof StreamError) return error;
    throw error;
  }
}

const openAIChunk = (delta: object) =>
  `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: null }] })}\n\n`;

describe('the OpenAI Chat Completions reader', () => {
  it('reads the first call first key from argument fragments, the name from any chunk', async () => {
    const text =
      openAIChunk({ role: 'assistant', content: null }) +
      openAIChunk({
        tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { arguments: '' } }],
      }) +
      openAIChunk({ tool_calls: [{ index: 0, function: { name: 'bash', arguments: '{"desc' } }] }) +
      openAIChunk({ tool_calls: [{ index: 0, function: { arguments: 'ription": "List' } }] });
    expect(await observe(openAIWire, text)).to.deep.equal({
      kind: 'call',
      name: 'bash',
      firstKey: 'description',
    });
  });

  it('follows the first index when parallel calls interleave', async () => {
    const text =
      openAIChunk({
        tool_calls: [{ index: 0, id: 'a', function: { name: 'write', arguments: '{"con' } }],
      }) +
      openAIChunk({
        tool_calls: [
          { index: 1, id: 'b', function: { name: 'write', arguments: '{"file_path":"' } },
        ],
      }) +
      openAIChunk({ tool_calls: [{ index: 0, function: { arguments: 'tent":"' } }] });
    expect(await observe(openAIWire, text)).to.deep.equal({
      kind: 'call',
      name: 'write',
      firstKey: 'content',
    });
  });

  it('reports no call for a text answer, and a call with no key for {}', async () => {
    expect(
      await observe(openAIWire, openAIChunk({ content: 'I cannot.' }) + 'data: [DONE]\n\n'),
    ).to.deep.equal({
      kind: 'no-call',
    });
    const empty = openAIChunk({
      tool_calls: [{ index: 0, id: 'a', function: { name: 'read', arguments: '{}' } }],
    });
    expect(await observe(openAIWire, empty)).to.deep.equal({
      kind: 'call',
      name: 'read',
      firstKey: null,
    });
  });

  it('accepts arguments sent as an object in one piece', async () => {
    const text = openAIChunk({
      tool_calls: [
        { index: 0, id: 'a', function: { name: 'read', arguments: { file_path: '/x' } } },
      ],
    });
    expect(await observe(openAIWire, text)).to.deep.equal({
      kind: 'call',
      name: 'read',
      firstKey: 'file_path',
    });
  });

  it('agrees with the adapter on what was called and its first key, `function.arguments` as an object included (they disagreed before: the probe read the object, the adapter dispatched "{}")', async () => {
    const cases: unknown[][] = [
      ['{"file_path":', '"/x", "limit": 3}'],
      [{ file_path: '/x', limit: 3 }],
      [{ limit: 3, file_path: '/x' }],
      [{}],
      ['{', '}'],
    ];
    for (const pieces of cases) {
      const text =
        pieces
          .map((args, i) =>
            openAIChunk({
              tool_calls: [
                i === 0
                  ? {
                      index: 0,
                      id: 'a',
                      type: 'function',
                      function: { name: 'read', arguments: args },
                    }
                  : { index: 0, function: { arguments: args } },
              ],
            }),
          )
          .join('') +
        `data: ${JSON.stringify({ id: 'c', choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] })}\n\n` +
        'data: [DONE]\n\n';
      const events = await lastValueFrom(fromOpenAIChatCompletions(text).pipe(toArray()));
      const call = events.find((event) => event.type === 'tool/call');
      if (call?.type !== 'tool/call') throw new Error(`no call dispatched for ${text}`);
      const args = typeof call.args === 'string' ? JSON.parse(call.args) : call.args;
      expect(await observe(openAIWire, text), JSON.stringify(pieces)).to.deep.equal({
        kind: 'call',
        name: call.name,
        firstKey: Object.keys(args)[0] ?? null,
      });
    }
  });

  it('fails on a malformed chunk (not retryable) and on an error event (retryable)', async () => {
    const malformed = await observe(
      openAIWire,
      `${openAIChunk({ role: 'assistant' })}data: {"choices": [\n\n`,
    );
    expect(malformed).to.be.instanceOf(StreamError);
    expect((malformed as StreamError).retryable).to.equal(false);
    expect((malformed as StreamError).message).to.match(/^malformed chunk/);
    const failed = await observe(openAIWire, 'data: {"error":{"message":"overloaded"}}\n\n');
    expect((failed as StreamError).retryable).to.equal(true);
    expect((failed as StreamError).message).to.equal('error event: overloaded');
  });

  it('builds the request: chat messages, the tool alone, auto or forced choice', () => {
    const jsonSchema = {
      type: 'object' as const,
      properties: {},
      required: [],
      additionalProperties: false as const,
    };
    const request = {
      model: 'm',
      system: 's',
      prompt: 'p',
      tool: { name: 'bash', description: 'd', jsonSchema },
      maxTokens: 9,
    };
    expect(openAIWire.body({ ...request, choice: 'free' })).to.deep.include({
      tool_choice: 'auto',
      stream: true,
    });
    expect(openAIWire.body({ ...request, choice: 'forced' })).to.deep.include({
      tool_choice: { type: 'function', function: { name: 'bash' } },
    });
    expect(openAIWire.url('http://127.0.0.1:9/v1/')).to.equal(
      'http://127.0.0.1:9/v1/chat/completions',
    );
    expect(openAIWire.headers('sk-x').authorization).to.equal('Bearer sk-x');
    expect(openAIWire.headers(undefined)).not.to.have.property('authorization');
  });
});

const anthropicEvent = (type: string, data: object) =>
  `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;

describe('the Anthropic Messages reader', () => {
  const start =
    anthropicEvent('message_start', { message: { id: 'msg', content: [] } }) +
    anthropicEvent('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }) +
    anthropicEvent('content_block_delta', {
      index: 0,
      delta: { type: 'text_delta', text: 'Let me.' },
    }) +
    anthropicEvent('content_block_stop', { index: 0 }) +
    anthropicEvent('ping', {});

  it('reads the first tool_use block first key from input_json_delta fragments', async () => {
    const text =
      start +
      anthropicEvent('content_block_start', {
        index: 1,
        content_block: { type: 'tool_use', id: 'toolu_1', name: 'edit', input: {} },
      }) +
      anthropicEvent('content_block_delta', {
        index: 1,
        delta: { type: 'input_json_delta', partial_json: '' },
      }) +
      anthropicEvent('content_block_delta', {
        index: 1,
        delta: { type: 'input_json_delta', partial_json: '{"file_' },
      }) +
      anthropicEvent('content_block_delta', {
        index: 1,
        delta: { type: 'input_json_delta', partial_json: 'path": "/a' },
      });
    expect(await observe(anthropicWire, text)).to.deep.equal({
      kind: 'call',
      name: 'edit',
      firstKey: 'file_path',
    });
  });

  it('reports no call when the message ends with text only', async () => {
    expect(
      await observe(anthropicWire, `${start}${anthropicEvent('message_stop', {})}`),
    ).to.deep.equal({
      kind: 'no-call',
    });
  });

  it('reports a call with no key when its block stops empty', async () => {
    const text =
      anthropicEvent('content_block_start', {
        index: 0,
        content_block: { type: 'tool_use', id: 't', name: 'read', input: {} },
      }) +
      anthropicEvent('content_block_delta', {
        index: 0,
        delta: { type: 'input_json_delta', partial_json: '{}' },
      }) +
      anthropicEvent('content_block_stop', { index: 0 });
    expect(await observe(anthropicWire, text)).to.deep.equal({
      kind: 'call',
      name: 'read',
      firstKey: null,
    });
  });

  it('retries overloaded errors but not invalid requests', async () => {
    const overloaded = await observe(
      anthropicWire,
      anthropicEvent('error', { error: { type: 'overloaded_error', message: 'Overloaded' } }),
    );
    expect((overloaded as StreamError).retryable).to.equal(true);
    const invalid = await observe(
      anthropicWire,
      anthropicEvent('error', { error: { type: 'invalid_request_error', message: 'bad' } }),
    );
    expect((invalid as StreamError).retryable).to.equal(false);
  });

  it('builds the request: system apart, max_tokens, auto or forced tool choice', () => {
    const tool = {
      name: 'write',
      description: 'd',
      jsonSchema: {
        type: 'object' as const,
        properties: {},
        required: [],
        additionalProperties: false as const,
      },
    };
    const request = { model: 'm', system: 's', prompt: 'p', tool, maxTokens: 64 };
    expect(anthropicWire.body({ ...request, choice: 'free' })).to.deep.equal({
      model: 'm',
      max_tokens: 64,
      stream: true,
      system: 's',
      messages: [{ role: 'user', content: 'p' }],
      tools: [{ name: 'write', description: 'd', input_schema: tool.jsonSchema }],
      tool_choice: { type: 'auto' },
    });
    expect(anthropicWire.body({ ...request, choice: 'forced' })).to.deep.include({
      tool_choice: { type: 'tool', name: 'write' },
    });
    expect(anthropicWire.url('https://api.anthropic.com')).to.equal(
      'https://api.anthropic.com/v1/messages',
    );
    expect(anthropicWire.url('http://127.0.0.1:8/v1')).to.equal('http://127.0.0.1:8/v1/messages');
    expect(anthropicWire.headers('k')).to.deep.include({
      'x-api-key': 'k',
      'anthropic-version': '2023-06-01',
    });
  });
});
