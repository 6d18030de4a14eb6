import type { ScriptAttempt } from '../session-script.js';
import {
  cutCallOf,
  demoResponse,
  firstAt,
  providerResultOf,
  type ResponseConstants,
  sseMessage,
  stopReasonOf,
  type TimedChunk,
} from './timed-chunk.js';

type Item = Record<string, unknown> & { id: string; type: string };

/**
 * A recorded response as the OpenAI Responses API streams it: `event: <type>` with
 * `data: {type, sequence_number, …}`. Each block is an output item (`reasoning` with a
 * summary, `message` with output text, `function_call` with its `call_id`), added, streamed
 * (`…delta`), then done; `response.completed` ends it. Parallel calls keep their recorded
 * interleaving (events carry their `output_index`). A cut response stops before
 * `response.completed`.
 *
 * - A free-form call (`input: 'text'`) is a `custom_tool_call` item streaming
 *   `response.custom_tool_call_input.delta`, then `.done`.
 * - A provider-run call (`executor: 'provider'`) is a hosted `web_search_call` item (its id
 *   the callId): added with `in_progress` when it starts, `searching` when its query is
 *   complete, and done at its result's time with `action: { type: 'search', query, sources }`,
 *   the sources being the result's URLs. The Responses API streams no query text, and gives
 *   the call and its result in one item.
 * - A response its token limit cut ends with `response.incomplete`
 *   (`incomplete_details.reason: 'max_output_tokens'`); the call it cut never gets its
 *   `.done` events.
 */
export function encodeOpenAIResponses(
  attempt: ScriptAttempt,
  constants: ResponseConstants = demoResponse,
): TimedChunk[] {
  const out: TimedChunk[] = [];
  let sequence = 0;
  const send = (at: number, type: string, fields: Record<string, unknown>) =>
    out.push({ at, data: sseMessage({ type, sequence_number: sequence++, ...fields }, type) });
  const response = {
    id: attempt.messageId,
    object: 'response',
    created_at: constants.created,
    model: constants.model,
    parallel_tool_calls: true,
  };
  const start = firstAt(attempt);
  send(start, 'response.created', { response: { ...response, status: 'in_progress', output: [] } });
  send(start, 'response.in_progress', {
    response: { ...response, status: 'in_progress', output: [] },
  });
  const items = new Map<number, Item>();
  const done: Item[] = [];
  const itemId = (prefix: string, block: number) =>
    `${prefix}_${attempt.messageId.slice(-16)}${block.toString().padStart(2, '0')}`;
  const cut = cutCallOf(attempt);

  for (const { at, event } of attempt.stream) {
    const output_index = event.block;
    let item = items.get(output_index);
    if (!item && event.type !== 'stream/block-end') {
      const reasoning = event.type === 'stream/text-delta' && event.reasoning === true;
      item =
        event.type === 'stream/tool-call-delta'
          ? event.executor === 'provider'
            ? { id: event.callId, type: 'web_search_call', status: 'in_progress' }
            : event.input === 'text'
              ? {
                  id: itemId('ctc', output_index),
                  type: 'custom_tool_call',
                  status: 'in_progress',
                  call_id: event.callId,
                  name: event.name ?? '',
                  input: '',
                }
              : {
                  id: itemId('fc', output_index),
                  type: 'function_call',
                  status: 'in_progress',
                  arguments: '',
                  call_id: event.callId,
                  name: event.name ?? '',
                }
          : reasoning
            ? { id: itemId('rs', output_index), type: 'reasoning', summary: [] }
            : {
                id: itemId('msg', output_index),
                type: 'message',
                status: 'in_progress',
                role: 'assistant',
                content: [],
              };
      items.set(output_index, item);
      send(at, 'response.output_item.added', { output_index, item });
      if (item.type === 'web_search_call') {
        send(at, 'response.web_search_call.in_progress', { item_id: item.id, output_index });
      } else if (item.type === 'reasoning') {
        send(at, 'response.reasoning_summary_part.added', {
          item_id: item.id,
          output_index,
          summary_index: 0,
          part: { type: 'summary_text', text: '' },
        });
      } else if (item.type === 'message') {
        send(at, 'response.content_part.added', {
          item_id: item.id,
          output_index,
          content_index: 0,
          part: { type: 'output_text', annotations: [], text: '' },
        });
      }
    }
    if (!item) continue;
    const where = { item_id: item.id, output_index };
    switch (event.type) {
      case 'stream/text-delta':
        if (item.type === 'reasoning') {
          send(at, 'response.reasoning_summary_text.delta', {
            ...where,
            summary_index: 0,
            delta: event.text,
          });
        } else {
          send(at, 'response.output_text.delta', {
            ...where,
            content_index: 0,
            delta: event.text,
            logprobs: [],
          });
        }
        break;
      case 'stream/tool-call-delta':
        if (event.args === '' || item.type === 'web_search_call') break;
        send(
          at,
          item.type === 'custom_tool_call'
            ? 'response.custom_tool_call_input.delta'
            : 'response.function_call_arguments.delta',
          { ...where, delta: event.args },
        );
        break;
      case 'stream/block-end': {
        const text = event.text;
        let finished: Item;
        if (event.callId !== undefined && event.callId === cut) break;
        if (item.type === 'web_search_call') {
          send(at, 'response.web_search_call.searching', where);
          const result = providerResultOf(attempt, event.callId ?? '');
          const sources = Array.isArray(result?.event.output)
            ? result.event.output.map((source: { url?: unknown }) => ({
                type: 'url',
                url: source.url,
              }))
            : [];
          const action = { type: 'search', ...JSON.parse(text), sources };
          const doneAt = result?.at ?? at;
          send(doneAt, 'response.web_search_call.completed', where);
          finished = { ...item, status: 'completed', action };
          done.push(finished);
          send(doneAt, 'response.output_item.done', { output_index, item: finished });
          break;
        }
        if (item.type === 'custom_tool_call') {
          send(at, 'response.custom_tool_call_input.done', { ...where, input: text });
          finished = { ...item, status: 'completed', input: text };
        } else if (item.type === 'function_call') {
          send(at, 'response.function_call_arguments.done', { ...where, arguments: text });
          finished = { ...item, status: 'completed', arguments: text };
        } else if (item.type === 'reasoning') {
          const part = { type: 'summary_text', text };
          send(at, 'response.reasoning_summary_text.done', { ...where, summary_index: 0, text });
          send(at, 'response.reasoning_summary_part.done', { ...where, summary_index: 0, part });
          finished = { ...item, summary: [part] };
        } else {
          const part = { type: 'output_text', annotations: [], text };
          send(at, 'response.output_text.done', { ...where, content_index: 0, text, logprobs: [] });
          send(at, 'response.content_part.done', { ...where, content_index: 0, part });
          finished = { ...item, status: 'completed', content: [part] };
        }
        done.push(finished);
        send(at, 'response.output_item.done', { output_index, item: finished });
        break;
      }
      default:
        event satisfies never;
    }
  }
  if (attempt.finished && stopReasonOf(attempt) === 'length') {
    send(attempt.end, 'response.incomplete', {
      response: {
        ...response,
        status: 'incomplete',
        incomplete_details: { reason: 'max_output_tokens' },
        output: done,
      },
    });
  } else if (attempt.finished) {
    send(attempt.end, 'response.completed', {
      response: { ...response, status: 'completed', output: done },
    });
  }
  return out;
}
