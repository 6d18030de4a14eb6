/**
 * fromGemini over Google's recorded streams (vercel/ai's `google-*.chunks.txt`, js-genai's
 * replay files) as raw SSE and as SDK objects: whole calls, Vertex AI's streamed arguments
 * (written as JSON text field by field), parallel calls, provider-run MCP calls, and the
 * finish reasons; live folds equal history folds.
 */
import { expect } from 'chai';
import { lastValueFrom, map } from 'rxjs';
import { Assembler } from '../../src/conversation/assembler.js';
import type { ToolNode } from '../../src/definitions/tool-definition.js';
import { type CallfoldEvent, isDurableEvent } from '../../src/events/types.js';
import { jsonStringText } from '../../src/internal/json-string-text.js';
import { internalProbe } from '../../src/internal/probe.js';
import { fromGemini } from '../../src/providers/gemini.js';
import { ProviderStreamError } from '../../src/providers/provider-stream-error.js';
import { assemble } from '../../src/rx/assemble.js';
import { describe, it } from '../harness.js';
import { fixedSession } from './support/cases.js';
import { counted } from './support/counted-reads.js';
import { asyncIterable, collect, type Outcome } from './support/fixtures.js';
import { geminiBody, geminiChunks, replayResponses } from './support/gemini-recordings.js';
import { checkInvariants } from './support/invariants.js';
import { sseResponse } from './support/recordings.js';
import { ofType } from './support/run.js';

async function fold(source: Parameters<typeof fromGemini>[0]): Promise<Outcome> {
  const outcome = await collect(fromGemini(source, { session: fixedSession() }));
  checkInvariants(outcome.events);
  return outcome;
}

async function foldBody(body: string): Promise<CallfoldEvent[]> {
  const outcome = await fold(sseResponse(body));
  expect(outcome.error).to.equal(undefined);
  return outcome.events;
}

function nodes(events: readonly CallfoldEvent[]): Map<string, ToolNode> {
  const assembler = new Assembler({ now: () => 0 });
  assembler.push(events);
  return new Map(assembler.publish().tools);
}

function view(node: ToolNode) {
  const { args, startedAt: _s, firstTokenAt: _f, ...rest } = node;
  return { ...rest, closed: args.closed() };
}

function expectHistoryEqualsLive(events: readonly CallfoldEvent[]): void {
  const live = [...nodes(events)].map(([id, node]) => [id, view(node)]);
  const history = [...nodes(events.filter(isDurableEvent))].map(([id, node]) => [id, view(node)]);
  expect(history).to.deep.equal(live);
  expect(live.length).to.be.greaterThan(0);
}

/** Each call's name and arguments as dispatched (ids aside), parsed when text. */
function dispatched(events: readonly CallfoldEvent[]): [string, unknown][] {
  return ofType(events, 'tool/call').map((c) => [
    c.name,
    typeof c.args === 'string' ? JSON.parse(c.args) : c.args,
  ]);
}

/** Per call: its deltas' fragments joined, and its block-end text. */
function streamedTexts(events: readonly CallfoldEvent[]): { joined: string; end: string }[] {
  const joined = new Map<string, string>();
  for (const e of ofType(events, 'stream/tool-call-delta')) {
    joined.set(e.callId, (joined.get(e.callId) ?? '') + e.args);
  }
  return ofType(events, 'stream/block-end')
    .filter((e) => e.callId !== undefined)
    .map((e) => ({ joined: joined.get(e.callId as string) ?? '', end: e.text }));
}

const recipe = {
  recipe: {
    ingredients: [
      { amount: '16 oz', name: 'Lasagna noodles' },
      { amount: '1 lb', name: 'Ground beef' },
      { amount: '15 oz', name: 'Ricotta cheese' },
      { amount: '3 cups', name: 'Mozzarella cheese' },
      { amount: '1/2 cup', name: 'Parmesan cheese' },
      { amount: '24 oz', name: 'Tomato sauce' },
      { amount: '1', name: 'Egg' },
      { amount: '2 cloves', name: 'Garlic' },
      { amount: '1 tsp', name: 'Salt' },
      { amount: '1/2 tsp', name: 'Pepper' },
    ],
    name: 'Lasagna',
    steps: [
      'Preheat oven to 375°F (190°C).',
      'Cook lasagna noodles according to package directions, drain and set aside.',
      'Brown ground beef with minced garlic in a skillet. Drain fat and stir in tomato sauce. Simmer for 10 minutes.',
      'In a bowl, mix ricotta cheese, egg, salt, pepper, and Parmesan cheese.',
      'In a 9x13 baking dish, spread a thin layer of meat sauce.',
      'Layer noodles, ricotta mixture, mozzarella, and meat sauce. Repeat.',
      'Top with remaining mozzarella cheese.',
      'Cover with foil and bake for 25 minutes.',
      'Remove foil and bake for another 25 minutes until golden.',
      'Let stand for 15 minutes before serving.',
    ],
  },
};

describe('fromGemini: recorded streams', () => {
  it('a whole functionCall with no id (gemini-3-pro): dispatched with a per-response id, thoughtSignature ignored', async () => {
    for (const file of ['google-tool-call.chunks.txt', 'google-tool-call-gemini3.chunks.txt']) {
      const events = await foldBody(await geminiBody(`vercel-ai/${file}`));
      expect(dispatched(events)).to.deep.equal([['weather', { location: 'San Francisco' }]]);
      const [call] = ofType(events, 'tool/call');
      expect(call?.callId).to.equal('a1:0');
      expect(call?.args).to.deep.equal({ location: 'San Francisco' });
      const [message] = ofType(events, 'assistant/message');
      expect(message?.stopReason).to.equal('tool-calls');
      expect(message?.messageId).to.be.a('string').and.not.equal('a1');
      expect(JSON.stringify(events)).not.to.include('thoughtSignature');
      expectHistoryEqualsLive(events);
    }
  });

  it('thought text, a call with no arguments, then three parallel streamed calls (gemini-3-flash, Vertex)', async () => {
    const events = await foldBody(
      await geminiBody('vercel-ai/google-stream-no-args-tool-call.chunks.txt'),
    );
    expect(dispatched(events)).to.deep.equal([
      ['read_theme', {}],
      ['read_screen', { id: 'A' }],
      ['read_screen', { id: 'B' }],
      ['read_screen', { id: 'C' }],
    ]);
    const ids = ofType(events, 'tool/call').map((c) => c.callId);
    expect(new Set(ids).size).to.equal(4);
    const [message] = ofType(events, 'assistant/message');
    expect(message?.blocks[0]).to.include({ type: 'reasoning' });
    expect(message?.blocks.map((b) => b.type)).to.deep.equal([
      'reasoning',
      'tool-use',
      'tool-use',
      'tool-use',
      'tool-use',
    ]);
    for (const { joined, end } of streamedTexts(events).slice(1)) expect(end).to.equal(joined);
    expectHistoryEqualsLive(events);
  });

  it('partialArgs by JSON path: two getWeather calls, each streamed as JSON text whose block-end is the fragments joined', async () => {
    const events = await foldBody(
      await geminiBody('vercel-ai/google-stream-tool-call-arguments.chunks.txt'),
    );
    expect(dispatched(events)).to.deep.equal([
      ['getWeather', { location: 'Boston' }],
      ['getWeather', { location: 'San Francisco' }],
    ]);
    for (const { joined, end } of streamedTexts(events)) {
      expect(end).to.equal(joined);
      expect(JSON.parse(end)).to.have.property('location');
    }
    expectHistoryEqualsLive(events);
  });

  it('75 chunks of nested arguments ($.recipe.ingredients[0].amount …) stream field by field, in key order', async () => {
    const events = await foldBody(
      await geminiBody('vercel-ai/google-vertex-stream-tool-call-arguments-nested.1.chunks.txt'),
    );
    expect(dispatched(events)).to.deep.equal([['cookRecipe', recipe]]);
    const [{ joined, end } = { joined: '', end: '' }] = streamedTexts(events);
    expect(end).to.equal(joined);
    expect(end).to.equal(JSON.stringify(recipe));
    const deltas = ofType(events, 'stream/tool-call-delta');
    expect(deltas.length).to.be.greaterThan(40);
    // The first step's text is shown before the call ends: field by field, not at the end.
    const prefix = deltas.map((d) => d.args);
    const upTo = prefix.findIndex((_, i) =>
      prefix
        .slice(0, i + 1)
        .join('')
        .includes('Preheat oven'),
    );
    expect(upTo).to.be.within(1, deltas.length - 10);
    const node = nodes(events).get('a1:0') as ToolNode;
    expect(node.stage).to.equal('start');
    expectHistoryEqualsLive(events);
  });

  it('array arguments whose closing functionCall never comes: the last part without willContinue ends the call', async () => {
    const events = await foldBody(
      await geminiBody(
        'vercel-ai/google-stream-tool-call-array-arguments-missing-terminal-function-call.chunks.txt',
      ),
    );
    expect(dispatched(events)).to.deep.equal([
      [
        'writeItems',
        {
          operations: [
            { action: 'add', description: 'Fresh red apple', itemid: 'apple_001', price: 0.5 },
            { action: 'add', description: 'Ripe yellow banana', itemid: 'banana_001', price: 0.3 },
          ],
        },
      ],
    ]);
    for (const { joined, end } of streamedTexts(events)) expect(end).to.equal(joined);
    expectHistoryEqualsLive(events);
  });

  it("js-genai's Vertex replay (streamFunctionCallArguments): getCurrentWeather's four fields, closed by functionCall {}", async () => {
    const [response] = await replayResponses(
      'js-genai/vertex-stream-function-call-arguments.replay.json',
    );
    const events = await foldBody(response?.body ?? '');
    expect(dispatched(events)).to.deep.equal([
      [
        'getCurrentWeather',
        {
          country: 'USA',
          location: 'NewYorkCity',
          purpose: 'to know what to wear today',
          unit: 'C',
        },
      ],
    ]);
    for (const { joined, end } of streamedTexts(events)) expect(end).to.equal(joined);
    expectHistoryEqualsLive(events);
  });

  it("js-genai's chat replay: a whole call as name + partialArgs numberValues in one part, then a text answer", async () => {
    const [first, second] = await replayResponses(
      'js-genai/vertex-chat-partial-args-one-chunk.replay.json',
    );
    const session = fixedSession();
    const one = await collect(fromGemini(sseResponse(first?.body ?? ''), { session }));
    const two = await collect(fromGemini(sseResponse(second?.body ?? ''), { session }));
    expect(dispatched(one.events)).to.deep.equal([
      ['customDivide', { denominator: 2, numerator: 100 }],
    ]);
    const [message] = ofType(two.events, 'assistant/message');
    expect(message?.blocks).to.deep.equal([{ type: 'text', text: 'The result of 100/2 is 51.' }]);
    expect(message?.stopReason).to.equal('end');
    expectHistoryEqualsLive([...one.events, ...two.events]);
  });

  it("js-genai's server-side MCP stream: the call the provider answers in its own stream is the provider's, not dispatched", async () => {
    const [response] = await replayResponses('js-genai/server-side-mcp-stream.replay.json');
    const events = await foldBody(response?.body ?? '');
    const calls = ofType(events, 'tool/call');
    expect(calls.map((c) => [c.name, c.executor])).to.deep.equal([
      ['weather_server_get_weather', 'provider'],
    ]);
    const [result] = ofType(events, 'tool/result');
    expect(result).to.include({ callId: calls[0]?.callId, executor: 'provider' });
    expect(result?.output).to.have.property('call_tool_result_json');
    const [message] = ofType(events, 'assistant/message');
    expect(message?.blocks.map((b) => b.type)).to.deep.equal(['tool-use', 'text']);
    expect(message?.stopReason).to.equal('end');
    expectHistoryEqualsLive(events);
  });

  it('SDK objects (an async iterable of GenerateContentResponses) give the same events as the SSE bytes', async () => {
    const file = 'vercel-ai/google-vertex-stream-tool-call-arguments-nested.1.chunks.txt';
    const fromBytes = await foldBody(await geminiBody(file));
    const fromObjects = await fold(asyncIterable(await geminiChunks(file)));
    expect(fromObjects.error).to.equal(undefined);
    expect(fromObjects.events).to.deep.equal(fromBytes);
  });
});

describe('fromGemini: finish reasons and cuts', () => {
  const opened = (text: string) => ({
    candidates: [
      {
        content: {
          role: 'model',
          parts: [
            {
              functionCall: {
                partialArgs: [{ jsonPath: '$.content', stringValue: text, willContinue: true }],
                willContinue: true,
              },
            },
          ],
        },
      },
    ],
  });
  const named = {
    candidates: [
      {
        content: {
          role: 'model',
          parts: [{ text: 'Writing.' }, { functionCall: { name: 'write', willContinue: true } }],
        },
      },
    ],
  };
  const path = {
    candidates: [
      {
        content: {
          role: 'model',
          parts: [
            {
              functionCall: {
                partialArgs: [{ jsonPath: '$.path', stringValue: 'a.md' }],
                willContinue: true,
              },
            },
          ],
        },
      },
    ],
  };
  const finish = (reason: string) => ({
    candidates: [{ content: { role: 'model', parts: [{ text: '' }] }, finishReason: reason }],
  });

  it('MAX_TOKENS inside a streamed call: incomplete, not dispatched, stopReason length', async () => {
    const { events, error } = await fold([
      named,
      path,
      opened('# Title\n'),
      opened('more'),
      finish('MAX_TOKENS'),
    ]);
    expect(error).to.equal(undefined);
    expect(ofType(events, 'tool/call')).to.have.length(0);
    const [message] = ofType(events, 'assistant/message');
    expect(message?.stopReason).to.equal('length');
    expect(message?.blocks[1]).to.include({ type: 'tool-use', incomplete: true });
    expect(message?.blocks[1]).to.include({ argsText: '{"path":"a.md","content":"# Title\\nmore' });
    const node = nodes(events).get('a1:1') as ToolNode;
    expect(node).to.include({ stage: 'preparing', incomplete: true, stopReason: 'length' });
    expect(node.args.text('path')).to.equal('a.md');
    expectHistoryEqualsLive(events);
  });

  it('SAFETY is content-filter and cuts the same way', async () => {
    const { events } = await fold([named, path, opened('x'), finish('SAFETY')]);
    expect(ofType(events, 'tool/call')).to.have.length(0);
    expect(ofType(events, 'assistant/message')[0]?.stopReason).to.equal('content-filter');
  });

  it('STOP with a call still streaming closes and dispatches it with the values it has', async () => {
    const { events } = await fold([named, path, opened('body'), finish('STOP')]);
    expect(dispatched(events)).to.deep.equal([['write', { path: 'a.md', content: 'body' }]]);
    for (const { joined, end } of streamedTexts(events)) expect(end).to.equal(joined);
  });

  it('a body that ends without a finishReason was cut: settle alone, no message, no call', async () => {
    const { events, completed } = await fold([named, path, opened('x')]);
    expect(completed).to.equal(true);
    expect(events.filter(isDurableEvent)).to.have.length(0);
    expect(events.at(-1)?.type).to.equal('stream/settle');
  });

  it('a blocked prompt (promptFeedback.blockReason, no candidate) ends as content-filter', async () => {
    const { events } = await fold([{ promptFeedback: { blockReason: 'SAFETY' } }]);
    expect(ofType(events, 'assistant/message')[0]?.stopReason).to.equal('content-filter');
  });

  it('an error chunk fails the stream with a ProviderStreamError after settling', async () => {
    const { events, error } = await fold([
      named,
      { error: { code: 500, message: 'Internal error', status: 'INTERNAL' } },
    ]);
    expect(error).to.be.instanceOf(ProviderStreamError);
    expect((error as Error).message).to.equal('Internal error');
    expect(events.at(-1)?.type).to.equal('stream/settle');
  });

  it('code execution parts are a provider-run call and its result', async () => {
    const { events } = await fold([
      {
        candidates: [
          {
            content: {
              parts: [
                { executableCode: { language: 'PYTHON', code: 'print(1)' } },
                { codeExecutionResult: { outcome: 'OUTCOME_OK', output: '1\n' } },
                { text: 'One.' },
              ],
            },
            finishReason: 'STOP',
          },
        ],
      },
    ]);
    const [call] = ofType(events, 'tool/call');
    expect(call).to.include({ name: 'code_execution', executor: 'provider' });
    expect(call?.args).to.deep.equal({ language: 'PYTHON', code: 'print(1)' });
    expect(ofType(events, 'tool/result')[0]?.output).to.deep.equal({
      outcome: 'OUTCOME_OK',
      output: '1\n',
    });
    expect(ofType(events, 'assistant/message')[0]?.stopReason).to.equal('end');
    expectHistoryEqualsLive(events);
  });

  it('values that go back into a closed object cannot stream: the block-end gives the whole arguments', async () => {
    const entry = (jsonPath: string, stringValue: string) => ({
      candidates: [
        {
          content: {
            parts: [
              { functionCall: { partialArgs: [{ jsonPath, stringValue }], willContinue: true } },
            ],
          },
        },
      ],
    });
    const { events } = await fold([
      {
        candidates: [{ content: { parts: [{ functionCall: { name: 'f', willContinue: true } }] } }],
      },
      entry('$.a.x', '1'),
      entry('$.b', '2'),
      entry('$.a.y', '3'),
      { candidates: [{ content: { parts: [{ functionCall: {} }] }, finishReason: 'STOP' }] },
    ]);
    expect(dispatched(events)).to.deep.equal([['f', { a: { x: '1', y: '3' }, b: '2' }]]);
    const [{ end } = { end: '' }] = streamedTexts(events);
    expect(end).to.equal('{"a":{"x":"1","y":"3"},"b":"2"}');
    expectHistoryEqualsLive(events);
  });

  it('a string streamed in pieces, then a value back in a closed object and more of that string: read back whole from the argument text', async () => {
    const entry = (jsonPath: string, stringValue: string, willContinue = false) => ({
      candidates: [
        {
          content: {
            parts: [
              {
                functionCall: {
                  partialArgs: [
                    { jsonPath, stringValue, ...(willContinue ? { willContinue } : {}) },
                  ],
                  willContinue: true,
                },
              },
            ],
          },
        },
      ],
    });
    // Escapes, a backslash, a non-ASCII letter and a surrogate pair split across two pieces.
    const pieces = ['say "hi"\n', 'line\\two\n', 'caf\u00e9 \ud83d', '\ude00 end'];
    const { events } = await fold([
      {
        candidates: [{ content: { parts: [{ functionCall: { name: 'f', willContinue: true } }] } }],
      },
      entry('$.meta.kind', 'note'),
      ...pieces.map((piece) => entry('$.content', piece, true)),
      entry('$.content', ''),
      entry('$.meta.size', '3'),
      entry('$.content', ' (more)'),
      { candidates: [{ content: { parts: [{ functionCall: {} }] }, finishReason: 'STOP' }] },
    ]);
    const content = `${pieces.join('')} (more)`;
    expect(dispatched(events)).to.deep.equal([
      ['f', { meta: { kind: 'note', size: '3' }, content }],
    ]);
    const [{ end } = { end: '' }] = streamedTexts(events);
    expect(JSON.parse(end)).to.deep.equal({ meta: { kind: 'note', size: '3' }, content });
    expectHistoryEqualsLive(events);
  });

  it("a string argument's next piece reads each field of its chunk once (the hot path)", async () => {
    const piece = (stringValue: string) => ({
      candidates: [
        {
          content: {
            role: 'model',
            parts: [
              {
                functionCall: {
                  partialArgs: [{ jsonPath: '$.content', stringValue, willContinue: true }],
                  willContinue: true,
                },
              },
            ],
          },
        },
      ],
      responseId: 'r1',
    });
    const reads = new Map<string, number>();
    const { events } = await fold([
      named,
      path,
      piece('a'),
      counted(piece('b'), reads),
      piece(''),
      finish('STOP'),
    ]);
    expect(dispatched(events)).to.deep.equal([['write', { path: 'a.md', content: 'ab' }]]);
    const once = [...reads].filter(([, n]) => n !== 1);
    expect(once).to.deep.equal([]);
    expect(reads.has('responseId')).to.equal(false);
  });

  it("Gemini 3's server-side toolCall and toolResponse parts are a provider-run call and its result", async () => {
    const { events } = await fold([
      {
        candidates: [
          {
            content: {
              parts: [
                {
                  toolCall: {
                    id: 'srv_1',
                    toolType: 'GOOGLE_SEARCH_WEB',
                    args: { queries: ['cldr'] },
                  },
                },
                {
                  toolResponse: {
                    id: 'srv_1',
                    toolType: 'GOOGLE_SEARCH_WEB',
                    response: { results: 3 },
                  },
                },
                { text: 'Found three.' },
              ],
            },
            finishReason: 'STOP',
          },
        ],
      },
    ]);
    const [call] = ofType(events, 'tool/call');
    expect(call).to.include({ callId: 'srv_1', name: 'GOOGLE_SEARCH_WEB', executor: 'provider' });
    expect(call?.args).to.deep.equal({ queries: ['cldr'] });
    expect(ofType(events, 'tool/result')[0]).to.deep.include({
      callId: 'srv_1',
      output: { results: 3 },
    });
    expect(ofType(events, 'assistant/message')[0]?.stopReason).to.equal('end');
    expectHistoryEqualsLive(events);
  });
});

describe('fromGemini through assemble(): a streamed string escaped a batch of pieces at a time', () => {
  // 1,200 pieces of escapes, non-ASCII text and surrogate halves: pairs split between pieces.
  const units = ['a', 'b', ' ', '"', '\\', '\n', '\t', '\u00e9', '\ud83d', '\ude00'];
  let seed = 7;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const pieces = Array.from({ length: 1200 }, () =>
    Array.from(
      { length: 1 + Math.floor(random() * 6) },
      () => units[Math.floor(random() * 10)],
    ).join(''),
  );
  const response = (part: Record<string, unknown>, finishReason?: string) => ({
    candidates: [
      { content: { role: 'model', parts: [part] }, ...(finishReason ? { finishReason } : {}) },
    ],
  });
  const entry = (jsonPath: string, stringValue: string, willContinue = false) =>
    response({
      functionCall: {
        partialArgs: [{ jsonPath, stringValue, ...(willContinue ? { willContinue } : {}) }],
        willContinue: true,
      },
    });
  const chunks = [
    response({ functionCall: { name: 'write', willContinue: true } }),
    entry('$.path', 'a.md'),
    ...pieces.map((piece) => entry('$.content', piece, true)),
    entry('$.content', ''),
    response({ functionCall: {} }, 'STOP'),
  ];
  /** The chunks as a socket delivers them: a macrotask after every 64, so publications fall in between. */
  async function* paced(): AsyncGenerator<unknown> {
    for (let i = 0; i < chunks.length; i++) {
      yield chunks[i];
      if (i % 64 === 63) await new Promise((resolve) => setTimeout(resolve, 0));
    }
  }
  const foldOnce = async (direct: boolean) => {
    const events = fromGemini(paced(), { session: fixedSession() });
    const escapes = internalProbe.escapes;
    const conversation = await lastValueFrom(
      (direct ? events : events.pipe(map((event) => event))).pipe(assemble({ now: () => 0 })),
    );
    const [tool] = [...conversation.tools.values()];
    return { tool, escapes: internalProbe.escapes - escapes };
  };

  it('gives the argument text the pieces escaped one by one give, a pair split between pieces escaped apart', async () => {
    const { tool } = await foldOnce(true);
    const { tool: ordinary } = await foldOnce(false);
    const written = `{"path":"a.md","content":"${pieces.map(jsonStringText).join('')}"}`;
    expect(tool?.argsRaw).to.equal(written);
    expect(ordinary?.argsRaw).to.equal(written);
    expect(tool?.call?.argsRaw).to.equal(written);
    expect(tool?.args.text('content')).to.equal(pieces.join(''));
    expect(JSON.parse(tool?.argsRaw ?? '')).to.deep.equal({
      path: 'a.md',
      content: pieces.join(''),
    });
    // The check can tell: the pieces joined, then escaped, keep every split pair whole.
    expect(written).to.not.equal(`{"path":"a.md","content":"${jsonStringText(pieces.join(''))}"}`);
  });

  it('escapes the string a batch of pieces at a time (negative control: through an ordinary Observable, one escape per piece)', async () => {
    const direct = await foldOnce(true);
    const ordinary = await foldOnce(false);
    expect(direct.tool?.argsRaw).to.equal(ordinary.tool?.argsRaw);
    expect(ordinary.escapes).to.be.at.least(pieces.length);
    expect(direct.escapes).to.be.below(pieces.length / 8);
  });
});
