/**
 * fromBedrockConverse over the recorded Bedrock streams (vercel/ai's JSON-lines fixtures and
 * pydantic-ai's binary `converse-stream` bodies from real Nova models): as the SDK's event
 * objects and as raw event-stream bytes cut anywhere; provider-run code interpreter calls,
 * parallel interleaved calls, stop reasons, exceptions; live folds equal history folds.
 */
import { expect } from 'chai';
import { Assembler } from '../../src/conversation/assembler.js';
import type { ToolNode } from '../../src/definitions/tool-definition.js';
import { type CallfoldEvent, isDurableEvent } from '../../src/events/types.js';
import { fromBedrockConverse } from '../../src/providers/bedrock-converse.js';
import type { ProviderSource } from '../../src/providers/provider-source.js';
import { ProviderStreamError } from '../../src/providers/provider-stream-error.js';
import { describe, it } from '../harness.js';
import { bedrockEvents, cutBody, recordedBytes } from './support/bedrock-recordings.js';
import { fixedSession } from './support/cases.js';
import { asyncIterable, collect, type Outcome } from './support/fixtures.js';
import { checkInvariants } from './support/invariants.js';
import { ofType } from './support/run.js';

async function fold(source: ProviderSource): Promise<Outcome> {
  const outcome = await collect(fromBedrockConverse(source, { session: fixedSession() }));
  checkInvariants(outcome.events);
  return outcome;
}

async function foldOk(source: ProviderSource): Promise<CallfoldEvent[]> {
  const outcome = await fold(source);
  expect(outcome.error).to.equal(undefined);
  return outcome.events;
}

function nodes(events: readonly CallfoldEvent[]): Map<string, ToolNode> {
  const assembler = new Assembler({ now: () => 0 });
  assembler.push(events);
  return new Map(assembler.publish().tools);
}

function expectHistoryEqualsLive(events: readonly CallfoldEvent[]): void {
  const view = (node: ToolNode) => {
    const { args, startedAt: _s, firstTokenAt: _f, ...rest } = node;
    return { ...rest, closed: args.closed() };
  };
  const live = [...nodes(events)].map(([id, node]) => [id, view(node)]);
  const history = [...nodes(events.filter(isDurableEvent))].map(([id, node]) => [id, view(node)]);
  expect(history).to.deep.equal(live);
  expect(live.length).to.be.greaterThan(0);
}

/** Each dispatched call: callId, name and arguments as text. */
function calls(events: readonly CallfoldEvent[]): [string, string, unknown][] {
  return ofType(events, 'tool/call').map((c) => [c.callId, c.name, c.args]);
}

describe('fromBedrockConverse: recorded streams', () => {
  it('one toolUse whose input arrives in two deltas (metadata before messageStop)', async () => {
    const events = await foldOk(
      asyncIterable(await bedrockEvents('vercel-ai/amazon-bedrock-tool-call.1.chunks.txt')),
    );
    expect(calls(events)).to.deep.equal([['tool-use-id', 'test-tool', '{"value":"Sparkle Day"}']]);
    expect(ofType(events, 'assistant/message')[0]?.stopReason).to.equal('tool-calls');
    expectHistoryEqualsLive(events);
  });

  it('text, then a toolUse with an empty input delta: dispatched with {}', async () => {
    const events = await foldOk(
      await bedrockEvents('vercel-ai/amazon-bedrock-tool-no-args.chunks.txt'),
    );
    expect(calls(events)).to.deep.equal([['tool-use-id', 'updateIssueList', '{}']]);
    expect(ofType(events, 'assistant/message')[0]?.blocks[0]).to.deep.equal({
      type: 'text',
      text: "I'll update the issue list for you.",
    });
  });

  it('text, two calls, text, a third call: blocks in order', async () => {
    const events = await foldOk(
      await bedrockEvents('vercel-ai/amazon-bedrock-json-with-tools.1.chunks.txt'),
    );
    expect(calls(events).map(([, name, args]) => [name, args])).to.deep.equal([
      ['tool-a', '{"a":"1"}'],
      ['tool-b', '{"b":"2"}'],
      ['json', '{"final":"result"}'],
    ]);
    const [message] = ofType(events, 'assistant/message');
    expect(message?.blocks.map((b) => b.type)).to.deep.equal([
      'text',
      'tool-use',
      'tool-use',
      'text',
      'tool-use',
    ]);
    expectHistoryEqualsLive(events);
  });

  it('two calls whose input deltas interleave (0, 1, 1, 0)', async () => {
    const events = await foldOk(
      await bedrockEvents('vercel-ai/amazon-bedrock-parallel-interleaved.inline.jsonl'),
    );
    expect(calls(events)).to.deep.equal([
      ['tool-use-id-1', 'test-tool-1', '{"value1":"Sparkle Day"}'],
      ['tool-use-id-2', 'test-tool-2', '{"value2":"Sparkle Day"}'],
    ]);
    expectHistoryEqualsLive(events);
  });

  it('Kimi K2 thinking: an empty first text piece opens no block; its id functions.read_file:1 is kept', async () => {
    const events = await foldOk(
      await bedrockEvents('vercel-ai/issue-11409-kimi-k2-thinking-read-file.chunks.txt'),
    );
    expect(calls(events)).to.deep.equal([
      ['functions.read_file:1', 'read_file', '{"target_file": "src/cursor-config.ts"}'],
    ]);
    const [message] = ofType(events, 'assistant/message');
    expect(message?.blocks.map((b) => b.type)).to.deep.equal(['text', 'tool-use']);
  });

  it('Nova micro, the recorded event-stream bytes cut every 7 bytes: the same events as the decoded lines', async () => {
    const base = 'pydantic-ai/bedrock-nova-micro-text-then-tool.converse-stream';
    const bytes = await recordedBytes(`${base}.eventstream`);
    const fromBytes = await foldOk(cutBody(bytes, 7));
    const fromWhole = await foldOk(
      new Response(bytes as BodyInit, {
        headers: { 'content-type': 'application/vnd.amazon.eventstream' },
      }),
    );
    const fromLines = await foldOk(await bedrockEvents(`${base}.events.jsonl`));
    expect(fromBytes).to.deep.equal(fromLines);
    expect(fromWhole).to.deep.equal(fromLines);
    expect(calls(fromLines).map(([, name]) => name)).to.deep.equal(['get_temperature']);
    expect(ofType(fromLines, 'assistant/message')[0]?.blocks[0]?.type).to.equal('text');
    expectHistoryEqualsLive(fromLines);
  });

  it("Nova 2 lite's code interpreter: a provider-run call and its streamed result, then a client call", async () => {
    const base = 'pydantic-ai/bedrock-nova2-lite-code-interpreter.converse-stream';
    const events = await foldOk(cutBody(await recordedBytes(`${base}.eventstream`), 64));
    const recorded = ofType(events, 'tool/call');
    expect(recorded.map((c) => [c.name, c.executor, c.args])).to.deep.equal([
      ['nova_code_interpreter', 'provider', '{"snippet":"1234 * 5678"}'],
      ['final_result', undefined, '{"result":7006652.0}'],
    ]);
    const [result] = ofType(events, 'tool/result');
    expect(result).to.include({ callId: 'tooluse_VQNZJRUFMoqZzszVsRd4og', executor: 'provider' });
    expect(result?.output).to.deep.equal([
      { json: { stdOut: '7006652', stdErr: '', exitCode: 0, isError: false } },
    ]);
    expect(ofType(events, 'assistant/message')[0]?.stopReason).to.equal('tool-calls');
    expect(await foldOk(await bedrockEvents(`${base}.events.jsonl`))).to.deep.equal(events);
    expectHistoryEqualsLive(events);
  });
});

describe('fromBedrockConverse: stop reasons, cuts and exceptions', () => {
  const start = {
    contentBlockStart: {
      contentBlockIndex: 0,
      start: { toolUse: { toolUseId: 't1', name: 'write' } },
    },
  };
  const input = (text: string) => ({
    contentBlockDelta: { contentBlockIndex: 0, delta: { toolUse: { input: text } } },
  });

  it('max_tokens inside a call: incomplete, not dispatched, stopReason length', async () => {
    const events = await foldOk([
      { messageStart: { role: 'assistant' } },
      start,
      input('{"path":"a'),
      { messageStop: { stopReason: 'max_tokens' } },
    ]);
    expect(ofType(events, 'tool/call')).to.have.length(0);
    const [message] = ofType(events, 'assistant/message');
    expect(message?.stopReason).to.equal('length');
    expect(message?.blocks[0]).to.include({ incomplete: true, argsText: '{"path":"a' });
    expectHistoryEqualsLive(events);
  });

  it('guardrail_intervened is content-filter', async () => {
    const events = await foldOk([
      start,
      input('{"a":1'),
      { messageStop: { stopReason: 'guardrail_intervened' } },
    ]);
    expect(ofType(events, 'assistant/message')[0]?.stopReason).to.equal('content-filter');
    expect(ofType(events, 'tool/call')).to.have.length(0);
  });

  it('reasoningContent deltas are a reasoning block', async () => {
    const events = await foldOk([
      {
        contentBlockDelta: {
          contentBlockIndex: 0,
          delta: { reasoningContent: { text: 'Think.' } },
        },
      },
      {
        contentBlockDelta: {
          contentBlockIndex: 0,
          delta: { reasoningContent: { signature: 'sig' } },
        },
      },
      { contentBlockStop: { contentBlockIndex: 0 } },
      { contentBlockDelta: { contentBlockIndex: 1, delta: { text: 'Done.' } } },
      { messageStop: { stopReason: 'end_turn' } },
    ]);
    expect(ofType(events, 'assistant/message')[0]?.blocks).to.deep.equal([
      { type: 'reasoning', text: 'Think.' },
      { type: 'text', text: 'Done.' },
    ]);
  });

  it('a stream cut before messageStop settles alone', async () => {
    const { events, completed } = await fold([
      start,
      input('{"a":1}'),
      { contentBlockStop: { contentBlockIndex: 0 } },
    ]);
    expect(completed).to.equal(true);
    expect(events.filter(isDurableEvent)).to.have.length(0);
    expect(events.at(-1)?.type).to.equal('stream/settle');
  });

  it('an exception in the stream fails it with a ProviderStreamError after settling', async () => {
    const { events, error } = await fold([
      start,
      { modelStreamErrorException: { message: 'boom', originalStatusCode: 500 } },
    ]);
    expect(error).to.be.instanceOf(ProviderStreamError);
    expect((error as Error).message).to.equal('boom');
    expect(events.at(-1)?.type).to.equal('stream/settle');
  });
});
