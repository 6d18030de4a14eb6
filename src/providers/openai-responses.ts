import type { Observable } from 'rxjs';
import type { CallfoldEvent } from '../events/types.js';
import { type AdapterOptions, type AdapterRun, adapt } from './adapter-run.js';
import type { ProviderSource } from './provider-source.js';
import { errorMessage, ProviderStreamError } from './provider-stream-error.js';
import { field, isRecord, list } from './read-chunk.js';

const provider = 'openai-responses';

/**
 * Translates an OpenAI Responses stream (`stream: true`) into CallfoldEvents: the
 * `ResponseStreamEvent`s openai-node yields, or the raw SSE (`event: <type>` /
 * `data: {event}`).
 *
 * - `response.output_item.added` with a `function_call` item opens a tool block (name and
 *   `call_id`, the id the host answers with); `response.function_call_arguments.delta`
 *   streams its arguments; `response.function_call_arguments.done` (or, failing that,
 *   `response.output_item.done`) ends it with the full `arguments`, which win over the deltas.
 *   A call seen only in `output_item.done` is still shown and dispatched.
 * - `response.output_text.delta` / `.done` (and `response.refusal.*`) are text blocks, one
 *   per output item and content part; `response.reasoning_summary_text.*` and
 *   `response.reasoning_text.*` are reasoning blocks. Blocks are keyed by `output_index`.
 * - `response.completed` ends the response normally; `response.incomplete` ends it
 *   truncated (its last block, if a call, is not dispatched). `response.failed` and `error`
 *   fail the stream (`ProviderStreamError`). Other events are ignored.
 *
 * Cut streams, errors and `dispatch` are as for every adapter: see `AdapterOptions`.
 *
 * @example
 * ```ts
 * const stream = await openai.responses.create({ model, input, tools, stream: true });
 * fromOpenAIResponses(stream, { session }).pipe(assemble()).subscribe(render);
 * ```
 */
export function fromOpenAIResponses(
  source: ProviderSource,
  options: AdapterOptions = {},
): Observable<CallfoldEvent> {
  return adapt(provider, source, options, responsesFolder);
}

function responsesFolder(run: AdapterRun): (chunk: unknown) => void {
  return (chunk) => {
    if (!isRecord(chunk) || typeof chunk.type !== 'string') return;
    const type = chunk.type;
    if (type === 'error' || type === 'response.failed') {
      const payload = type === 'error' ? chunk : field(chunk, 'response')?.error;
      throw new ProviderStreamError(provider, errorMessage(payload, 'response failed'), {
        payload: chunk,
      });
    }
    const attempt = run.attempt();
    const output = chunk.output_index;
    switch (type) {
      case 'response.created':
      case 'response.in_progress': {
        const id = field(chunk, 'response')?.id;
        if (typeof id === 'string' && id !== '') attempt.messageId ??= id;
        break;
      }
      case 'response.output_item.added': {
        const item = field(chunk, 'item');
        if (item?.type === 'function_call') {
          attempt.tool(`${output}`, { id: item.call_id, name: item.name, args: item.arguments });
        }
        break;
      }
      case 'response.function_call_arguments.delta':
        attempt.tool(`${output}`, { args: chunk.delta });
        break;
      case 'response.function_call_arguments.done':
        attempt.tool(`${output}`, { name: chunk.name });
        attempt.end(`${output}`, chunk.arguments);
        break;
      case 'response.output_item.done': {
        const item = field(chunk, 'item');
        if (item?.type === 'function_call') {
          const key = `${output}`;
          if (!attempt.named(key)) attempt.tool(key, { id: item.call_id, name: item.name });
          attempt.end(key, item.arguments);
        } else if (item?.type === 'message' || item?.type === 'reasoning') {
          for (const [key, text] of blocksOf(output, item)) attempt.end(key, text);
        }
        break;
      }
      case 'response.output_text.delta':
      case 'response.refusal.delta':
        attempt.text(`${output}:c${chunk.content_index ?? 0}`, chunk.delta);
        break;
      case 'response.output_text.done':
        attempt.end(`${output}:c${chunk.content_index ?? 0}`, chunk.text);
        break;
      case 'response.refusal.done':
        attempt.end(`${output}:c${chunk.content_index ?? 0}`, chunk.refusal);
        break;
      case 'response.reasoning_summary_text.delta':
        attempt.text(`${output}:s${chunk.summary_index ?? 0}`, chunk.delta, true);
        break;
      case 'response.reasoning_summary_text.done':
        attempt.end(`${output}:s${chunk.summary_index ?? 0}`, chunk.text);
        break;
      case 'response.reasoning_text.delta':
        attempt.text(`${output}:r${chunk.content_index ?? 0}`, chunk.delta, true);
        break;
      case 'response.reasoning_text.done':
        attempt.end(`${output}:r${chunk.content_index ?? 0}`, chunk.text);
        break;
      case 'response.completed':
      case 'response.incomplete': {
        const id = field(chunk, 'response')?.id;
        if (typeof id === 'string' && id !== '') attempt.messageId ??= id;
        run.finish(type === 'response.incomplete');
        break;
      }
      default:
        break;
    }
  };
}

/** The block keys a finished message or reasoning item may have opened, with their full texts. */
function blocksOf(output: unknown, item: Record<string, unknown>): [string, unknown][] {
  const keys: [string, unknown][] = [];
  const reasoning = item.type === 'reasoning';
  list(item.content).forEach((part, i) => {
    const text = isRecord(part) ? (part.text ?? part.refusal) : undefined;
    keys.push([`${output}:${reasoning ? 'r' : 'c'}${i}`, text]);
  });
  list(item.summary).forEach((part, i) => {
    keys.push([`${output}:s${i}`, isRecord(part) ? part.text : undefined]);
  });
  return keys;
}
