/**
 * The adapters fed by the official SDKs' own stream objects — openai (Chat Completions and
 * Responses), @anthropic-ai/sdk and the AI SDK (`ai`) — over the recorded provider streams
 * of test/fixtures/provider-recordings/, and the same bodies as raw Responses: both paths give
 * the same events. The SDKs make real requests through a `fetch` that answers with the
 * recorded body. The AI SDK runs `streamText` with its own MockLanguageModelV3 and
 * `simulateReadableStream`, a tool that needs approval, and then the approval answered in the
 * next request. Node only (the SDKs are dev dependencies).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import { jsonSchema, type ModelMessage, simulateReadableStream, streamText, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { expect } from 'chai';
import OpenAI from 'openai';
import { lastValueFrom, toArray } from 'rxjs';
import { Assembler } from '../../src/conversation/assembler.js';
import type { CallfoldEvent } from '../../src/events/types.js';
import { isDurableEvent } from '../../src/events/types.js';
import type { AdapterOptions } from '../../src/providers/adapter-run.js';
import { fromAISDKUIStream } from '../../src/providers/ai-sdk-ui-stream.js';
import { fromAnthropicMessages } from '../../src/providers/anthropic-messages.js';
import { fromOpenAIChatCompletions } from '../../src/providers/openai-chat-completions.js';
import { fromOpenAIResponses } from '../../src/providers/openai-responses.js';
import type { ProviderSource } from '../../src/providers/provider-source.js';
import { createSession, type Session } from '../../src/providers/session.js';
import { repositoryRoot } from '../support/repository.js';

const recordings = join(repositoryRoot(), 'test/fixtures/provider-recordings');
const read = (path: string) => readFileSync(join(recordings, path), 'utf8');

/** The bodies of a `*.chunks.txt` recording, one per response, framed as its README says. */
function chunkBodies(path: string): string[] {
  const bodies: string[] = [];
  let body = '';
  for (const line of read(path).split('\n')) {
    if (line.trim() === '') continue;
    const { type } = JSON.parse(line) as { type: string };
    body += `event: ${type}\ndata: ${line}\n\n`;
    if (type === 'response.completed' || type === 'message_stop') {
      bodies.push(body);
      body = '';
    }
  }
  return bodies;
}

/** A fetch that answers every request with the next body, as SSE. */
function replying(bodies: readonly string[]): typeof fetch {
  let next = 0;
  return async () => {
    const body = bodies[next++];
    if (body === undefined) throw new Error('no more recorded responses');
    return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
  };
}

const session = (): Session =>
  createSession({
    now: () => 0,
    attemptId: (
      (n) => () =>
        `a${++n}`
    )(0),
  });

type Adapter = (
  source: ProviderSource,
  options?: AdapterOptions,
) => import('rxjs').Observable<CallfoldEvent>;

async function events(
  adapter: Adapter,
  source: ProviderSource,
  s: Session,
): Promise<CallfoldEvent[]> {
  return lastValueFrom(adapter(source, { session: s }).pipe(toArray()));
}

/** Runs `adapter` over each SDK stream and over each raw body, each path in its own session. */
async function bothPaths(
  adapter: Adapter,
  bodies: readonly string[],
  sdkStream: (fetch: typeof globalThis.fetch) => () => Promise<ProviderSource>,
): Promise<CallfoldEvent[]> {
  const viaSdk: CallfoldEvent[] = [];
  const sdkSession = session();
  const next = sdkStream(replying(bodies));
  let requestPromise = true;
  for (let i = 0; i < bodies.length; i++) {
    const pending: Promise<ProviderSource> & { asResponse?: unknown } = next();
    requestPromise &&= typeof pending.asResponse === 'function';
    viaSdk.push(...(await events(adapter, await pending, sdkSession)));
  }
  const viaResponse: CallfoldEvent[] = [];
  const rawSession = session();
  for (const body of bodies)
    viaResponse.push(...(await events(adapter, new Response(body), rawSession)));
  expect(viaSdk, 'the SDK stream and the raw Response give the same events').to.deep.equal(
    viaResponse,
  );
  // The same request's raw response through the SDK (`create(…).asResponse()`, what the
  // README recommends for large arguments): the same events again.
  if (!requestPromise) return viaSdk; // messages.stream() returns no request promise
  const request = sdkStream(replying(bodies));
  const viaAsResponse: CallfoldEvent[] = [];
  const asResponseSession = session();
  for (let i = 0; i < bodies.length; i++) {
    const pending = request() as Promise<ProviderSource> & { asResponse(): Promise<Response> };
    viaAsResponse.push(...(await events(adapter, await pending.asResponse(), asResponseSession)));
  }
  expect(viaAsResponse, 'the SDK stream and its .asResponse() give the same events').to.deep.equal(
    viaSdk,
  );
  return viaSdk;
}

function tools(list: readonly CallfoldEvent[]) {
  const assembler = new Assembler({ now: () => 0 });
  assembler.push(list);
  return assembler.publish().tools;
}

const openai = (fetch: typeof globalThis.fetch) =>
  new OpenAI({ apiKey: 'test', baseURL: 'http://127.0.0.1:9/v1', fetch, maxRetries: 0 });
const anthropic = (fetch: typeof globalThis.fetch) =>
  new Anthropic({ apiKey: 'test', baseURL: 'http://127.0.0.1:9', fetch, maxRetries: 0 });

describe('official SDK streams (openai, @anthropic-ai/sdk) into the adapters', () => {
  it('openai chat.completions.create stream: a custom (free-form) tool and a function call', async () => {
    const lines = read('openai-node/custom-tool-chunks.jsonl')
      .split('\n')
      .filter((l) => l.trim());
    const body = `${lines.map((l) => `data: ${l}\n\n`).join('')}data: [DONE]\n\n`;
    const out = await bothPaths(fromOpenAIChatCompletions, [body], (fetch) => {
      const client = openai(fetch);
      return () => client.chat.completions.create({ model: 'gpt-5.5', messages: [], stream: true });
    });
    const calls = out.filter((e) => e.type === 'tool/call');
    expect(calls.map((c) => c.type === 'tool/call' && [c.name, c.input])).to.deep.equal([
      ['code_exec', 'text'],
      ['get_weather', undefined],
    ]);
    expect(tools(out).get('call_custom_123')?.args.text('input')).to.equal(
      'print("hello")\nreturn 42',
    );
  });

  it('openai responses.create stream: a custom tool call, and hosted tool_search with its output', async () => {
    const custom = await bothPaths(
      fromOpenAIResponses,
      chunkBodies('vercel-ai/openai-custom-tool.1.chunks.txt'),
      (fetch) => {
        const client = openai(fetch);
        return () => client.responses.create({ model: 'gpt-5.2-codex', input: 'q', stream: true });
      },
    );
    expect(tools(custom).get('call_custom_sql_001')).to.include({ input: 'text', stage: 'start' });
    const search = await bothPaths(
      fromOpenAIResponses,
      chunkBodies('vercel-ai/openai-tool-search.1.chunks.txt'),
      (fetch) => {
        const client = openai(fetch);
        return () => client.responses.create({ model: 'gpt-5.4', input: 'q', stream: true });
      },
    );
    const provider = [...tools(search).values()].filter((node) => node.executor === 'provider');
    expect(provider.map((node) => [node.name, node.stage])).to.deep.equal([
      ['tool_search', 'result'],
    ]);
  });

  it('anthropic messages.create stream: max_tokens inside a tool_use leaves an incomplete node', async () => {
    const out = await bothPaths(
      fromAnthropicMessages,
      [read('anthropic-sdk-typescript/incomplete_partial_json_response.txt')],
      (fetch) => {
        const client = anthropic(fetch);
        return () =>
          client.messages.create({ model: 'claude', max_tokens: 124, messages: [], stream: true });
      },
    );
    const node = [...tools(out).values()][0];
    expect(node).to.include({
      name: 'make_file',
      stage: 'preparing',
      incomplete: true,
      stopReason: 'length',
    });
  });

  it('anthropic messages.stream(): a server tool and its deferred result, over three requests', async () => {
    const bodies = chunkBodies('vercel-ai/anthropic-tool-search-deferred-regex.chunks.txt');
    const out = await bothPaths(fromAnthropicMessages, bodies, (fetch) => {
      const client = anthropic(fetch);
      return async () =>
        client.messages.stream({ model: 'claude', max_tokens: 1024, messages: [] });
    });
    const node = tools(out).get('srvtoolu_01H4HgrFsi9xizPtvnx1Tm7D');
    expect(node).to.include({ stage: 'result', executor: 'provider' });
  });
});

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};
const bash = tool({
  inputSchema: jsonSchema<{ command: string }>({
    type: 'object',
    properties: { command: { type: 'string' } },
  }),
  needsApproval: true,
  execute: async ({ command }) => `ran ${command}`,
});

/** A model that asks for `bash` (streamed input), then, asked again, answers in text. */
function model(): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    doStream: async ({ prompt }) => {
      if (prompt.some((message) => message.role === 'tool')) {
        return {
          stream: simulateReadableStream({
            chunks: [
              { type: 'stream-start', warnings: [] },
              { type: 'text-start', id: 't' },
              { type: 'text-delta', id: 't', delta: 'Done.' },
              { type: 'text-end', id: 't' },
              { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
            ],
          }),
        };
      }
      return {
        stream: simulateReadableStream({
          chunks: [
            { type: 'stream-start', warnings: [] },
            { type: 'tool-input-start', id: 'call_1', toolName: 'bash' },
            { type: 'tool-input-delta', id: 'call_1', delta: '{"command":' },
            { type: 'tool-input-delta', id: 'call_1', delta: '"rm -rf dist"}' },
            { type: 'tool-input-end', id: 'call_1' },
            {
              type: 'tool-call',
              toolCallId: 'call_1',
              toolName: 'bash',
              input: '{"command":"rm -rf dist"}',
            },
            { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_use' }, usage },
          ],
        }),
      };
    },
  });
}

/** The conversation after the first response, with the human's answer to its approval request. */
function answered(approvalId: string, approved: boolean): ModelMessage[] {
  return [
    { role: 'user', content: 'clean up' },
    {
      role: 'assistant',
      content: [
        {
          type: 'tool-call',
          toolCallId: 'call_1',
          toolName: 'bash',
          input: { command: 'rm -rf dist' },
        },
        { type: 'tool-approval-request', approvalId, toolCallId: 'call_1' },
      ],
    },
    { role: 'tool', content: [{ type: 'tool-approval-response', approvalId, approved }] },
  ];
}

describe('the AI SDK (ai 6) UI message stream: approval, with its own mock model', () => {
  for (const approved of [true, false]) {
    it(`a tool that needs approval: requested, then ${approved ? 'approved and run' : 'denied, never run'} (UI stream and Response alike)`, async () => {
      for (const path of ['stream', 'response'] as const) {
        const s = session();
        const first = streamText({ model: model(), prompt: 'clean up', tools: { bash } });
        const source = (result: typeof first) =>
          path === 'stream' ? result.toUIMessageStream() : result.toUIMessageStreamResponse();
        const out = await events(fromAISDKUIStream, source(first), s);
        const request = out.find((e) => e.type === 'tool/approval-request');
        expect(request, path).to.deep.include({ callId: 'call_1' });
        expect(tools(out).get('call_1')).to.deep.include({
          stage: 'start',
          approval: { state: 'requested' },
        });
        const approvalId =
          request?.type === 'tool/approval-request' ? (request.approvalId as string) : '';
        const second = streamText({
          model: model(),
          messages: answered(approvalId, approved),
          tools: { bash },
        });
        const all = [...out, ...(await events(fromAISDKUIStream, source(second), s))];
        const node = tools(all).get('call_1');
        if (approved) {
          expect(node, path).to.deep.include({ stage: 'result', approval: { state: 'approved' } });
          expect(node?.result?.output).to.equal('ran rm -rf dist');
        } else {
          expect(node, path).to.deep.include({ stage: 'start', approval: { state: 'denied' } });
          expect(all.some((e) => e.type === 'tool/result')).to.equal(false);
        }
        // History folds to the same node.
        const history = tools(all.filter(isDurableEvent)).get('call_1');
        expect(history?.stage).to.equal(node?.stage);
        expect(history?.approval).to.deep.equal(node?.approval);
      }
    });
  }
});

describe('the AI SDK (ai 6) UI message stream: a step cut inside a call, with its own mock model', () => {
  const write = tool({
    inputSchema: jsonSchema<{ file_path: string; content: string }>({
      type: 'object',
      properties: { file_path: { type: 'string' }, content: { type: 'string' } },
    }),
    execute: async () => 'written',
  });
  /** A model whose response reaches its token limit inside the `write` call's input. */
  const cutModel = () =>
    new MockLanguageModelV3({
      doStream: async () => ({
        stream: simulateReadableStream({
          chunks: [
            { type: 'stream-start', warnings: [] },
            { type: 'text-start', id: 't' },
            { type: 'text-delta', id: 't', delta: 'Writing the changelog.' },
            { type: 'text-end', id: 't' },
            { type: 'tool-input-start', id: 'call_1', toolName: 'write' },
            {
              type: 'tool-input-delta',
              id: 'call_1',
              delta: '{"file_path":"CHANGELOG.md","content":"# Chan',
            },
            { type: 'finish', finishReason: { unified: 'length', raw: 'max_tokens' }, usage },
          ],
        }),
      }),
    });

  // Failed before: dispatched at finish-step.
  it('finish-step with the call still open, then finish "length": the call is incomplete, never dispatched', async () => {
    for (const path of ['stream', 'response'] as const) {
      const result = streamText({ model: cutModel(), prompt: 'changelog', tools: { write } });
      const source =
        path === 'stream' ? result.toUIMessageStream() : result.toUIMessageStreamResponse();
      const out = await events(fromAISDKUIStream, source, session());
      expect(
        out.some((e) => e.type === 'tool/call'),
        path,
      ).to.equal(false);
      const message = out.find((e) => e.type === 'assistant/message');
      expect(message, path).to.deep.include({
        stopReason: 'length',
        blocks: [
          { type: 'text', text: 'Writing the changelog.' },
          {
            type: 'tool-use',
            callId: 'call_1',
            name: 'write',
            argsText: '{"file_path":"CHANGELOG.md","content":"# Chan',
            incomplete: true,
          },
        ],
      });
      expect(out.at(-1), path).to.deep.equal({ type: 'stream/settle', attemptId: 'a1' });
      // Live and from history: the same incomplete node, with no result.
      for (const list of [out, out.filter(isDurableEvent)]) {
        expect(tools(list).get('call_1'), path).to.deep.include({
          stage: 'preparing',
          incomplete: true,
          stopReason: 'length',
        });
      }
    }
  });
});
