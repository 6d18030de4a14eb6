/**
 * fromClaudeCode on Claude Code's own output: the recorded `stream-json` lines, the same
 * session with partial messages (`stream_event`), as SDK message objects, as bytes cut
 * anywhere, and as a session transcript; sub-agents kept apart; live equals history.
 */
import { expect } from 'chai';
import { Assembler } from '../../src/conversation/assembler.js';
import { type CallfoldEvent, isDurableEvent } from '../../src/events/types.js';
import { fromClaudeCode } from '../../src/providers/claude-code.js';
import { ProviderStreamError } from '../../src/providers/provider-stream-error.js';
import { project } from '../assembler/support/driver.js';
import { describe, it } from '../harness.js';
import { fixedSession } from './support/cases.js';
import { asyncIterable, bytePieces, byteStream, collect } from './support/fixtures.js';
import { checkInvariants } from './support/invariants.js';
import { recording } from './support/recordings.js';
import { ofType } from './support/run.js';

const BASH = 'toolu_01BeipFBP3sUY3EAwVg3qQnE';
const LS = '{"command":"ls -la","description":"List files in current directory"}';

/** The recorded gleam capture: each pretty-printed file one stdout line. */
async function recordedLines(): Promise<string> {
  const files = ['assistant_message.json', 'user_message.json'];
  const texts = await Promise.all(files.map((f) => recording(`claude-agent-sdk-gleam/${f}`)));
  return texts.map((t) => `${JSON.stringify(JSON.parse(t))}\n`).join('');
}

async function fold(source: unknown, thread?: string): Promise<CallfoldEvent[]> {
  const options = thread === undefined ? {} : { thread };
  const outcome = await collect(
    fromClaudeCode(source as string, { session: fixedSession(), ...options }),
  );
  expect(outcome.error).to.equal(undefined);
  // A transcript is history: no stream events, no attempt to check.
  if (!outcome.events.every(isDurableEvent)) checkInvariants(outcome.events);
  return outcome.events;
}

function conversation(events: readonly CallfoldEvent[]): unknown {
  const assembler = new Assembler({ now: () => 0 });
  assembler.push(events);
  return project(assembler.publish());
}

function expectHistoryEqualsLive(events: readonly CallfoldEvent[]): void {
  expect(conversation(events.filter(isDurableEvent))).to.deep.equal(conversation(events));
}

/**
 * The durable events without `at`, arguments parsed, for comparing two forms of one session
 * (streamed `partial_json` and a whole `input` are the same arguments in other spacing).
 */
function durable(events: readonly CallfoldEvent[]): unknown[] {
  const parse = (text: unknown) => (typeof text === 'string' ? JSON.parse(text) : text);
  return events.filter(isDurableEvent).map(({ at: _at, ...rest }) => {
    if (rest.type === 'tool/call') return { ...rest, args: parse(rest.args) };
    if (rest.type !== 'assistant/message') return rest;
    const blocks = rest.blocks.map((b) =>
      b.type === 'tool-use' ? { ...b, argsText: parse(b.argsText) } : b,
    );
    return { ...rest, blocks };
  });
}

describe('fromClaudeCode: stream-json lines', () => {
  it('the recorded Bash call is a call with its input as arguments, then its tool_result', async () => {
    const events = await fold(await recordedLines());
    const calls = ofType(events, 'tool/call');
    expect(calls.map((c) => [c.callId, c.name, JSON.parse(c.args as string)])).to.deep.equal([
      [BASH, 'Bash', JSON.parse(LS)],
    ]);
    expect(calls[0]).to.not.have.property('executor');
    const [message] = ofType(events, 'assistant/message');
    expect(message).to.include({
      messageId: 'msg_01CDeqobd7FiVR5Uu8enUMvG',
      stopReason: 'tool-calls',
    });
    const [result] = ofType(events, 'tool/result');
    expect(result?.callId).to.equal(BASH);
    expect(result?.output).to.match(/^total 1976\n/);
    expect(result).to.not.have.property('isError');
    expect(events.map((e) => e.type)).to.deep.equal([
      'stream/tool-call-delta',
      'stream/block-end',
      'assistant/message',
      'tool/call',
      'stream/settle',
      'tool/result',
    ]);
    expectHistoryEqualsLive(events);
  });

  it('whole messages of one id are one response: a text and a call, ended by the user line', async () => {
    const events = await fold(await recording('built-from-types/claude-code-whole-messages.jsonl'));
    const messages = ofType(events, 'assistant/message');
    expect(messages.map((m) => [m.messageId, m.blocks.map((b) => b.type)])).to.deep.equal([
      ['msg_01CDeqobd7FiVR5Uu8enUMvG', ['text', 'tool-use']],
      ['msg_built_2', ['text']],
    ]);
    expect(ofType(events, 'stream/settle')).to.have.length(2);
    const order = events.filter(isDurableEvent).map((e) => e.type);
    expect(order).to.deep.equal([
      'assistant/message',
      'tool/call',
      'tool/result',
      'assistant/message',
    ]);
    expectHistoryEqualsLive(events);
  });

  it('with partial messages the stream_event lines stream the call, and the whole copies are skipped', async () => {
    const events = await fold(
      await recording('built-from-types/claude-code-partial-messages.jsonl'),
    );
    const deltas = ofType(events, 'stream/tool-call-delta');
    expect(deltas[0]).to.include({ callId: BASH, name: 'Bash' });
    expect(deltas.map((d) => d.args).join('')).to.equal(
      '{"command": "ls -la", "description": "List files in current directory"}',
    );
    expect(deltas.length).to.be.greaterThan(2);
    const text = ofType(events, 'stream/text-delta').map((d) => d.text);
    expect(text).to.deep.equal(['Listing the ', 'directory.', 'Two entries.']);
    expect(ofType(events, 'assistant/message').map((m) => m.stopReason)).to.deep.equal([
      'tool-calls',
      'end',
    ]);
    expectHistoryEqualsLive(events);
  });

  it('partial messages, whole messages and SDK objects fold to the same conversation', async () => {
    const partial = await recording('built-from-types/claude-code-partial-messages.jsonl');
    const whole = await recording('built-from-types/claude-code-whole-messages.jsonl');
    const objects = partial
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as unknown);
    const fromPartial = await fold(partial);
    const fromWhole = await fold(whole);
    const fromObjects = await fold(asyncIterable(objects));
    expect(fromObjects).to.deep.equal(fromPartial);
    expect(durable(fromWhole)).to.deep.equal(durable(fromPartial));
  });

  it('reads the lines as bytes cut anywhere (inside UTF-8 sequences too)', async () => {
    const text = await recording('built-from-types/claude-code-partial-messages.jsonl');
    const whole = await fold(text);
    for (const seed of [1, 2, 3]) {
      const pieces = bytePieces(text, seed, 64);
      expect(await fold(byteStream(pieces))).to.deep.equal(whole);
    }
    const response = new Response(new TextEncoder().encode(text));
    expect(await fold(response)).to.deep.equal(whole);
  });
});

describe('fromClaudeCode: session transcripts and sub-agents', () => {
  it('a transcript is history: durable events only, the same records as the live stream', async () => {
    const events = await fold(
      await recording('built-from-types/claude-code-session-transcript.jsonl'),
    );
    expect(events.every(isDurableEvent)).to.equal(true);
    const live = await fold(await recording('built-from-types/claude-code-whole-messages.jsonl'));
    expect(durable(events)).to.deep.equal(durable(live));
    expect(conversation(events)).to.deep.equal(conversation(live));
    expect(JSON.stringify(events)).to.not.contain('warmup');
  });

  it('a sub-agent is kept apart: the main fold has the Task call, the thread fold its own calls', async () => {
    const text = await recording('built-from-types/claude-code-subagent.jsonl');
    const main = await fold(text);
    expect(ofType(main, 'tool/call').map((c) => c.name)).to.deep.equal(['Task']);
    expect(ofType(main, 'tool/result').map((r) => r.callId)).to.deep.equal(['toolu_built_task']);
    expect(ofType(main, 'assistant/message').map((m) => m.messageId)).to.deep.equal([
      'msg_main_1',
      'msg_main_2',
    ]);
    // The Task call is dispatched at the main agent's next line (tool_progress), before its result.
    expect(main.filter(isDurableEvent).map((e) => e.type)).to.deep.equal([
      'assistant/message',
      'tool/call',
      'tool/result',
      'assistant/message',
    ]);
    const sub = await fold(text, 'toolu_built_task');
    expect(ofType(sub, 'tool/call').map((c) => [c.name, c.args])).to.deep.equal([
      ['Glob', '{"pattern":"test/**/*.ts"}'],
    ]);
    expect(ofType(sub, 'tool/result').map((r) => r.output)).to.deep.equal([
      'test/a.test.ts\ntest/b.test.ts',
    ]);
    expect(ofType(sub, 'assistant/message').map((m) => m.messageId)).to.deep.equal([
      'msg_sub_1',
      'msg_sub_2',
    ]);
    expectHistoryEqualsLive(main);
    expectHistoryEqualsLive(sub);
  });

  it("without tool_progress, the sub-agent's first line dispatches the Task call that started it", async () => {
    const lines = (await recording('built-from-types/claude-code-subagent.jsonl'))
      .split('\n')
      .filter((l) => l !== '' && !l.includes('"tool_progress"'));
    let read = 0;
    async function* counted() {
      for (const line of lines) {
        read += 1;
        yield line;
      }
    }
    let readAtCall = -1;
    await new Promise<void>((resolve) => {
      fromClaudeCode(counted(), { session: fixedSession() }).subscribe({
        next: (event) => {
          if (event.type === 'tool/call') readAtCall = read;
        },
        complete: resolve,
      });
    });
    // Line 2 is the sub-agent's first (its prompt); the Task's result is line 6.
    expect(lines[1]).to.contain('"parent_tool_use_id":"toolu_built_task"');
    expect(readAtCall).to.equal(2);
  });
});

describe('fromClaudeCode: ends of responses', () => {
  const line = (value: object) => `${JSON.stringify(value)}\n`;
  const assistant = (id: string, content: object[], extra: object = {}) =>
    line({
      type: 'assistant',
      message: { id, content, stop_reason: null },
      parent_tool_use_id: null,
      ...extra,
    });
  const call = { type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: 'a.ts' } };

  it('an aborted assistant message settles without records', async () => {
    const events = await fold(assistant('msg_1', [call], { aborted: true }));
    expect(events.filter(isDurableEvent)).to.deep.equal([]);
    expect(ofType(events, 'stream/settle')).to.have.length(1);
  });

  it('a result while a response streams cuts it; the run goes on to the next turn', async () => {
    const se = (event: object) => line({ type: 'stream_event', event, parent_tool_use_id: null });
    const text =
      se({ type: 'message_start', message: { id: 'msg_1' } }) +
      se({
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'tool_use', id: 'toolu_cut', name: 'Write' },
      }) +
      se({
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'input_json_delta', partial_json: '{"file_pa' },
      }) +
      line({ type: 'result', subtype: 'error_during_execution', is_error: true }) +
      assistant('msg_2', [call]) +
      line({ type: 'result', subtype: 'success', is_error: false });
    const events = await fold(text);
    expect(ofType(events, 'tool/call').map((c) => c.callId)).to.deep.equal(['toolu_1']);
    expect(ofType(events, 'stream/settle')).to.have.length(2);
    expectHistoryEqualsLive(events);
  });

  it('an error stream event settles the response, then fails with a ProviderStreamError', async () => {
    const se = (event: object) => line({ type: 'stream_event', event, parent_tool_use_id: null });
    const text =
      se({ type: 'message_start', message: { id: 'msg_1' } }) +
      se({
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'tool_use', id: 'toolu_e', name: 'Write' },
      }) +
      se({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }) +
      assistant('msg_2', [call]);
    const outcome = await collect(fromClaudeCode(text, { session: fixedSession() }));
    expect(outcome.error).to.be.instanceOf(ProviderStreamError);
    expect(outcome.error).to.include({ provider: 'claude-code', message: 'Overloaded' });
    expect(outcome.events.map((e) => e.type)).to.deep.equal([
      'stream/tool-call-delta',
      'stream/settle',
    ]);
  });

  it('replayed user lines are skipped: a result is recorded once', async () => {
    const result = {
      type: 'user',
      message: { content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'x' }] },
    };
    const events = await fold(
      assistant('msg_1', [call]) + line(result) + line({ ...result, isReplay: true }),
    );
    expect(ofType(events, 'tool/result')).to.have.length(1);
  });

  it('a stop_reason ends the response at once; another id opens the next', async () => {
    const events = await fold(
      assistant('msg_1', [{ type: 'text', text: 'a' }], {}) +
        assistant('msg_2', [call]) +
        line({ type: 'assistant', message: { id: 'msg_2', content: [], stop_reason: 'tool_use' } }),
    );
    expect(
      ofType(events, 'assistant/message').map((m) => [m.messageId, m.stopReason]),
    ).to.deep.equal([
      ['msg_1', 'end'],
      ['msg_2', 'tool-calls'],
    ]);
    expect(events.at(-1)?.type).to.equal('stream/settle');
  });
});
