/**
 * Hostile provider streams: what a third-party endpoint (or a network cutting anywhere) can
 * send. Every case ends with the good call beside the bad input dispatched.
 */
import { expect } from 'chai';
import { fromAISDKUIStream } from '../../src/providers/ai-sdk-ui-stream.js';
import { fromAnthropicMessages } from '../../src/providers/anthropic-messages.js';
import { fromOpenAIChatCompletions } from '../../src/providers/openai-chat-completions.js';
import type { ProviderStreamError } from '../../src/providers/provider-stream-error.js';
import { describe, it } from '../harness.js';
import { fixedSession } from '../providers/support/cases.js';
import { collect } from '../providers/support/fixtures.js';
import { ofType } from '../providers/support/run.js';

/** `{"a":{"a":…{"a":1}…}}` nested `depth` levels: ~5 bytes a level, past JSON.stringify's stack at 10,000. */
function deepText(depth: number): string {
  return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}
const DEEP = 10_000;

/** Runs `fn` with console.warn captured. */
async function warnings<T>(fn: () => Promise<T>): Promise<{ result: T; lines: string[] }> {
  const lines: string[] = [];
  const warn = console.warn;
  console.warn = (...args: unknown[]) => void lines.push(args.map(String).join(' '));
  try {
    return { result: await fn(), lines };
  } finally {
    console.warn = warn;
  }
}

const chat = (delta: object, finish: string | null = null) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion.chunk',
  choices: [{ index: 0, delta, finish_reason: finish }],
});
const goodCall = [
  chat({ tool_calls: [{ index: 0, id: 'call_ok', function: { name: 'Read', arguments: '' } }] }),
  chat({ tool_calls: [{ index: 0, function: { arguments: '{"file_path":"a.ts"}' } }] }),
];
const sse = (chunk: unknown) =>
  `data: ${typeof chunk === 'string' ? chunk : JSON.stringify(chunk)}\n\n`;

describe('hostile provider streams', () => {
  // Failed before: Maximum call stack size exceeded.
  it('reads 160,000 SSE messages given as one string', async () => {
    // One source item completing more messages than a call takes arguments.
    const text =
      sse(goodCall[0]) +
      'data: {}\n\n'.repeat(160_000) +
      sse(goodCall[1]) +
      sse(chat({}, 'tool_calls')) +
      'data: [DONE]\n\n';
    const outcome = await collect(fromOpenAIChatCompletions(text, { session: fixedSession() }));
    expect(outcome.error).to.equal(undefined);
    expect(ofType(outcome.events, 'tool/call').map((e) => e.args)).to.deep.equal([
      '{"file_path":"a.ts"}',
    ]);
  });

  // Failed before: the warning threw and the good call was lost.
  it('warns about a malformed chunk nested 10,000 deep and goes on', async () => {
    const deepArray = `${'['.repeat(DEEP)}${']'.repeat(DEEP)}`;
    const text = sse(goodCall[0]) + sse(deepArray) + sse(goodCall[1]) + sse(chat({}, 'tool_calls'));
    const { result, lines } = await warnings(() =>
      collect(fromOpenAIChatCompletions(text, { session: fixedSession() })),
    );
    expect(result.error).to.equal(undefined);
    expect(ofType(result.events, 'tool/call').map((e) => e.callId)).to.deep.equal(['call_ok']);
    expect(lines).to.have.length(1);
    expect(lines[0]).to.match(/skipped a malformed chunk \(chunk is not an object\): \[\[\[/);
  });

  // Failed before: RangeError, no call dispatched.
  it('dispatches an Anthropic call whose block-start input nests 10,000 deep, beside a good one', async () => {
    const deep = JSON.parse(deepText(DEEP)) as unknown;
    const chunks = [
      { type: 'message_start', message: { id: 'msg_1', content: [] } },
      {
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'tool_use', id: 'toolu_deep', name: 'Probe', input: deep },
      },
      { type: 'content_block_stop', index: 0 },
      {
        type: 'content_block_start',
        index: 1,
        content_block: { type: 'tool_use', id: 'toolu_ok', name: 'Read', input: {} },
      },
      {
        type: 'content_block_delta',
        index: 1,
        delta: { type: 'input_json_delta', partial_json: '{"file_path":"a.ts"}' },
      },
      { type: 'content_block_stop', index: 1 },
      { type: 'message_delta', delta: { stop_reason: 'tool_use' } },
      { type: 'message_stop' },
    ];
    const outcome = await collect(fromAnthropicMessages(chunks, { session: fixedSession() }));
    expect(outcome.error).to.equal(undefined);
    const calls = ofType(outcome.events, 'tool/call');
    expect(calls.map((e) => e.callId)).to.deep.equal(['toolu_deep', 'toolu_ok']);
    expect(calls[0]?.args).to.equal(deepText(DEEP));
  });

  // Failed before: RangeError, no call dispatched.
  it('dispatches an AI SDK call whose input nests 10,000 deep, beside a good one', async () => {
    const deep = JSON.parse(deepText(DEEP)) as unknown;
    const chunks = [
      { type: 'start-step' },
      { type: 'tool-input-start', toolCallId: 'c_deep', toolName: 'Probe' },
      { type: 'tool-input-available', toolCallId: 'c_deep', toolName: 'Probe', input: deep },
      { type: 'tool-input-start', toolCallId: 'c_ok', toolName: 'Read' },
      { type: 'tool-input-delta', toolCallId: 'c_ok', inputTextDelta: '{"file_path":"a.ts"}' },
      {
        type: 'tool-input-available',
        toolCallId: 'c_ok',
        toolName: 'Read',
        input: { file_path: 'a.ts' },
      },
      { type: 'finish-step' },
      { type: 'finish' },
    ];
    const outcome = await collect(fromAISDKUIStream(chunks, { session: fixedSession() }));
    expect(outcome.error).to.equal(undefined);
    const calls = ofType(outcome.events, 'tool/call');
    expect(calls.map((e) => e.callId)).to.deep.equal(['c_deep', 'c_ok']);
    expect(calls[0]?.args).to.equal(deepText(DEEP));
  });

  // Failed before: TypeError failed the stream.
  it('reports an AI SDK input that cannot be JSON (cyclic, BigInt) to onMalformed and keeps the streamed text', async () => {
    const cyclic: Record<string, unknown> = { path: 'x' };
    cyclic.self = cyclic;
    const chunks = [
      { type: 'start-step' },
      { type: 'tool-input-start', toolCallId: 'c_cyclic', toolName: 'Probe' },
      { type: 'tool-input-delta', toolCallId: 'c_cyclic', inputTextDelta: '{"path":"x"}' },
      { type: 'tool-input-available', toolCallId: 'c_cyclic', toolName: 'Probe', input: cyclic },
      { type: 'tool-input-start', toolCallId: 'c_big', toolName: 'Probe' },
      { type: 'tool-input-available', toolCallId: 'c_big', toolName: 'Probe', input: { n: 1n } },
      { type: 'tool-input-start', toolCallId: 'c_ok', toolName: 'Read' },
      {
        type: 'tool-input-available',
        toolCallId: 'c_ok',
        toolName: 'Read',
        input: { file_path: 'a.ts' },
      },
      { type: 'finish-step' },
      { type: 'finish' },
    ];
    const reported: ProviderStreamError[] = [];
    const outcome = await collect(
      fromAISDKUIStream(chunks, { session: fixedSession(), onMalformed: (e) => reported.push(e) }),
    );
    expect(outcome.error).to.equal(undefined);
    expect(reported.map((e) => e.message)).to.deep.equal([
      'tool input cannot be written as JSON: cannot write a cyclic value as JSON',
      'tool input cannot be written as JSON: cannot write a BigInt as JSON',
    ]);
    const calls = ofType(outcome.events, 'tool/call');
    expect(calls.map((e) => [e.callId, e.args])).to.deep.equal([
      ['c_cyclic', '{"path":"x"}'],
      ['c_big', '{}'],
      ['c_ok', '{"file_path":"a.ts"}'],
    ]);
  });

  // Failed before: RangeError from errorMessage.
  it('fails with a ProviderStreamError for an error event nested 100,000 deep', async () => {
    let error: unknown = { message: '' };
    for (let i = 0; i < 100_000; i++) error = { error };
    const outcome = await collect(
      fromAnthropicMessages(
        [
          { type: 'message_start', message: { id: 'm' } },
          { type: 'error', error },
        ],
        {
          session: fixedSession(),
        },
      ),
    );
    expect((outcome.error as Error).name).to.equal('ProviderStreamError');
    expect((outcome.error as Error).message).to.equal('stream error');
    expect(ofType(outcome.events, 'stream/settle')).to.have.length(1);
  });
});
