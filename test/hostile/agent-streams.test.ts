/**
 * Hostile agent streams (`claude -p --output-format stream-json`, `codex exec --json`, a
 * transcript from disk): what a corrupted file, a foreign process on the pipe, or a stream
 * cut anywhere can hand fromClaudeCode and fromCodex. Nothing is thrown, lines are bounded,
 * malformed lines go to `onMalformed`, and the good call beside the bad input is dispatched.
 */
import { expect } from 'chai';
import type { CallfoldEvent } from '../../src/events/types.js';
import { fromClaudeCode } from '../../src/providers/claude-code.js';
import { fromCodex } from '../../src/providers/codex.js';
import type { ProviderStreamError } from '../../src/providers/provider-stream-error.js';
import { describe, it } from '../harness.js';
import { fixedSession } from '../providers/support/cases.js';
import { byteStream, collect } from '../providers/support/fixtures.js';
import { checkInvariants } from '../providers/support/invariants.js';
import { ofType } from '../providers/support/run.js';

const line = (value: unknown) => `${typeof value === 'string' ? value : JSON.stringify(value)}\n`;
const assistant = (id: string, content: unknown[], stop: string | null = null) =>
  line({
    type: 'assistant',
    message: { id, content, stop_reason: stop },
    parent_tool_use_id: null,
  });
const goodCall = assistant('msg_ok', [
  { type: 'tool_use', id: 'toolu_ok', name: 'Read', input: { file_path: 'a.ts' } },
]);
const answer = (id: string, content: unknown) =>
  line({
    type: 'user',
    message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content }] },
  });
const done = line({ type: 'result', subtype: 'success', is_error: false });

const command = (id: string) => [
  line({
    type: 'item.started',
    item: { id, type: 'command_execution', command: 'ls', status: 'in_progress' },
  }),
  line({
    type: 'item.completed',
    item: {
      id,
      type: 'command_execution',
      command: 'ls',
      aggregated_output: 'ok',
      exit_code: 0,
      status: 'completed',
    },
  }),
];
const turnEnd = line({ type: 'turn.completed', usage: {} });

/** `{"a":{"a":…1…}}` nested `depth` levels. */
const deepText = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

async function run(
  adapter: typeof fromClaudeCode | typeof fromCodex,
  source: unknown,
  maxLineLength?: number,
): Promise<{ events: CallfoldEvent[]; malformed: ProviderStreamError[] }> {
  const malformed: ProviderStreamError[] = [];
  const outcome = await collect(
    adapter(source as string, {
      session: fixedSession(),
      onMalformed: (error) => void malformed.push(error),
      ...(maxLineLength === undefined ? {} : { maxLineLength }),
    }),
  );
  expect(outcome.error).to.equal(undefined);
  checkInvariants(outcome.events);
  return { events: outcome.events, malformed };
}

const callIds = (events: readonly CallfoldEvent[]) =>
  ofType(events, 'tool/call').map((c) => c.callId);

describe('hostile agent streams: lines', () => {
  it('skips a line past maxLineLength, given whole or as bytes in pieces, and reads on', async () => {
    const huge = assistant('msg_big', [{ type: 'text', text: 'x'.repeat(200_000) }]);
    const text = huge + goodCall + done;
    const whole = await run(fromClaudeCode, text, 10_000);
    expect(whole.malformed.map((e) => e.message)).to.deep.equal([
      'line longer than 10000 characters (maxLineLength)',
    ]);
    expect(callIds(whole.events)).to.deep.equal(['toolu_ok']);
    const bytes = new TextEncoder().encode(text);
    const pieces: Uint8Array[] = [];
    for (let at = 0; at < bytes.length; at += 997) pieces.push(bytes.subarray(at, at + 997));
    const streamed = await run(fromClaudeCode, byteStream(pieces), 10_000);
    expect(streamed.malformed).to.have.length(1);
    expect(streamed.events).to.deep.equal(whole.events);
  });

  it('reports lines that are not JSON, and JSON that is not an object, and goes on', async () => {
    const text =
      line('{"type":"assistant",') +
      line('Warning: proxy configured') +
      line('[1,2,3]') +
      line('42') +
      line('"a string"') +
      goodCall +
      done;
    const { events, malformed } = await run(fromClaudeCode, text);
    expect(malformed.map((e) => e.message)).to.deep.equal([
      'line is not JSON',
      'line is not JSON',
      'chunk is not an object',
      'chunk is not an object',
      'chunk is not an object',
    ]);
    expect(callIds(events)).to.deep.equal(['toolu_ok']);
    const codex = await run(fromCodex, `not json\n${command('item_0').join('')}${turnEnd}`);
    expect(codex.malformed.map((e) => e.message)).to.deep.equal(['line is not JSON']);
    expect(callIds(codex.events)).to.deep.equal(['item_0']);
  });

  it('reads CRLF lines and a byte-order mark; a last line cut by the end is a cut stream, not malformed', async () => {
    const text = `\uFEFF${goodCall.replace('\n', '\r\n')}${done.replace('\n', '\r\n')}`;
    const { events, malformed } = await run(fromClaudeCode, [new TextEncoder().encode(text)]);
    expect(malformed).to.deep.equal([]);
    expect(callIds(events)).to.deep.equal(['toolu_ok']);
    const cut = await run(
      fromClaudeCode,
      byteStream([new TextEncoder().encode(goodCall.slice(0, -20))]),
    );
    expect(cut.malformed).to.deep.equal([]);
    expect(cut.events.map((e) => e.type)).to.deep.equal([]);
    const cutCall = await run(
      fromClaudeCode,
      byteStream([new TextEncoder().encode(goodCall + done.slice(0, 10))]),
    );
    expect(cutCall.malformed).to.deep.equal([]);
    // The response never ended: its call withdraws (settle alone).
    expect(cutCall.events.map((e) => e.type).at(-1)).to.equal('stream/settle');
    expect(callIds(cutCall.events)).to.deep.equal([]);
  });
});

describe('hostile agent streams: contents', () => {
  it('keys named __proto__ pollute nothing and travel as data', async () => {
    const proto = '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}';
    const text =
      `{"type":"assistant","__proto__":{"polluted":true},"message":{"id":"msg_p","content":[{"type":"tool_use","id":"toolu_p","name":"Probe","input":${proto},"a":1}}]}}\n` +
      `{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"toolu_p","content":${proto}}}]}}\n` +
      goodCall +
      done;
    const { events } = await run(fromClaudeCode, text);
    expect(({} as { polluted?: unknown }).polluted).to.equal(undefined);
    expect(callIds(events)).to.deep.equal(['toolu_p', 'toolu_ok']);
    const args = ofType(events, 'tool/call')[0]?.args as string;
    expect(Object.hasOwn(JSON.parse(args) as object, '__proto__')).to.equal(true);
    const codexText =
      `{"type":"item.started","item":{"id":"item_0","type":"mcp_tool_call","server":"s","tool":"t","arguments":${proto}}}}\n` +
      `{"type":"item.completed","item":{"id":"item_0","type":"mcp_tool_call","server":"s","tool":"t","arguments":{},"result":${proto}}},"status":"completed"}}\n` +
      turnEnd;
    const codex = await run(fromCodex, codexText);
    expect(({} as { polluted?: unknown }).polluted).to.equal(undefined);
    expect(callIds(codex.events)).to.deep.equal(['item_0']);
  });

  it('arguments and results nested 10,000 deep are dispatched and answered beside a good call', async () => {
    const deep = deepText(10_000);
    const text =
      `{"type":"assistant","message":{"id":"msg_d","content":[{"type":"tool_use","id":"toolu_deep","name":"Probe","input":${deep}}]}}\n` +
      answer('toolu_deep', 'x').replace('"x"', deep) +
      goodCall +
      answer('toolu_ok', 'fine') +
      done;
    const { events, malformed } = await run(fromClaudeCode, text);
    expect(malformed).to.deep.equal([]);
    expect(callIds(events)).to.deep.equal(['toolu_deep', 'toolu_ok']);
    expect(ofType(events, 'tool/result').map((r) => r.callId)).to.deep.equal([
      'toolu_deep',
      'toolu_ok',
    ]);
    const codexText =
      `{"type":"item.started","item":{"id":"item_d","type":"mcp_tool_call","server":"s","tool":"t","arguments":${deep}}}\n` +
      command('item_0').join('') +
      turnEnd;
    const codex = await run(fromCodex, codexText);
    expect(callIds(codex.events)).to.deep.equal(['item_d', 'item_0']);
  });

  it('fields of the wrong type are skipped, not thrown', async () => {
    const text =
      line({ type: 'assistant', message: { id: 7, content: 'not blocks' } }) +
      line({
        type: 'assistant',
        message: {
          id: 'msg_x',
          content: [null, 3, { type: 'tool_use', id: 5, name: null, input: [] }],
        },
      }) +
      line({ type: 'user', message: { content: [{ type: 'tool_result', tool_use_id: 9 }] } }) +
      line({ type: 'stream_event', event: 'nope' }) +
      line({ type: 'stream_event', event: { type: 'content_block_delta', index: 0 } }) +
      goodCall +
      done;
    const { events } = await run(fromClaudeCode, text);
    expect(callIds(events)).to.deep.equal(['toolu_ok']);
    const codexText =
      line({ type: 'item.started', item: 'nope' }) +
      line({ type: 'item.started', item: { id: 1, type: 'web_search', query: 5 } }) +
      line({ type: 'item.completed', item: { type: 'file_change', changes: 'x' } }) +
      command('item_0').join('') +
      turnEnd;
    const codex = await run(fromCodex, codexText);
    // The search without a query never completed: the turn's end closes it with `{}`.
    expect(ofType(codex.events, 'tool/call').map((c) => [c.name, c.args])).to.deep.equal([
      ['file_change', '{"changes":[]}'],
      ['command_execution', '{"command":"ls"}'],
      ['web_search', '{}'],
    ]);
  });
});
