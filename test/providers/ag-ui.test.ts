/**
 * fromAGUI on AG-UI streams recorded by the SDKs' authors (the .NET server's event arrays,
 * the TS client's interleaved chunks, the Dart SDK's SSE sections), on hand-made edge cases
 * (cut runs, snapshots, steps), and the round trip through toAGUI. Every case checks the
 * adapter invariants and that the live fold equals the fold of the durable events.
 */
import { expect } from 'chai';
import { from, lastValueFrom, Observable, toArray } from 'rxjs';
import { Assembler } from '../../src/conversation/assembler.js';
import type { ToolNode } from '../../src/definitions/tool-definition.js';
import { type CallfoldEvent, isDurableEvent } from '../../src/events/types.js';
import type { AdapterOptions } from '../../src/providers/adapter-run.js';
import { fromAGUI } from '../../src/providers/ag-ui.js';
import { fromAnthropicMessages } from '../../src/providers/anthropic-messages.js';
import { ProviderStreamError } from '../../src/providers/provider-stream-error.js';
import { toAGUI } from '../../src/providers/to-ag-ui.js';
import { describe, it } from '../harness.js';
import {
  conversationOf,
  dartSections,
  encoderSSE,
  jsonlEvents,
  liveAndHistory,
  serverEvents,
} from './support/ag-ui.js';
import { fixedSession } from './support/cases.js';
import { bytePieces, byteStream, collect, loadFixture, type Outcome } from './support/fixtures.js';
import { checkInvariants } from './support/invariants.js';
import { sseResponse } from './support/recordings.js';
import { ofType } from './support/run.js';

/**
 * Reads `source` with a fixed session, malformed chunks collected, and checks the adapter
 * invariants (`history`: the source holds a snapshot, whose records belong to no streamed
 * attempt, which the invariants would take for calls of the last attempt).
 */
async function read(
  source: unknown,
  options: AdapterOptions = {},
  history = false,
): Promise<Outcome> {
  const malformed: ProviderStreamError[] = [];
  const outcome = await collect(
    fromAGUI(source as never, {
      session: fixedSession(),
      onMalformed: (error) => void malformed.push(error),
      ...options,
    }),
  );
  if (!history) checkInvariants(outcome.events, { hostDispatch: options.dispatch === 'host' });
  return { ...outcome, malformed } as Outcome & { malformed: ProviderStreamError[] };
}

function tools(events: readonly CallfoldEvent[]): Map<string, ToolNode> {
  const assembler = new Assembler({ now: () => 0 });
  assembler.push(events);
  return new Map(assembler.publish().tools);
}

function expectLiveEqualsHistory(events: readonly CallfoldEvent[]): void {
  const [live, history] = liveAndHistory(events);
  expect(history).to.deep.equal(live);
}

const run = (events: Record<string, unknown>[]) => [
  { type: 'RUN_STARTED', threadId: 't', runId: 'r1' },
  ...events,
  { type: 'RUN_FINISHED', threadId: 't', runId: 'r1' },
];

describe('fromAGUI: the .NET server recordings', () => {
  it('a server-run tool: the call is dispatched when its result arrives, the text after it is a second response', async () => {
    const events = await serverEvents('dotnet-backend-tool');
    for (const source of [events, sseResponse(encoderSSE(events))]) {
      const { events: out, error } = await read(source);
      expect(error).to.equal(undefined);
      expect(out.filter(isDurableEvent).map((e) => e.type)).to.deep.equal([
        'turn/start',
        'assistant/message',
        'tool/call',
        'tool/result',
        'assistant/message',
        'turn/end',
      ]);
      const [call] = ofType(out, 'tool/call');
      expect(call).to.include({ callId: 'call_Id_1', name: 'SearchRestaurants' });
      expect(JSON.parse(call?.args as string)).to.deep.equal({
        request: { Location: 'Seattle', Cuisine: 'Italian' },
      });
      const messages = ofType(out, 'assistant/message');
      expect(messages.map((m) => [m.attemptId, m.stopReason])).to.deep.equal([
        ['a1', 'tool-calls'],
        ['a2', 'end'],
      ]);
      expect(messages[1]?.messageId).to.equal('chatcmpl-Id_2');
      expect(messages[1]?.blocks[0]).to.deep.include({ type: 'text' });
      expect((messages[1]?.blocks[0] as { text?: string } | undefined)?.text).to.match(
        /^I found one Italian/,
      );
      const node = tools(out).get('call_Id_1') as ToolNode;
      expect(node.stage).to.equal('result');
      expect(node.result?.output)
        .to.be.a('string')
        .and.match(/The Golden Fork/);
      expect(ofType(out, 'turn/start')[0]?.turnId).to.equal('run_Id_1');
      expectLiveEqualsHistory(out);
    }
  });

  it('the encoder SSE cut anywhere (inside UTF-8 sequences too) gives the same events as the objects', async () => {
    const events = await serverEvents('dotnet-parallel-tools');
    const { events: expected } = await read(events);
    for (const seed of [1, 2, 3, 4]) {
      const pieces = bytePieces(encoderSSE(events), seed, 64);
      const { events: out, error } = await read(byteStream(pieces));
      expect(error).to.equal(undefined);
      expect(out, `seed ${seed}`).to.deep.equal(expected);
    }
  });

  it('parallel server-run tools: one response with both calls, then both results', async () => {
    const { events: out } = await read(await serverEvents('dotnet-parallel-tools'));
    expect(out.filter(isDurableEvent).map((e) => e.type)).to.deep.equal([
      'turn/start',
      'assistant/message',
      'tool/call',
      'tool/call',
      'tool/result',
      'tool/result',
      'assistant/message',
      'turn/end',
    ]);
    const nodes = tools(out);
    expect([...nodes.values()].map((n) => [n.callId, n.name, n.stage])).to.deep.equal([
      ['call_Id_1', 'get_weather', 'result'],
      ['call_Id_2', 'get_current_time', 'result'],
    ]);
    expect(nodes.get('call_Id_2')?.args.text('timezone')).to.equal('Asia/Tokyo');
    expectLiveEqualsHistory(out);
  });

  it('options.attemptId names the first response; dispatch host stops after each message', async () => {
    const events = await serverEvents('dotnet-backend-tool');
    const { events: out } = await read(events, { attemptId: 'first', dispatch: 'host' });
    expect(ofType(out, 'assistant/message').map((m) => m.attemptId)).to.deep.equal(['first', 'a1']);
    expect(ofType(out, 'tool/call')).to.deep.equal([]);
    expect(ofType(out, 'tool/result')).to.deep.equal([]);
    expect(ofType(out, 'stream/settle')).to.deep.equal([]);
  });

  it('a frontend tool: dispatched at RUN_FINISHED with no result (the client runs it)', async () => {
    const { events: out } = await read(await serverEvents('dotnet-frontend-tool-turn1'));
    const [call] = ofType(out, 'tool/call');
    expect(call).to.deep.include({ callId: 'call_Id_1', name: 'GetUserLocation', args: '{}' });
    expect(ofType(out, 'tool/result')).to.deep.equal([]);
    expect(tools(out).get('call_Id_1')?.stage).to.equal('start');
    expect(out.at(-1)).to.deep.include({ type: 'turn/end', turnId: 'run_Id_1' });
    expectLiveEqualsHistory(out);
  });
});

describe('fromAGUI: chunks, as @ag-ui/client expands them', () => {
  it('interleaved TEXT_MESSAGE_CHUNK and TOOL_CALL_CHUNK: tool-1 chunked again after tool-2 is a third call', async () => {
    const { events: out, error } = await read(await jsonlEvents('ts-client-interleaved-chunks'));
    expect(error).to.equal(undefined);
    const calls = ofType(out, 'tool/call');
    expect(calls.map((c) => [c.name, c.args, c.providerCallId])).to.deep.equal([
      ['firstTool', '{"arg1": "value1"}', undefined],
      ['secondTool', '{"arg2": "value2"}', undefined],
      ['firstTool', ',"arg1_more": "more data"}', 'tool-1'],
    ]);
    expect(calls.map((c) => c.callId)).to.deep.equal(['tool-1', 'tool-2', 'a2:2']);
    const messages = ofType(out, 'assistant/message');
    expect(
      messages.map((m) => m.blocks.map((b) => (b.type === 'tool-use' ? b.name : b.text))),
    ).to.deep.equal([
      ['First message part 1', 'firstTool', 'First message part 2'],
      ['Second message', 'secondTool', 'firstTool'],
    ]);
    expectLiveEqualsHistory(out);
  });

  it('a chunk without an id continues the open call; a first chunk without an id is malformed', async () => {
    const outcome = (await read(
      run([
        { type: 'TOOL_CALL_CHUNK', delta: '{"x":1}' },
        { type: 'TOOL_CALL_CHUNK', toolCallId: 'c1', toolCallName: 'Read', delta: '{"file_path":' },
        { type: 'TOOL_CALL_CHUNK', delta: '"a.ts"}' },
        { type: 'TOOL_CALL_CHUNK', toolCallName: 'Write', delta: 'x' },
      ]),
    )) as Outcome & { malformed: ProviderStreamError[] };
    expect(outcome.malformed.map((e) => e.message)).to.deep.equal([
      'the first tool chunk of a stream must have an id',
      'tool call chunk renames the open call c1',
    ]);
    expect(ofType(outcome.events, 'tool/call').map((c) => c.args)).to.deep.equal([
      '{"file_path":"a.ts"}',
    ]);
  });
});

describe('fromAGUI: the Dart SDK SSE sections', () => {
  it('reads each section: text, a call in two deltas, comments, ids, multi-line data, malformed events', async () => {
    const sections = await dartSections();
    const outcome = async (name: string) =>
      (await read(sseResponse(sections.get(name) as string))) as Outcome & {
        malformed: ProviderStreamError[];
      };
    const text = (events: CallfoldEvent[]) =>
      ofType(events, 'assistant/message').map((m) =>
        m.blocks.map((b) => (b.type === 'tool-use' ? b.argsText : b.text)),
      );

    expect(text((await outcome('Simple Text Message Stream')).events)).to.deep.equal([
      ['Hello, how can I help you today?'],
    ]);
    const tool = (await outcome('Tool Call Stream')).events;
    expect(ofType(tool, 'stream/tool-call-delta').map((d) => d.args)).to.deep.equal([
      '',
      '{"query":',
      '"AG-UI"}',
    ]);
    expect(ofType(tool, 'tool/call').map((c) => [c.name, c.args])).to.deep.equal([
      ['search', '{"query":"AG-UI"}'],
    ]);
    expect(text((await outcome('Heartbeat and Comments')).events)).to.deep.equal([['Test']]);
    const multiLine = await outcome('Multi-line Data Fields');
    expect([multiLine.events, multiLine.malformed]).to.deep.equal([[], []]);
    // No RUN_FINISHED: the source ends inside the response, which settles without records.
    const ids = (await outcome('With Event IDs and Retry')).events;
    expect(ofType(ids, 'stream/text-delta').map((d) => d.text)).to.deep.equal(['Message with ID']);
    expect(ids.filter(isDurableEvent)).to.deep.equal([]);
    expect(ids.at(-1)).to.deep.equal({ type: 'stream/settle', attemptId: 'a1' });
    const bad = await outcome('Malformed Examples');
    expect(bad.error).to.equal(undefined);
    expect(bad.malformed.map((e) => e.message)).to.deep.equal([
      'SSE data is not JSON',
      'TEXT_MESSAGE_START without a messageId',
      'SSE data is not JSON',
    ]);
    expect(bad.events).to.deep.equal([]);
    expect((await outcome('Empty Lines and Spacing')).events.map((e) => e.type)).to.deep.equal([
      'turn/start',
      'turn/end',
    ]);
    const unicode = (await outcome('Unicode and Special Characters')).events;
    expect(
      ofType(unicode, 'stream/text-delta')
        .map((d) => d.text)
        .join(''),
    ).to.equal('Hello 你好 🌟 €Special: "quotes", \\backslash\\, \ttab');
  });
});

describe('fromAGUI: runs, steps, cuts and snapshots', () => {
  const call = (id: string, name: string, args: string, extra: Record<string, unknown> = {}) => [
    { type: 'TOOL_CALL_START', toolCallId: id, toolCallName: name, ...extra },
    { type: 'TOOL_CALL_ARGS', toolCallId: id, delta: args },
    { type: 'TOOL_CALL_END', toolCallId: id },
  ];

  it('RUN_FINISHED with a call still open settles the response alone; the turn still ends', async () => {
    const { events: out } = await read(
      run([
        ...call('c1', 'Read', '{"file_path":"a"}'),
        { type: 'TOOL_CALL_START', toolCallId: 'c2', toolCallName: 'Write' },
        { type: 'TOOL_CALL_ARGS', toolCallId: 'c2', delta: '{"file_path":' },
      ]),
    );
    expect(out.filter(isDurableEvent).map((e) => e.type)).to.deep.equal(['turn/start', 'turn/end']);
    expect(tools(out).size).to.equal(0);
  });

  it('RUN_ERROR settles the live response, then fails with a ProviderStreamError', async () => {
    const { events: out, error } = await read([
      { type: 'RUN_STARTED', threadId: 't', runId: 'r1' },
      ...call('c1', 'Read', '{}'),
      { type: 'RUN_ERROR', message: 'model overloaded', code: '529' },
    ]);
    expect(error).to.be.instanceOf(ProviderStreamError);
    expect((error as Error).message).to.equal('model overloaded');
    expect(out.at(-1)).to.deep.equal({ type: 'stream/settle', attemptId: 'a1' });
    expect(ofType(out, 'tool/call')).to.deep.equal([]);
  });

  it('steps and message ids split a run into responses; reasoning after text starts the next one', async () => {
    const { events: out } = await read(
      run([
        { type: 'STEP_STARTED', stepName: 'agent' },
        { type: 'REASONING_MESSAGE_START', messageId: 'r1', role: 'reasoning' },
        { type: 'REASONING_MESSAGE_CONTENT', messageId: 'r1', delta: 'think' },
        { type: 'REASONING_MESSAGE_END', messageId: 'r1' },
        { type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' },
        { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'one' },
        { type: 'TEXT_MESSAGE_END', messageId: 'm1' },
        ...call('c1', 'Read', '{"file_path":"a"}', { parentMessageId: 'm1' }),
        { type: 'STEP_FINISHED', stepName: 'agent' },
        { type: 'STEP_STARTED', stepName: 'tools' },
        { type: 'TOOL_CALL_RESULT', messageId: 'x', toolCallId: 'c1', content: 'A' },
        { type: 'STEP_FINISHED', stepName: 'tools' },
        { type: 'TEXT_MESSAGE_START', messageId: 'm2', role: 'assistant' },
        { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm2', delta: 'two' },
        { type: 'TEXT_MESSAGE_END', messageId: 'm2' },
        { type: 'REASONING_MESSAGE_START', messageId: 'r2', role: 'reasoning' },
        { type: 'REASONING_MESSAGE_CONTENT', messageId: 'r2', delta: 'more' },
        { type: 'REASONING_MESSAGE_END', messageId: 'r2' },
        { type: 'TEXT_MESSAGE_START', messageId: 'm3', role: 'assistant' },
        { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm3', delta: 'three' },
        { type: 'TEXT_MESSAGE_END', messageId: 'm3' },
      ]),
    );
    const messages = ofType(out, 'assistant/message');
    expect(
      messages.map((m) => [
        m.messageId,
        m.blocks.map((b) => (b.type === 'tool-use' ? b.name : b.text)),
      ]),
    ).to.deep.equal([
      ['m1', ['think', 'one', 'Read']],
      ['m2', ['two']],
      ['m3', ['more', 'three']],
    ]);
    expect(tools(out).get('c1')?.stage).to.equal('result');
    expectLiveEqualsHistory(out);
  });

  it('a result for a call of a response still streaming another call waits for that response', async () => {
    const { events: out } = await read(
      run([
        ...call('c1', 'Read', '{}'),
        { type: 'TOOL_CALL_START', toolCallId: 'c2', toolCallName: 'Read' },
        { type: 'TOOL_CALL_RESULT', messageId: 'x', toolCallId: 'c1', content: 'A' },
        { type: 'TOOL_CALL_ARGS', toolCallId: 'c2', delta: '{}' },
        { type: 'TOOL_CALL_END', toolCallId: 'c2' },
      ]),
    );
    expect(out.filter(isDurableEvent).map((e) => e.type)).to.deep.equal([
      'turn/start',
      'assistant/message',
      'tool/call',
      'tool/call',
      'tool/result',
      'turn/end',
    ]);
  });

  it('MESSAGES_SNAPSHOT is history: durable records only, nothing the live run produced again', async () => {
    const live = await serverEvents('dotnet-backend-tool');
    const snapshot = {
      type: 'MESSAGES_SNAPSHOT',
      messages: [
        { id: 'u1', role: 'user', content: 'Find Italian food in Seattle' },
        {
          id: 'a0',
          role: 'assistant',
          toolCalls: [
            {
              id: 'call_Id_1',
              type: 'function',
              function: { name: 'SearchRestaurants', arguments: '{}' },
            },
          ],
        },
        { id: 't1', role: 'tool', toolCallId: 'call_Id_1', content: 'same' },
        { id: 'chatcmpl-Id_2', role: 'assistant', content: 'I found one Italian restaurant' },
        { id: 'later', role: 'assistant', content: 'An older answer' },
        {
          id: 'a9',
          role: 'assistant',
          toolCalls: [
            { id: 'call_9', type: 'function', function: { name: 'Bash', arguments: '' } },
          ],
        },
        { id: 't9', role: 'tool', toolCallId: 'call_9', content: 'ok', error: 'exit 1' },
      ],
    };
    const before = (await read(live)).events;
    const after = (await read([...live, snapshot], {}, true)).events;
    const added = after.slice(before.length);
    expect(added.every(isDurableEvent)).to.equal(true);
    expect(added.map((e) => e.type)).to.deep.equal([
      'assistant/message',
      'assistant/message',
      'tool/call',
      'tool/result',
    ]);
    expect(ofType(added, 'tool/call')[0]).to.deep.include({ callId: 'call_9', args: '{}' });
    expect(ofType(added, 'tool/result')[0]).to.deep.include({ callId: 'call_9', isError: true });
    const alone = (await read([snapshot], {}, true)).events;
    expect(alone.every(isDurableEvent)).to.equal(true);
    expect(tools(alone).get('call_Id_1')?.stage).to.equal('result');
    expectLiveEqualsHistory(after);
  });

  it('a long TOOL_CALL_ARGS run streams every fragment and ends with the exact text', async () => {
    const pieces = Array.from({ length: 4096 }, (_, i) => `${i % 10}`.repeat(16));
    const args = `{"file_path":"a.ts","content":"${pieces.join('')}"}`;
    const deltas = [`{"file_path":"a.ts","content":"`, ...pieces, '"}'];
    const { events: out } = await read(
      run([
        { type: 'TOOL_CALL_START', toolCallId: 'w', toolCallName: 'Write' },
        ...deltas.map((delta) => ({ type: 'TOOL_CALL_ARGS', toolCallId: 'w', delta })),
        { type: 'TOOL_CALL_END', toolCallId: 'w' },
      ]),
    );
    expect(
      ofType(out, 'stream/tool-call-delta')
        .map((d) => d.args)
        .join(''),
    ).to.equal(args);
    expect(ofType(out, 'tool/call')[0]?.args).to.equal(args);
  });

  it('unsubscribing unsubscribes from the Observable source and emits nothing more', async () => {
    let tornDown = false;
    const source = new Observable<unknown>((subscriber) => {
      subscriber.next({ type: 'RUN_STARTED', threadId: 't', runId: 'r1' });
      subscriber.next({ type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'Read' });
      return () => {
        tornDown = true;
      };
    });
    const seen: CallfoldEvent[] = [];
    await new Promise<void>((resolve) => {
      const subscription = fromAGUI(source, { session: fixedSession() }).subscribe((event) => {
        seen.push(event);
        if (event.type === 'stream/tool-call-delta') {
          subscription.unsubscribe();
          resolve();
        }
      });
    });
    expect(tornDown).to.equal(true);
    expect(seen.map((e) => e.type)).to.deep.equal(['turn/start', 'stream/tool-call-delta']);
  });

  it('reads an rxjs Observable of events (what HttpAgent.run() returns)', async () => {
    const { events: out } = await read(from(await serverEvents('dotnet-parallel-tools')));
    expect(ofType(out, 'tool/call').map((c) => c.callId)).to.deep.equal(['call_Id_1', 'call_Id_2']);
  });
});

describe('toAGUI → fromAGUI', () => {
  it('gives back the Conversation of an Anthropic response (live and from its durable events)', async () => {
    const fixture = await loadFixture('anthropic-messages');
    const original = (
      await collect(fromAnthropicMessages(sseResponse(fixture.sse), { session: fixedSession() }))
    ).events;
    const withTurn: CallfoldEvent[] = [
      { type: 'turn/start', turnId: 'turn-1', prompt: 'write two files', seq: 0, at: 0 },
      ...original,
      { type: 'turn/end', turnId: 'turn-1', seq: 1000, at: 0 },
    ];
    for (const input of [withTurn, withTurn.filter(isDurableEvent)]) {
      const agui = await lastValueFrom(from(input).pipe(toAGUI(), toArray()));
      const { events: back, error } = await read(agui);
      expect(error).to.equal(undefined);
      expect(conversationOf(back)).to.deep.equal(conversationOf(input));
      expect(ofType(back, 'turn/start')[0]).to.deep.include({
        turnId: 'turn-1',
        prompt: 'write two files',
      });
      expectLiveEqualsHistory(back);
    }
  });

  it('an attemptId the stream already used gets a fresh one, and its response stays whole', async () => {
    const fixture = await loadFixture('anthropic-messages');
    const original = (
      await collect(fromAnthropicMessages(sseResponse(fixture.sse), { session: fixedSession() }))
    ).events;
    const agui = await lastValueFrom(from(original).pipe(toAGUI(), toArray()));
    const { events: back } = await read([...agui, ...agui]);
    const messages = ofType(back, 'assistant/message');
    expect(messages).to.have.length(2);
    expect(messages[0]?.attemptId).to.equal(ofType(original, 'assistant/message')[0]?.attemptId);
    expect(messages[1]?.attemptId).to.not.equal(messages[0]?.attemptId);
    expect(messages[1]?.blocks.length).to.equal(messages[0]?.blocks.length);
  });

  it('a text block that ended without deltas is written whole when it ends', async () => {
    const input: CallfoldEvent[] = [
      { type: 'stream/block-end', attemptId: 'x1', block: 0, text: 'Only an end.' },
      { type: 'stream/settle', attemptId: 'x1' },
    ];
    const agui = await lastValueFrom(from(input).pipe(toAGUI(), toArray()));
    expect(agui.map((e) => e.type)).to.deep.equal([
      'RUN_STARTED',
      'TEXT_MESSAGE_START',
      'TEXT_MESSAGE_CONTENT',
      'TEXT_MESSAGE_END',
      'CUSTOM',
      'RUN_FINISHED',
    ]);
    const { events: back } = await read(agui);
    expect(ofType(back, 'stream/text-delta').map((d) => d.text)).to.deep.equal(['Only an end.']);
    expect(back.at(-1)).to.deep.equal({ type: 'stream/settle', attemptId: 'x1' });
  });
});
