import { expect } from 'chai';
import { fromOpenAIResponses } from '../../src/providers/openai-responses.js';
import { ProviderStreamError } from '../../src/providers/provider-stream-error.js';
import { describe, it } from '../harness.js';
import { ofType, run, toolDeltas } from './support/run.js';

const created = { type: 'response.created', response: { id: 'resp_1', status: 'in_progress' } };
const fc = (output_index: number, call_id: string, name: string, args = '') => ({
  type: 'response.output_item.added',
  output_index,
  item: { id: `fc_${output_index}`, type: 'function_call', call_id, name, arguments: args },
});
const delta = (output_index: number, d: string) => ({
  type: 'response.function_call_arguments.delta',
  item_id: `fc_${output_index}`,
  output_index,
  delta: d,
});
const argsDone = (output_index: number, args: string) => ({
  type: 'response.function_call_arguments.done',
  item_id: `fc_${output_index}`,
  output_index,
  arguments: args,
});
const completed = { type: 'response.completed', response: { id: 'resp_1', status: 'completed' } };

describe('fromOpenAIResponses', () => {
  it('opens a call at output_item.added with its call_id and name, and ends it with the done arguments', async () => {
    const { events } = await run(fromOpenAIResponses, [
      created,
      fc(0, 'call_a', 'Read'),
      delta(0, '{"file_path":'),
      delta(0, '"a.ts"}'),
      argsDone(0, '{"file_path":"a.ts"}'),
      completed,
    ]);
    expect(toolDeltas(events)).to.deep.equal([
      'call_a Read ',
      'call_a {"file_path":',
      'call_a "a.ts"}',
    ]);
    expect(ofType(events, 'assistant/message')[0]?.messageId).to.equal('resp_1');
    expect(ofType(events, 'tool/call')[0]).to.deep.include({
      callId: 'call_a',
      args: '{"file_path":"a.ts"}',
    });
  });

  it('lets the done arguments win over deltas that disagree', async () => {
    const { events } = await run(fromOpenAIResponses, [
      fc(0, 'call_a', 'Read'),
      delta(0, '{"file_path":"a'),
      argsDone(0, '{"file_path":"b.ts"}'),
      completed,
    ]);
    expect(ofType(events, 'stream/block-end')[0]?.text).to.equal('{"file_path":"b.ts"}');
    expect(ofType(events, 'tool/call')[0]?.args).to.equal('{"file_path":"b.ts"}');
  });

  it('shows and dispatches a call seen only in output_item.done', async () => {
    const { events } = await run(fromOpenAIResponses, [
      {
        type: 'response.output_item.done',
        output_index: 0,
        item: {
          type: 'function_call',
          call_id: 'call_a',
          name: 'Bash',
          arguments: '{"command":"ls"}',
        },
      },
      completed,
    ]);
    expect(toolDeltas(events)).to.deep.equal(['call_a Bash ']);
    expect(ofType(events, 'tool/call')[0]).to.deep.include({
      name: 'Bash',
      args: '{"command":"ls"}',
    });
  });

  it('streams output text and reasoning summaries as blocks with the done texts', async () => {
    const { events } = await run(fromOpenAIResponses, [
      {
        type: 'response.reasoning_summary_text.delta',
        output_index: 0,
        summary_index: 0,
        delta: 'Plan.',
      },
      {
        type: 'response.reasoning_summary_text.done',
        output_index: 0,
        summary_index: 0,
        text: 'Plan.',
      },
      { type: 'response.output_text.delta', output_index: 1, content_index: 0, delta: 'Hel' },
      { type: 'response.output_text.delta', output_index: 1, content_index: 0, delta: 'lo' },
      { type: 'response.output_text.done', output_index: 1, content_index: 0, text: 'Hello' },
      completed,
    ]);
    expect(ofType(events, 'assistant/message')[0]?.blocks).to.deep.equal([
      { type: 'reasoning', text: 'Plan.' },
      { type: 'text', text: 'Hello' },
    ]);
  });

  it('ends truncated at response.incomplete: the open last call is not dispatched', async () => {
    const { events } = await run(fromOpenAIResponses, [
      fc(0, 'call_a', 'Read', ''),
      argsDone(0, '{}'),
      fc(1, 'call_b', 'Write'),
      delta(1, '{"content":"ab'),
      { type: 'response.incomplete', response: { id: 'resp_1', status: 'incomplete' } },
    ]);
    expect(ofType(events, 'tool/call').map((c) => c.callId)).to.deep.equal(['call_a']);
  });

  it('fails at response.failed with the response’s error message', async () => {
    const { events, error } = await run(fromOpenAIResponses, [
      fc(0, 'call_a', 'Read'),
      {
        type: 'response.failed',
        response: {
          id: 'resp_1',
          status: 'failed',
          error: { code: 'server_error', message: 'Boom' },
        },
      },
    ]);
    expect(error).to.be.instanceOf(ProviderStreamError);
    expect((error as Error).message).to.equal('Boom');
    expect(events.at(-1)?.type).to.equal('stream/settle');
  });
});
