/**
 * The real-world call shapes through each adapter, from chunk objects (the recorded streams
 * in recordings.test.ts cover what the recordings hold; these cover the rest): object
 * arguments, chat calls cut by `length`, OpenAI hosted tools, `response.incomplete`, and the
 * AI SDK's v6 chunks (approval, denial, text input, provider-executed calls).
 */
import { expect } from 'chai';
import { Assembler } from '../../src/conversation/assembler.js';
import type { ToolNode } from '../../src/definitions/tool-definition.js';
import { type CallfoldEvent, isDurableEvent } from '../../src/events/types.js';
import { fromAISDKUIStream } from '../../src/providers/ai-sdk-ui-stream.js';
import { fromOpenAIChatCompletions } from '../../src/providers/openai-chat-completions.js';
import { fromOpenAIResponses } from '../../src/providers/openai-responses.js';
import { describe, it } from '../harness.js';
import { fixedSession } from './support/cases.js';
import { added, completed, done, whole } from './support/responses-chunks.js';
import { ofType, run } from './support/run.js';

function nodes(events: readonly CallfoldEvent[]): Map<string, ToolNode> {
  const assembler = new Assembler({ now: () => 0 });
  assembler.push(events);
  return new Map(assembler.publish().tools);
}

const chat = (delta: object, finish_reason: string | null = null) => ({
  id: 'chatcmpl-1',
  choices: [{ index: 0, delta, finish_reason }],
});

describe('OpenAI Chat Completions: object arguments and cut calls', () => {
  // Failed before: "{}".
  it('dispatches `function.arguments` sent as an object with that object', async () => {
    const args = { city: 'Paris', days: [1, 2], nested: { unit: 'C' } };
    const { events } = await run(fromOpenAIChatCompletions, [
      chat({
        tool_calls: [
          {
            index: 0,
            id: 'call_1',
            type: 'function',
            function: { name: 'weather', arguments: args },
          },
        ],
      }),
      chat({}, 'tool_calls'),
    ]);
    const [call] = ofType(events, 'tool/call');
    expect(call?.args).to.deep.equal(args);
    expect(ofType(events, 'stream/tool-call-delta')[0]?.args).to.equal(JSON.stringify(args));
    const node = nodes(events).get('call_1') as ToolNode;
    expect(node.args.value('days')).to.deep.equal([1, 2]);
    expect(node.args.text('city')).to.equal('Paris');
  });

  it('finish_reason "length" marks the open call incomplete, with stopReason, and does not dispatch it', async () => {
    const { events } = await run(fromOpenAIChatCompletions, [
      chat({
        tool_calls: [
          { index: 0, id: 'call_1', function: { name: 'Write', arguments: '{"file_path":"a"}' } },
        ],
      }),
      chat({
        tool_calls: [
          {
            index: 1,
            id: 'call_2',
            function: { name: 'Write', arguments: '{"file_path":"b","content":"x' },
          },
        ],
      }),
      chat({}, 'length'),
    ]);
    const [message] = ofType(events, 'assistant/message');
    expect(message?.stopReason).to.equal('length');
    expect(
      message?.blocks.map((b) => b.type === 'tool-use' && b.incomplete === true),
    ).to.deep.equal([false, true]);
    expect(ofType(events, 'tool/call').map((c) => c.callId)).to.deep.equal(['call_1']);
    expect(nodes(events).get('call_2')).to.include({
      stage: 'preparing',
      incomplete: true,
      stopReason: 'length',
    });
  });

  it('finish_reason "stop" and "tool_calls" become "end" and "tool-calls"', async () => {
    const stop = await run(fromOpenAIChatCompletions, [chat({ content: 'Hi' }, 'stop')]);
    expect(ofType(stop.events, 'assistant/message')[0]?.stopReason).to.equal('end');
    const tools = await run(fromOpenAIChatCompletions, [
      chat(
        { tool_calls: [{ index: 0, id: 'c', function: { name: 'Read', arguments: '{}' } }] },
        'tool_calls',
      ),
    ]);
    expect(ofType(tools.events, 'assistant/message')[0]?.stopReason).to.equal('tool-calls');
  });
});

describe('OpenAI Responses: hosted tools and response.incomplete', () => {
  // Failed before: args carried the sources.
  it('a web_search_call is a provider call from output_item.added, recorded with its result at done; its sources are the result, not the arguments', async () => {
    const action = {
      type: 'search',
      query: 'lit 3 release',
      sources: [{ type: 'url', url: 'https://lit.dev' }],
    };
    const { events } = await run(fromOpenAIResponses, [
      added(0, { id: 'ws_1', type: 'web_search_call', status: 'in_progress' }),
      { type: 'response.web_search_call.searching', output_index: 0, item_id: 'ws_1' },
      done(0, { id: 'ws_1', type: 'web_search_call', status: 'completed', action }),
      completed,
    ]);
    const [delta] = ofType(events, 'stream/tool-call-delta');
    expect(delta).to.include({ callId: 'ws_1', name: 'web_search', executor: 'provider' });
    expect(ofType(events, 'tool/call')[0]).to.deep.include({
      callId: 'ws_1',
      args: { type: 'search', query: 'lit 3 release' },
      executor: 'provider',
    });
    expect(ofType(events, 'tool/result')[0]).to.deep.include({
      callId: 'ws_1',
      output: action.sources,
      executor: 'provider',
    });
    expect(ofType(events, 'assistant/message')[0]?.stopReason).to.equal('end');
    const node = nodes(events).get('ws_1') as ToolNode;
    expect(node).to.include({ stage: 'result', executor: 'provider' });
    expect(node.args.text('query')).to.equal('lit 3 release');
  });

  it('a code_interpreter_call streams its code as the "code" field', async () => {
    const { events } = await run(fromOpenAIResponses, [
      added(0, {
        id: 'ci_1',
        type: 'code_interpreter_call',
        status: 'in_progress',
        container_id: 'cntr',
      }),
      {
        type: 'response.code_interpreter_call_code.delta',
        output_index: 0,
        item_id: 'ci_1',
        delta: 'print("a',
      },
      {
        type: 'response.code_interpreter_call_code.delta',
        output_index: 0,
        item_id: 'ci_1',
        delta: '")\n',
      },
      done(0, {
        id: 'ci_1',
        type: 'code_interpreter_call',
        status: 'completed',
        code: 'print("a")\n',
        container_id: 'cntr',
        outputs: [{ type: 'logs', logs: 'a' }],
      }),
      completed,
    ]);
    const live = new Assembler({ now: () => 0 });
    live.push(events.slice(0, 3));
    expect(live.publish().tools.get('ci_1')?.args.text('code')).to.equal('print("a")\n');
    expect(ofType(events, 'tool/result')[0]?.output).to.deep.equal([{ type: 'logs', logs: 'a' }]);
    expect(ofType(events, 'tool/call')[0]?.name).to.equal('code_interpreter');
  });

  it('an mcp_call is named after the MCP tool, its arguments streamed; an error is an error result', async () => {
    const { events } = await run(fromOpenAIResponses, [
      added(0, {
        id: 'mcp_1',
        type: 'mcp_call',
        name: 'create_issue',
        server_label: 'gh',
        arguments: '',
      }),
      {
        type: 'response.mcp_call_arguments.delta',
        output_index: 0,
        item_id: 'mcp_1',
        delta: '{"title":',
      },
      {
        type: 'response.mcp_call_arguments.delta',
        output_index: 0,
        item_id: 'mcp_1',
        delta: '"Bug"}',
      },
      done(0, {
        id: 'mcp_1',
        type: 'mcp_call',
        name: 'create_issue',
        arguments: '{"title":"Bug"}',
        error: 'denied by server',
      }),
      completed,
    ]);
    expect(ofType(events, 'tool/call')[0]).to.deep.include({
      name: 'create_issue',
      args: '{"title":"Bug"}',
      executor: 'provider',
    });
    expect(ofType(events, 'tool/result')[0]).to.deep.include({
      output: 'denied by server',
      isError: true,
    });
  });

  it('client calls of the same response are unaffected and still dispatched by the adapter', async () => {
    const { events } = await run(fromOpenAIResponses, [
      added(0, { id: 'ws_1', type: 'web_search_call', status: 'in_progress' }),
      done(0, {
        id: 'ws_1',
        type: 'web_search_call',
        status: 'completed',
        action: { type: 'search', query: 'q' },
      }),
      added(1, {
        id: 'fc_1',
        type: 'function_call',
        call_id: 'call_1',
        name: 'Read',
        arguments: '',
      }),
      {
        type: 'response.function_call_arguments.done',
        output_index: 1,
        arguments: '{"file_path":"a"}',
      },
      completed,
    ]);
    expect(ofType(events, 'tool/call').map((c) => [c.callId, c.executor])).to.deep.equal([
      ['ws_1', 'provider'],
      ['call_1', undefined],
    ]);
    expect(ofType(events, 'assistant/message')[0]?.stopReason).to.equal('tool-calls');
  });

  it('response.incomplete (max_output_tokens) marks the open custom call incomplete; history shows the same node', async () => {
    const { events } = await run(fromOpenAIResponses, [
      added(0, {
        id: 'ct_1',
        type: 'custom_tool_call',
        call_id: 'call_p',
        name: 'apply_patch',
        input: '',
      }),
      {
        type: 'response.custom_tool_call_input.delta',
        output_index: 0,
        item_id: 'ct_1',
        delta: '*** Begin Patch\n*** Update File: src/a.ts\n',
      },
      {
        type: 'response.incomplete',
        response: {
          id: 'resp_1',
          status: 'incomplete',
          incomplete_details: { reason: 'max_output_tokens' },
        },
      },
    ]);
    const [message] = ofType(events, 'assistant/message');
    expect(message?.stopReason).to.equal('length');
    expect(message?.blocks[0]).to.include({ callId: 'call_p', input: 'text', incomplete: true });
    expect(ofType(events, 'tool/call')).to.deep.equal([]);
    const live = nodes(events).get('call_p') as ToolNode;
    const history = nodes(events.filter(isDurableEvent)).get('call_p') as ToolNode;
    for (const node of [live, history]) {
      expect(node).to.include({ stage: 'preparing', incomplete: true, input: 'text' });
      expect(node.args.text('input')).to.equal('*** Begin Patch\n*** Update File: src/a.ts\n');
    }
  });
});

describe('OpenAI Responses: built-in tools the host runs', () => {
  // Failed before: no node, nothing dispatched.
  it('an apply_patch_call is a client call from output_item.added, dispatched with its operation', async () => {
    const operation = {
      type: 'update_file',
      path: 'src/greet.ts',
      diff: '@@\n-export const hi = 1;\n+export const hi = 2;\n',
    };
    const item = { id: 'apc_1', type: 'apply_patch_call', call_id: 'call_p', operation };
    const { events } = await run(fromOpenAIResponses, [...whole(0, item), completed]);
    const [delta] = ofType(events, 'stream/tool-call-delta');
    expect(delta).to.include({ callId: 'call_p', name: 'apply_patch' });
    expect(delta?.executor).to.equal(undefined);
    expect(ofType(events, 'tool/call')[0]).to.deep.include({
      callId: 'call_p',
      name: 'apply_patch',
      args: operation,
    });
    expect(ofType(events, 'tool/call')).to.have.length(1);
    expect(ofType(events, 'assistant/message')[0]?.stopReason).to.equal('tool-calls');
    const node = nodes(events).get('call_p') as ToolNode;
    expect(node).to.include({ stage: 'start', name: 'apply_patch' });
    expect(node.args.text('path')).to.equal('src/greet.ts');
  });

  // Failed before: ignored.
  it('shell_call, local_shell_call and computer_call are client calls named shell, local_shell and computer, with their actions', async () => {
    const shell = {
      commands: ['ls -la', 'cat README.md'],
      timeout_ms: 10_000,
      max_output_length: null,
    };
    const local = { type: 'exec', command: ['bash', '-lc', 'npm test'], env: {}, timeout_ms: null };
    const click = { type: 'click', button: 'left', x: 10, y: 20 };
    const { events } = await run(fromOpenAIResponses, [
      ...whole(0, { id: 'sh_1', type: 'shell_call', call_id: 'call_s', action: shell }),
      // No output_item.added: the call is still shown and dispatched from its done item.
      done(1, {
        id: 'ls_1',
        type: 'local_shell_call',
        call_id: 'call_l',
        status: 'completed',
        action: local,
      }),
      ...whole(2, {
        id: 'cu_1',
        type: 'computer_call',
        call_id: 'call_c',
        action: click,
        pending_safety_checks: [],
      }),
      completed,
    ]);
    expect(
      ofType(events, 'tool/call').map((call) => [call.callId, call.name, call.args, call.executor]),
    ).to.deep.equal([
      ['call_s', 'shell', shell, undefined],
      ['call_l', 'local_shell', local, undefined],
      ['call_c', 'computer', click, undefined],
    ]);
    const tools = nodes(events);
    expect(tools.get('call_l')?.args.value('command')).to.deep.equal(local.command);
  });

  it('a response cut inside a built-in client call leaves it incomplete and not dispatched', async () => {
    const { events } = await run(fromOpenAIResponses, [
      added(0, { id: 'apc_1', type: 'apply_patch_call', call_id: 'call_p', status: 'in_progress' }),
      {
        type: 'response.incomplete',
        response: {
          id: 'resp_1',
          status: 'incomplete',
          incomplete_details: { reason: 'max_output_tokens' },
        },
      },
    ]);
    expect(ofType(events, 'tool/call')).to.deep.equal([]);
    expect(ofType(events, 'assistant/message')[0]?.stopReason).to.equal('length');
    const node = nodes(events).get('call_p') as ToolNode;
    expect(node).to.include({ stage: 'preparing', incomplete: true });
  });
});

const start = (toolCallId: string, toolName: string, extra: object = {}) => ({
  type: 'tool-input-start',
  toolCallId,
  toolName,
  ...extra,
});
const available = (toolCallId: string, toolName: string, input: unknown, extra: object = {}) => ({
  type: 'tool-input-available',
  toolCallId,
  toolName,
  input,
  ...extra,
});

/**
 * A stream that asks approval for call c1 (Bash `ls`), then `next` in a later stream of the
 * same session: the events of both.
 */
async function afterApprovalRequest(next: readonly unknown[]): Promise<CallfoldEvent[]> {
  const session = fixedSession();
  const first = await run(
    fromAISDKUIStream,
    [
      start('c1', 'Bash'),
      available('c1', 'Bash', { command: 'ls' }),
      { type: 'tool-approval-request', approvalId: 'ap_1', toolCallId: 'c1' },
      { type: 'finish' },
    ],
    { session },
  );
  const second = await run(fromAISDKUIStream, next, { session });
  return [...first.events, ...second.events];
}

describe('AI SDK UI stream (v6): approvals, text input, provider-executed calls', () => {
  it('tool-approval-request becomes a durable request after the step’s tool/call; the node waits at start', async () => {
    const { events } = await run(fromAISDKUIStream, [
      { type: 'start', messageId: 'm1' },
      { type: 'start-step' },
      start('c1', 'Bash'),
      { type: 'tool-input-delta', toolCallId: 'c1', inputTextDelta: '{"command":"rm -rf dist"}' },
      available('c1', 'Bash', { command: 'rm -rf dist' }),
      { type: 'tool-approval-request', approvalId: 'ap_1', toolCallId: 'c1' },
      { type: 'finish-step' },
      { type: 'finish', finishReason: 'tool-calls' },
    ]);
    const durable = events.filter(isDurableEvent).map((e) => e.type);
    expect(durable).to.deep.equal(['assistant/message', 'tool/call', 'tool/approval-request']);
    expect(ofType(events, 'tool/approval-request')[0]).to.deep.include({
      callId: 'c1',
      approvalId: 'ap_1',
    });
    expect(nodes(events).get('c1')).to.deep.include({
      stage: 'start',
      approval: { state: 'requested' },
    });
  });

  it('a denial in the next stream records tool/approval approved: false and no result', async () => {
    const events = await afterApprovalRequest([
      { type: 'start' },
      { type: 'start-step' },
      { type: 'tool-output-denied', toolCallId: 'c1' },
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'OK, I will not.' },
      { type: 'text-end', id: 't' },
      { type: 'finish-step' },
      { type: 'finish' },
    ]);
    expect(ofType(events, 'tool/approval')).to.deep.equal([
      { type: 'tool/approval', callId: 'c1', approved: false, seq: 4, at: 0 },
    ]);
    expect(ofType(events, 'tool/result')).to.deep.equal([]);
    expect(nodes(events).get('c1')).to.deep.include({
      stage: 'start',
      approval: { state: 'denied' },
    });
  });

  it('an output after an unanswered request implies the approval, recorded before the result', async () => {
    const events = await afterApprovalRequest([
      { type: 'start' },
      { type: 'tool-output-available', toolCallId: 'c1', output: 'a b' },
      { type: 'finish' },
    ]);
    expect(events.filter(isDurableEvent).map((e) => e.type)).to.deep.equal([
      'assistant/message',
      'tool/call',
      'tool/approval-request',
      'tool/approval',
      'tool/result',
    ]);
    expect(nodes(events).get('c1')).to.deep.include({
      stage: 'result',
      approval: { state: 'approved' },
    });
  });

  it('inputEncoding "text" streams a free-form call', async () => {
    const { events } = await run(fromAISDKUIStream, [
      start('c1', 'apply_patch', { inputEncoding: 'text' }),
      { type: 'tool-input-delta', toolCallId: 'c1', inputTextDelta: '*** Begin Patch\n' },
      { type: 'tool-input-delta', toolCallId: 'c1', inputTextDelta: '*** Add File: b.ts\n' },
      available('c1', 'apply_patch', '*** Begin Patch\n*** Add File: b.ts\n'),
      { type: 'finish' },
    ]);
    expect(ofType(events, 'tool/call')[0]).to.deep.include({
      args: '*** Begin Patch\n*** Add File: b.ts\n',
      input: 'text',
    });
    expect(nodes(events).get('c1')?.args.text('input')).to.equal(
      '*** Begin Patch\n*** Add File: b.ts\n',
    );
  });

  it('providerExecuted calls are recorded when their input is available, with the provider’s result', async () => {
    const { events } = await run(fromAISDKUIStream, [
      { type: 'start-step' },
      start('ws1', 'web_search', { providerExecuted: true }),
      available('ws1', 'web_search', { query: 'rxjs 7' }, { providerExecuted: true }),
      {
        type: 'tool-output-available',
        toolCallId: 'ws1',
        output: [{ url: 'https://rxjs.dev' }],
        providerExecuted: true,
      },
      { type: 'finish-step' },
      { type: 'finish', finishReason: 'stop' },
    ]);
    expect(events.filter(isDurableEvent).map((e) => e.type)).to.deep.equal([
      'tool/call',
      'tool/result',
      'assistant/message',
    ]);
    expect(ofType(events, 'tool/call')[0]).to.deep.include({
      args: '{"query":"rxjs 7"}',
      executor: 'provider',
    });
    expect(ofType(events, 'tool/result')[0]).to.deep.include({ executor: 'provider' });
    expect(ofType(events, 'assistant/message')[0]?.stopReason).to.equal('end');
  });

  it('a toolCallId reused in a later stream of the session gets a fresh callId, and its output finds it', async () => {
    const session = fixedSession();
    const chunks = [
      start('call_0', 'Read'),
      available('call_0', 'Read', { file_path: 'a' }),
      { type: 'tool-output-available', toolCallId: 'call_0', output: 'A' },
      { type: 'finish' },
    ];
    const first = await run(fromAISDKUIStream, chunks, { session });
    const second = await run(fromAISDKUIStream, chunks, { session });
    const calls = ofType([...first.events, ...second.events], 'tool/call');
    expect(calls.map((c) => [c.callId, c.providerCallId])).to.deep.equal([
      ['call_0', undefined],
      ['a2:0', 'call_0'],
    ]);
    expect(ofType(second.events, 'tool/result').map((r) => r.callId)).to.deep.equal(['a2:0']);
    const folded = nodes([...first.events, ...second.events]);
    expect([...folded.values()].map((n) => n.stage)).to.deep.equal(['result', 'result']);
  });
});
