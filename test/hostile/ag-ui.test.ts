/**
 * Hostile AG-UI streams: what a third-party agent backend (or a network cutting anywhere)
 * can send to fromAGUI. Nothing is thrown past the Observable, sizes stay bounded, malformed
 * events go to `onMalformed`, and the good call beside the bad input is dispatched.
 */
import { expect } from 'chai';
import { Observable } from 'rxjs';
import type { CallfoldEvent } from '../../src/events/types.js';
import { fromAGUI } from '../../src/providers/ag-ui.js';
import { ProviderStreamError } from '../../src/providers/provider-stream-error.js';
import { describe, it } from '../harness.js';
import { fixedSession } from '../providers/support/cases.js';
import { collect, type Outcome } from '../providers/support/fixtures.js';
import { ofType } from '../providers/support/run.js';

const start = { type: 'RUN_STARTED', threadId: 't', runId: 'r' };
const finish = { type: 'RUN_FINISHED', threadId: 't', runId: 'r' };
const goodCall = [
  { type: 'TOOL_CALL_START', toolCallId: 'ok', toolCallName: 'Read' },
  { type: 'TOOL_CALL_ARGS', toolCallId: 'ok', delta: '{"file_path":"a.ts"}' },
  { type: 'TOOL_CALL_END', toolCallId: 'ok' },
];
const sse = (events: readonly unknown[]) =>
  events.map((e) => `data: ${typeof e === 'string' ? e : JSON.stringify(e)}\n\n`).join('');

async function read(source: unknown): Promise<Outcome & { malformed: ProviderStreamError[] }> {
  const malformed: ProviderStreamError[] = [];
  const outcome = await collect(
    fromAGUI(source as never, {
      session: fixedSession(),
      onMalformed: (error) => void malformed.push(error),
    }),
  );
  return { ...outcome, malformed };
}

function dispatched(events: readonly CallfoldEvent[]): string[] {
  return ofType(events, 'tool/call').map((c) => `${c.callId} ${c.name} ${c.args}`);
}

describe('hostile AG-UI streams', () => {
  it('ids and keys named __proto__ are ordinary ids: no prototype is touched', async () => {
    const text = sse([
      start,
      '{"type":"TOOL_CALL_START","toolCallId":"__proto__","toolCallName":"Read","metadata":{"__proto__":{"callfold":{"attemptId":"x"}}}}',
      '{"type":"TOOL_CALL_ARGS","toolCallId":"__proto__","delta":"{\\"__proto__\\":{\\"polluted\\":1}}"}',
      '{"type":"TOOL_CALL_END","toolCallId":"__proto__"}',
      '{"type":"TEXT_MESSAGE_CHUNK","messageId":"constructor","delta":"hi","subagentRunId":"__proto__"}',
      ...goodCall,
      finish,
    ]);
    const { events, error } = await read(text);
    expect(error).to.equal(undefined);
    expect(dispatched(events)).to.deep.equal([
      '__proto__ Read {"__proto__":{"polluted":1}}',
      'ok Read {"file_path":"a.ts"}',
    ]);
    expect(ofType(events, 'assistant/message')[0]?.attemptId).to.equal('a1');
    expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
  });

  it('events that are not objects, or whose fields have the wrong types, are skipped; the good call is dispatched', async () => {
    const { events, error, malformed } = await read([
      { type: 'TOOL_CALL_ARGS', delta: 'no id' },
      { type: 'TEXT_MESSAGE_CONTENT', delta: 'no id' },
      start,
      42,
      null,
      [1, 2],
      'data: {}',
      { type: 42 },
      { type: 'TOOL_CALL_START', toolCallId: { id: 1 }, toolCallName: 'Bad' },
      { type: 'TOOL_CALL_START', toolCallId: 'b', toolCallName: { name: 'x' } },
      { type: 'TOOL_CALL_ARGS', toolCallId: 'b', delta: 7 },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'nobody', delta: 'x' },
      { type: 'TOOL_CALL_END', toolCallId: 'nobody' },
      { type: 'MESSAGES_SNAPSHOT', messages: 'not a list' },
      {
        type: 'MESSAGES_SNAPSHOT',
        messages: [null, 5, { id: 7 }, { id: 'm', role: 'assistant', toolCalls: 'x' }],
      },
      { type: 'TOOL_CALL_RESULT', toolCallId: 5, content: 'x' },
      { type: 'CUSTOM', name: 'callfold.message', value: 'x' },
      ...goodCall,
      finish,
    ]);
    expect(error).to.equal(undefined);
    expect(malformed.length).to.be.above(2);
    expect(dispatched(events)).to.deep.equal(['ok Read {"file_path":"a.ts"}']);
  });

  it('reads 100,000 TOOL_CALL_CHUNK deltas given as one SSE string, without recursion', async () => {
    const chunks = Array.from({ length: 100_000 }, () => ({ type: 'TOOL_CALL_CHUNK', delta: 'x' }));
    const text = sse([
      start,
      { type: 'TOOL_CALL_CHUNK', toolCallId: 'w', toolCallName: 'Write', delta: '{"content":"' },
      ...chunks,
      { type: 'TOOL_CALL_CHUNK', delta: '"}' },
      finish,
    ]);
    const { events, error } = await read(text);
    expect(error).to.equal(undefined);
    expect(String(ofType(events, 'tool/call')[0]?.args).length).to.equal(100_000 + 14);
  });

  it('a snapshot whose arguments nest 10,000 deep is written without overflowing the stack', async () => {
    let deep: unknown = 1;
    for (let i = 0; i < 10_000; i++) deep = { a: deep };
    const { events, error } = await read([
      {
        type: 'MESSAGES_SNAPSHOT',
        messages: [
          {
            id: 'm',
            role: 'assistant',
            toolCalls: [{ id: 'd', type: 'function', function: { name: 'Deep', arguments: deep } }],
          },
        ],
      },
      start,
      ...goodCall,
      finish,
    ]);
    expect(error).to.equal(undefined);
    expect(dispatched(events).map((line) => line.slice(0, 14))).to.deep.equal([
      'd Deep {"a":{"',
      'ok Read {"file',
    ]);
  });

  it('fails with a ProviderStreamError for a RUN_ERROR whose message nests 100,000 deep', async () => {
    let nested: unknown = 'boom';
    for (let i = 0; i < 100_000; i++) nested = { error: nested };
    const { events, error } = await read([
      start,
      ...goodCall.slice(0, 2),
      { type: 'RUN_ERROR', error: nested },
    ]);
    expect(error).to.be.instanceOf(ProviderStreamError);
    expect(events.at(-1)).to.deep.equal({ type: 'stream/settle', attemptId: 'a1' });
  });

  it('an Observable that fails settles the live response and fails with its own error', async () => {
    const failure = new Error('connection reset');
    const source = new Observable((subscriber) => {
      subscriber.next(start);
      for (const event of goodCall) subscriber.next(event);
      subscriber.error(failure);
    });
    const { events, error } = await read(source);
    expect(error).to.equal(failure);
    expect(dispatched(events)).to.deep.equal([]);
    expect(events.at(-1)).to.deep.equal({ type: 'stream/settle', attemptId: 'a1' });
  });

  it('arguments after a call ended, a second START of an open call and unknown events change nothing', async () => {
    const { events, error } = await read([
      start,
      { type: 'TOOL_CALL_START', toolCallId: 'ok', toolCallName: 'Read' },
      { type: 'TOOL_CALL_START', toolCallId: 'ok', toolCallName: 'Write' },
      { type: 'TOOL_CALL_ARGS', toolCallId: 'ok', delta: '{"file_path":"a.ts"}' },
      { type: 'TOOL_CALL_END', toolCallId: 'ok' },
      { type: 'TOOL_CALL_ARGS', toolCallId: 'ok', delta: 'junk' },
      { type: 'SOMETHING_NEW', toolCallId: 'ok' },
      { type: 'STATE_DELTA', delta: [{ op: 'add', path: '/__proto__/x', value: 1 }] },
      finish,
    ]);
    expect(error).to.equal(undefined);
    expect(dispatched(events)).to.deep.equal(['ok Read {"file_path":"a.ts"}']);
  });
});
