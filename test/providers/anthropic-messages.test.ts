import { expect } from 'chai';
import { fromAnthropicMessages } from '../../src/providers/anthropic-messages.js';
import { describe, it } from '../harness.js';
import { fixedSession } from './support/cases.js';
import { counted } from './support/counted-reads.js';
import { collect, loadFixture } from './support/fixtures.js';
import { ofType, run, shape, toolDeltas } from './support/run.js';

const start = { type: 'message_start', message: { id: 'msg_1', type: 'message', content: [] } };
const blockStart = (index: number, content_block: object) => ({
  type: 'content_block_start',
  index,
  content_block,
});
const json = (index: number, partial_json: string) => ({
  type: 'content_block_delta',
  index,
  delta: { type: 'input_json_delta', partial_json },
});
const stop = (index: number) => ({ type: 'content_block_stop', index });
const end = (stop_reason = 'tool_use') => [
  {
    type: 'message_delta',
    delta: { stop_reason, stop_sequence: null },
    usage: { output_tokens: 9 },
  },
  { type: 'message_stop' },
];

describe('fromAnthropicMessages', () => {
  it('shows a tool_use block at its start, streams partial_json, ends it at content_block_stop', async () => {
    const { events } = await run(fromAnthropicMessages, [
      start,
      blockStart(0, { type: 'text', text: '' }),
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Reading.' } },
      stop(0),
      { type: 'ping' },
      blockStart(1, { type: 'tool_use', id: 'toolu_1', name: 'Read', input: {} }),
      json(1, ''),
      json(1, '{"file_path":'),
      json(1, '"a.ts"}'),
      stop(1),
      ...end(),
    ]);
    expect(toolDeltas(events)).to.deep.equal([
      'toolu_1 Read ',
      'toolu_1 {"file_path":',
      'toolu_1 "a.ts"}',
    ]);
    expect(shape(events)).to.deep.equal([
      'stream/text-delta',
      'stream/block-end',
      'stream/tool-call-delta',
      'stream/block-end',
      'assistant/message',
      'tool/call',
      'stream/settle',
    ]);
    expect(ofType(events, 'assistant/message')[0]).to.deep.include({
      messageId: 'msg_1',
      blocks: [
        { type: 'text', text: 'Reading.' },
        { type: 'tool-use', callId: 'toolu_1', name: 'Read', argsText: '{"file_path":"a.ts"}' },
      ],
    });
  });

  it('streams thinking as reasoning, shows a server tool as a provider call, skips redacted thinking', async () => {
    const { events } = await run(fromAnthropicMessages, [
      start,
      blockStart(0, { type: 'thinking', thinking: '', signature: '' }),
      {
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'thinking_delta', thinking: 'Hmm.' },
      },
      { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'x' } },
      stop(0),
      blockStart(1, { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} }),
      json(1, '{"query":"x"}'),
      stop(1),
      blockStart(2, { type: 'redacted_thinking', data: 'abc' }),
      stop(2),
      ...end('end_turn'),
    ]);
    expect(ofType(events, 'assistant/message')[0]?.blocks).to.deep.equal([
      { type: 'reasoning', text: 'Hmm.' },
      {
        type: 'tool-use',
        callId: 'srvtoolu_1',
        name: 'web_search',
        argsText: '{"query":"x"}',
        executor: 'provider',
      },
    ]);
    expect(ofType(events, 'stream/text-delta')[0]).to.include({ reasoning: true, text: 'Hmm.' });
  });

  it('takes a tool’s whole input from its block start when no partial_json follows, else {}', async () => {
    const { events } = await run(fromAnthropicMessages, [
      start,
      blockStart(0, { type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: 'a' } }),
      stop(0),
      blockStart(1, { type: 'tool_use', id: 'toolu_2', name: 'now', input: {} }),
      json(1, ''),
      stop(1),
      ...end(),
    ]);
    expect(ofType(events, 'tool/call').map((c) => c.args)).to.deep.equal([
      '{"file_path":"a"}',
      '{}',
    ]);
  });

  it('does not dispatch the last call when the response stopped at max_tokens', async () => {
    const { events } = await run(fromAnthropicMessages, [
      start,
      blockStart(0, { type: 'tool_use', id: 'toolu_1', name: 'Read', input: {} }),
      json(0, '{"file_path":"a"}'),
      stop(0),
      blockStart(1, { type: 'tool_use', id: 'toolu_2', name: 'Write', input: {} }),
      json(1, '{"content":"ab'),
      stop(1),
      ...end('max_tokens'),
    ]);
    expect(ofType(events, 'tool/call').map((c) => c.callId)).to.deep.equal(['toolu_1']);
    expect(ofType(events, 'assistant/message')[0]?.blocks).to.have.length(2);
  });

  it('treats a stream cut between message_delta and message_stop as cut', async () => {
    const { events } = await run(fromAnthropicMessages, [
      start,
      blockStart(0, { type: 'tool_use', id: 'toolu_1', name: 'Read', input: {} }),
      json(0, '{}'),
      stop(0),
      end()[0],
    ]);
    expect(events.at(-1)?.type).to.equal('stream/settle');
    expect(ofType(events, 'assistant/message')).to.deep.equal([]);
    expect(ofType(events, 'tool/call')).to.deep.equal([]);
  });
});

describe('fromAnthropicMessages: the recorded stream’s ping', () => {
  // Failed before: the regenerated fixture had no ping.
  it('the fixture carries the API’s ping right after the first content_block_start, byte for byte, and the adapter passes over it', async () => {
    const { sse } = await loadFixture('anthropic-messages');
    const messages = sse.split('\n\n');
    const pings = messages.flatMap((message, i) => (message.startsWith('event: ping') ? [i] : []));
    const firstBlock = messages.findIndex((m) => m.startsWith('event: content_block_start'));
    expect(pings).to.deep.equal([firstBlock + 1]);
    expect(messages[firstBlock + 1]).to.equal('event: ping\ndata: {"type": "ping"}');

    const read = (text: string) =>
      collect(fromAnthropicMessages(text, { session: fixedSession() }));
    const withPing = await read(sse);
    const without = await read(messages.filter((_, i) => i !== firstBlock + 1).join('\n\n'));
    expect(withPing.error).to.equal(undefined);
    expect(withPing.completed).to.equal(true);
    expect(withPing.events).to.deep.equal(without.events);
  });
});

describe('fromAnthropicMessages: work per chunk', () => {
  // Failed before: type four times, partial_json twice.
  it('reads each field of a chunk that continues the last block’s arguments once (negative control: a fragment of another block than the chunk before, on the general path, reads partial_json twice)', async () => {
    const continuing = new Map<string, number>();
    const other = new Map<string, number>();
    const { events } = await run(fromAnthropicMessages, [
      start,
      blockStart(0, { type: 'tool_use', id: 'toolu_1', name: 'Write', input: {} }),
      blockStart(1, { type: 'tool_use', id: 'toolu_2', name: 'Read', input: {} }),
      // Block 0 after block 1's start: not the block before it, so the general path.
      counted(json(0, '{"file_path":"a.ts",'), other),
      json(0, '"content":"x"}'),
      json(1, '{"file_path":'),
      counted(json(1, '"b.ts"}'), continuing),
      stop(0),
      stop(1),
      ...end(),
    ]);
    expect(ofType(events, 'tool/call').map((call) => call.args)).to.deep.equal([
      '{"file_path":"a.ts","content":"x"}',
      '{"file_path":"b.ts"}',
    ]);
    expect(Object.fromEntries(continuing)).to.deep.equal({
      type: 1,
      index: 1,
      delta: 1,
      'delta.type': 1,
      'delta.partial_json': 1,
    });
    // A fragment of another block than the chunk before goes the general way, which reads
    // the fragment twice.
    expect(other.get('delta.partial_json')).to.equal(2);
  });
});
