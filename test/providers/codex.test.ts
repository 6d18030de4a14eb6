/**
 * fromCodex on `codex exec --json` output: OpenAI's published sample, two recorded runs of
 * Codex 0.46.0, and every call item of the SDK's types; a failed turn; turns in a row.
 */
import { expect } from 'chai';
import { Assembler } from '../../src/conversation/assembler.js';
import type { ToolNode } from '../../src/definitions/tool-definition.js';
import { type CallfoldEvent, isDurableEvent } from '../../src/events/types.js';
import { fromCodex } from '../../src/providers/codex.js';
import { ProviderStreamError } from '../../src/providers/provider-stream-error.js';
import { project } from '../assembler/support/driver.js';
import { describe, it } from '../harness.js';
import { fixedSession } from './support/cases.js';
import { asyncIterable, bytePieces, byteStream, collect } from './support/fixtures.js';
import { checkInvariants } from './support/invariants.js';
import { recording } from './support/recordings.js';
import { ofType } from './support/run.js';

async function fold(source: unknown): Promise<CallfoldEvent[]> {
  const outcome = await collect(fromCodex(source as string, { session: fixedSession() }));
  expect(outcome.error).to.equal(undefined);
  checkInvariants(outcome.events);
  return outcome.events;
}

function publish(events: readonly CallfoldEvent[]) {
  const assembler = new Assembler({ now: () => 0 });
  assembler.push(events);
  return assembler.publish();
}

function expectHistoryEqualsLive(events: readonly CallfoldEvent[]): void {
  expect(project(publish(events.filter(isDurableEvent)))).to.deep.equal(project(publish(events)));
}

function node(events: readonly CallfoldEvent[], callId: string): ToolNode {
  const found = publish(events).tools.get(callId);
  expect(found, callId).to.not.equal(undefined);
  return found as ToolNode;
}

describe('fromCodex: recorded codex exec --json', () => {
  it("OpenAI's sample: reasoning, a command run by the agent, its output, the answer", async () => {
    const events = await fold(await recording('codex/exec-json-docs-sample.jsonl'));
    const [call] = ofType(events, 'tool/call');
    expect(call).to.include({ callId: 'item_1', name: 'command_execution', executor: 'provider' });
    expect(JSON.parse(call?.args as string)).to.deep.equal({ command: 'bash -lc ls' });
    const [result] = ofType(events, 'tool/result');
    expect(result).to.include({ callId: 'item_1', executor: 'provider' });
    expect(result).to.not.have.property('isError');
    expect(result?.output).to.deep.include({ exit_code: 0 });
    expect(
      (result?.output as { aggregated_output?: string } | undefined)?.aggregated_output,
    ).to.match(/^2025-09-11\nAGENTS.md/);
    const [message] = ofType(events, 'assistant/message');
    expect(message?.blocks.map((b) => b.type)).to.deep.equal([
      'reasoning',
      'tool-use',
      'reasoning',
      'text',
    ]);
    expect(message?.blocks[3]).to.deep.equal({
      type: 'text',
      text: 'Yep — there’s a `README.md` in the repository root.',
    });
    expect(message?.stopReason).to.equal('end');
    // The call is recorded when it starts (it runs), answered when it completes.
    expect(events.filter(isDurableEvent).map((e) => e.type)).to.deep.equal([
      'tool/call',
      'tool/result',
      'assistant/message',
    ]);
    expect(node(events, 'item_1')).to.include({ stage: 'result', executor: 'provider' });
    expectHistoryEqualsLive(events);
  });

  it('a recorded file_change reported only when completed is called and answered together', async () => {
    const events = await fold(await recording('agentcmd/codex-0.46-file-creation.jsonl'));
    const [call] = ofType(events, 'tool/call');
    expect(call?.name).to.equal('file_change');
    expect(JSON.parse(call?.args as string)).to.deep.equal({
      changes: [{ path: '/private/tmp/codex-research-test/hello.txt', kind: 'add' }],
    });
    expect(ofType(events, 'tool/result')[0]?.output).to.deep.equal({
      changes: [{ path: '/private/tmp/codex-research-test/hello.txt', kind: 'add' }],
    });
    expectHistoryEqualsLive(events);
  });

  it('reads the same run as lines, bytes cut anywhere, and SDK event objects', async () => {
    const text = await recording('agentcmd/codex-0.46-file-listing.jsonl');
    const lines = await fold(text);
    expect(ofType(lines, 'tool/call').map((c) => c.callId)).to.deep.equal(['item_1']);
    for (const seed of [1, 2])
      expect(await fold(byteStream(bytePieces(text, seed, 48)))).to.deep.equal(lines);
    const objects = text
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as unknown);
    expect(await fold(asyncIterable(objects))).to.deep.equal(lines);
    expect(await fold(asyncIterable(text.split('\n')))).to.deep.equal(lines);
  });
});

describe('fromCodex: every call item', () => {
  it('names, arguments, results and errors of each item type', async () => {
    const events = await fold(await recording('built-from-types/codex-sdk-call-items.jsonl'));
    const calls = ofType(events, 'tool/call').map((c) => [
      c.callId,
      c.name,
      JSON.parse(c.args as string),
    ]);
    expect(calls).to.deep.equal([
      [
        'item_0',
        'todo_list',
        {
          items: [
            { text: 'Read the issue', completed: false },
            { text: 'Patch the parser', completed: false },
          ],
        },
      ],
      ['item_2', 'web_search', { query: 'codex exec json schema' }],
      ['item_3', 'search_docs', { query: 'ThreadItem' }],
      ['item_4', 'get_issue', { number: 26 }],
      ['item_5', 'file_change', { changes: [{ path: 'src/parser.ts', kind: 'update' }] }],
      ['item_6', 'command_execution', { command: 'npm test' }],
    ]);
    const results = new Map(ofType(events, 'tool/result').map((r) => [r.callId, r]));
    expect(results.get('item_3')?.output).to.deep.equal({
      content: [{ type: 'text', text: 'ThreadItem is a union' }],
      structured_content: null,
    });
    expect(results.get('item_3')).to.not.have.property('isError');
    expect(results.get('item_4')).to.deep.include({
      output: { error: { message: 'rate limited' } },
      isError: true,
    });
    expect(results.get('item_5')?.isError).to.equal(true);
    expect(results.get('item_6')).to.deep.include({
      output: { aggregated_output: '1 failing\n', exit_code: 1 },
      isError: true,
    });
    expect(results.get('item_0')?.output).to.deep.equal({
      items: [
        { text: 'Read the issue', completed: true },
        { text: 'Patch the parser', completed: false },
      ],
    });
    const failed = node(events, 'item_6');
    expect(failed.stage).to.equal('result');
    expect(failed.result?.isError).to.equal(true);
    expectHistoryEqualsLive(events);
  });

  it('a web_search started without its query stays preparing until it completes', async () => {
    const lines = (await recording('built-from-types/codex-sdk-call-items.jsonl')).split('\n');
    const upTo = lines.findIndex((l) => l.includes('"item.completed","item":{"id":"item_2"'));
    const head = lines.slice(0, upTo);
    const outcome = await collect(fromCodex(asyncIterable(head), { session: fixedSession() }));
    const search = ofType(outcome.events, 'stream/tool-call-delta').find(
      (d) => d.callId === 'item_2',
    );
    expect(search).to.include({ name: 'web_search', executor: 'provider' });
    expect(ofType(outcome.events, 'tool/call').map((c) => c.callId)).to.deep.equal(['item_0']);
  });

  it('an agent message streams as its text grows, and ends with the full text', async () => {
    const events = await fold(await recording('built-from-types/codex-sdk-call-items.jsonl'));
    const texts = ofType(events, 'stream/text-delta')
      .filter((d) => !d.reasoning)
      .map((d) => d.text);
    expect(texts).to.deep.equal(['The patch', ' did not apply', '; the test still fails.']);
    const ends = ofType(events, 'stream/block-end').filter((e) => e.callId === undefined);
    expect(ends.at(-1)?.text).to.equal('The patch did not apply; the test still fails.');
  });
});

describe('fromCodex: turns', () => {
  const line = (value: object) => `${JSON.stringify(value)}\n`;
  const command = (phase: string, id: string, extra: object = {}) =>
    line({
      type: phase,
      item: { id, type: 'command_execution', command: 'ls', status: 'in_progress', ...extra },
    });

  it('turn.failed settles the turn and fails with a ProviderStreamError; the running call stays', async () => {
    const text =
      line({ type: 'turn.started' }) +
      command('item.started', 'item_0') +
      line({ type: 'turn.failed', error: { message: 'usage limit reached' } });
    const outcome = await collect(fromCodex(text, { session: fixedSession() }));
    expect(outcome.error).to.be.instanceOf(ProviderStreamError);
    expect((outcome.error as ProviderStreamError).message).to.equal('usage limit reached');
    expect(outcome.events.map((e) => e.type)).to.deep.equal([
      'stream/tool-call-delta',
      'stream/block-end',
      'tool/call',
      'stream/settle',
    ]);
  });

  it('a transient error line (a reconnect notice) does not end the turn', async () => {
    const text =
      line({ type: 'turn.started' }) +
      command('item.started', 'item_0') +
      line({
        type: 'error',
        message: 'Reconnecting... 1/5 (stream disconnected before completion)',
      }) +
      command('item.completed', 'item_0', {
        status: 'completed',
        exit_code: 0,
        aggregated_output: 'a',
      }) +
      line({ type: 'turn.completed', usage: {} });
    const events = await fold(text);
    expect(ofType(events, 'tool/result').map((r) => r.callId)).to.deep.equal(['item_0']);
    expect(ofType(events, 'assistant/message')).to.have.length(1);
  });

  it('turns in a row are attempts in a row; item ids reused by the next turn get fresh call ids', async () => {
    const turn =
      line({ type: 'turn.started' }) +
      command('item.started', 'item_0') +
      command('item.completed', 'item_0', {
        status: 'completed',
        exit_code: 0,
        aggregated_output: 'a',
      }) +
      line({ type: 'turn.completed', usage: {} });
    const events = await fold(turn + turn);
    const calls = ofType(events, 'tool/call');
    expect(calls.map((c) => [c.callId, c.providerCallId])).to.deep.equal([
      ['item_0', undefined],
      ['a2:0', 'item_0'],
    ]);
    expect(ofType(events, 'tool/result').map((r) => r.callId)).to.deep.equal(['item_0', 'a2:0']);
    expect(ofType(events, 'assistant/message').map((m) => m.attemptId)).to.deep.equal(['a1', 'a2']);
    expectHistoryEqualsLive(events);
  });
});
