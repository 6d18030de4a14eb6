import { expect } from 'chai';
import { fromAISDKUIStream } from '../../src/providers/ai-sdk-ui-stream.js';
import { describe, it } from '../harness.js';
import { fixedSession } from './support/cases.js';
import { collect } from './support/fixtures.js';
import { ofType, run, shape, toolDeltas } from './support/run.js';

const input = (toolCallId: string, toolName: string, parts: string[], value: unknown) => [
  { type: 'tool-input-start', toolCallId, toolName },
  ...parts.map((inputTextDelta) => ({ type: 'tool-input-delta', toolCallId, inputTextDelta })),
  { type: 'tool-input-available', toolCallId, toolName, input: value },
];

describe('fromAISDKUIStream', () => {
  it('makes each step an attempt, and emits a step’s tool results after its settle', async () => {
    const { events } = await run(fromAISDKUIStream, [
      { type: 'start', messageId: 'm1' },
      { type: 'start-step' },
      ...input('c1', 'Read', ['{"p":', '"a"}'], { p: 'a' }),
      { type: 'tool-output-available', toolCallId: 'c1', output: 'text' },
      { type: 'finish-step' },
      { type: 'start-step' },
      { type: 'text-start', id: 't1' },
      { type: 'text-delta', id: 't1', delta: 'Done' },
      { type: 'text-end', id: 't1' },
      { type: 'finish-step' },
      { type: 'finish' },
    ]);
    expect(shape(events)).to.deep.equal([
      'stream/tool-call-delta',
      'stream/block-end',
      'assistant/message',
      'tool/call',
      'stream/settle',
      'tool/result',
      'stream/text-delta',
      'stream/block-end',
      'assistant/message',
      'stream/settle',
    ]);
    const [first, second] = ofType(events, 'assistant/message');
    expect(first?.attemptId).to.equal('a1');
    expect(second?.attemptId).to.equal('a2');
    expect(second?.messageId).to.equal('m1');
    expect(ofType(events, 'tool/result')[0]).to.deep.include({ callId: 'c1', output: 'text' });
  });

  it('keeps the streamed text when it parses to the input, else takes JSON.stringify(input)', async () => {
    const { events } = await run(fromAISDKUIStream, [
      ...input('c1', 'Read', ['{ "p": ', '"a" }'], { p: 'a' }),
      ...input('c2', 'Read', ['{"p":"a"'], { p: 'b' }),
      { type: 'finish' },
    ]);
    expect(ofType(events, 'tool/call').map((c) => c.args)).to.deep.equal([
      '{ "p": "a" }',
      '{"p":"b"}',
    ]);
  });

  it('shows a call that arrives whole in tool-input-available', async () => {
    const { events } = await run(fromAISDKUIStream, [
      {
        type: 'tool-input-available',
        toolCallId: 'c1',
        toolName: 'Bash',
        input: { command: 'ls' },
      },
      { type: 'finish' },
    ]);
    expect(toolDeltas(events)).to.deep.equal(['c1 Bash ']);
    expect(ofType(events, 'tool/call')[0]?.args).to.equal('{"command":"ls"}');
  });

  it('reports errors as error results, skips preliminary outputs, and emits results for settled calls at once', async () => {
    const { events } = await run(fromAISDKUIStream, [
      { type: 'start-step' },
      ...input('c1', 'Bash', ['{}'], {}),
      { type: 'tool-output-available', toolCallId: 'c1', output: 'partial', preliminary: true },
      { type: 'tool-output-error', toolCallId: 'c1', errorText: 'exit 1' },
      { type: 'finish-step' },
      { type: 'tool-output-available', toolCallId: 'c0', output: 'from the client' },
      { type: 'finish' },
    ]);
    expect(ofType(events, 'tool/result').map((r) => [r.callId, r.output, r.isError])).to.deep.equal(
      [
        ['c1', 'exit 1', true],
        ['c0', 'from the client', undefined],
      ],
    );
  });

  it('settles the live step alone at abort, dropping its held results', async () => {
    const { events, completed } = await run(fromAISDKUIStream, [
      { type: 'start-step' },
      ...input('c1', 'Bash', ['{}'], {}),
      { type: 'tool-output-available', toolCallId: 'c1', output: 'ok' },
      { type: 'abort' },
      { type: 'finish-step' },
    ]);
    expect(completed).to.equal(true);
    expect(shape(events)).to.deep.equal([
      'stream/tool-call-delta',
      'stream/block-end',
      'stream/settle',
    ]);
  });

  it('reads a ReadableStream of chunk objects, as toUIMessageStream() returns', async () => {
    const chunks = [
      { type: 'start' },
      { type: 'reasoning-start', id: 'r' },
      { type: 'reasoning-delta', id: 'r', delta: 'Hm' },
      { type: 'reasoning-end', id: 'r' },
      { type: 'finish' },
    ];
    const stream = new ReadableStream({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(chunk);
        controller.close();
      },
    });
    const { events } = await collect(fromAISDKUIStream(stream, { session: fixedSession() }));
    expect(ofType(events, 'assistant/message')[0]?.blocks).to.deep.equal([
      { type: 'reasoning', text: 'Hm' },
    ]);
  });
});
