import type { Observable } from 'rxjs';
import type { CallfoldEvent } from '../events/types.js';
import { type AdapterOptions, type AdapterRun, adapt } from './adapter-run.js';
import type { Attempt } from './attempt.js';
import type { ProviderSource } from './provider-source.js';
import { errorMessage, ProviderStreamError } from './provider-stream-error.js';
import { field, isRecord, list } from './read-chunk.js';
import { stopReasonOf } from './stop-reason.js';

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
 * - Free-form (custom) tools: a `custom_tool_call` item streams its `input` through
 *   `response.custom_tool_call_input.delta` / `.done` as an `input: 'text'` call.
 * - Hosted tools run by OpenAI become calls with `executor: 'provider'`, shown from
 *   `output_item.added` and recorded (`tool/call`, then `tool/result` with the provider's
 *   output) at `output_item.done`: `web_search_call` (name `web_search`, arguments its
 *   `action` without `sources`; output the `sources`, else its status), `file_search_call` (`file_search`, `queries`; output its `results`),
 *   `code_interpreter_call` (`code_interpreter`, its `code` streamed from
 *   `response.code_interpreter_call_code.delta`; output its `outputs`),
 *   `image_generation_call` (`image_generation`; output its `result`), `mcp_call` (the MCP
 *   tool's own name, its `arguments` streamed; output its `output`, an error when `error` is
 *   set) and `tool_search_call` run by the server (`tool_search`; its result is the next
 *   `tool_search_output` item's `tools`). A `tool_search_call` with `execution: 'client'` is
 *   a client call named `tool_search`, dispatched with its `arguments` object.
 * - Built-in tools the host runs arrive whole in their output item (no argument deltas) and
 *   are client calls answered by their `call_id`, dispatched with an object: `apply_patch_call`
 *   (name `apply_patch`, arguments its `operation`: `type`, `path`, `diff`), `shell_call`
 *   (`shell`, its `action`: `commands`, `timeout_ms`, `max_output_length`), `local_shell_call`
 *   (`local_shell`, its `action`: `command` argv, `env`, `working_directory`, …) and
 *   `computer_call` (`computer`, its `action`, e.g. `{ type: 'click', x, y }`). The row shows
 *   from `output_item.added`.
 * - `response.output_text.delta` / `.done` (and `response.refusal.*`) are text blocks, one
 *   per output item and content part; `response.reasoning_summary_text.*` and
 *   `response.reasoning_text.*` are reasoning blocks. Blocks are keyed by `output_index`.
 * - `response.completed` ends the response normally; `response.incomplete` ends it
 *   truncated, with `incomplete_details.reason` as the message's `stopReason`
 *   (`max_output_tokens` → `length`): its last block, if a call, is marked `incomplete` and
 *   not dispatched. `response.failed` and `error` fail the stream (`ProviderStreamError`).
 *   Other events are ignored.
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
  /** The block key of the last server `tool_search_call`, which the next `tool_search_output` answers. */
  let toolSearch: string | undefined;
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
        } else if (item?.type === 'custom_tool_call') {
          attempt.tool(`${output}`, {
            id: item.call_id,
            name: item.name,
            args: item.input,
            input: 'text',
          });
        } else if (item && !clientAdded(attempt, `${output}`, item)) {
          hostedAdded(attempt, `${output}`, item);
        }
        break;
      }
      case 'response.custom_tool_call_input.delta':
      case 'response.mcp_call_arguments.delta':
        attempt.tool(`${output}`, { args: chunk.delta });
        break;
      case 'response.custom_tool_call_input.done':
        attempt.end(`${output}`, chunk.input);
        break;
      case 'response.mcp_call_arguments.done':
        attempt.end(`${output}`, chunk.arguments);
        break;
      case 'response.code_interpreter_call_code.delta':
        if (typeof chunk.delta === 'string') {
          // The code streams as the `code` field of the call's arguments.
          const opening = (attempt.argsText(`${output}`) ?? '') === '' ? '{"code":"' : '';
          attempt.tool(`${output}`, { args: opening + JSON.stringify(chunk.delta).slice(1, -1) });
        }
        break;
      case 'response.function_call_arguments.delta':
        attempt.tool(`${output}`, { args: chunk.delta });
        break;
      case 'response.function_call_arguments.done':
        attempt.tool(`${output}`, { name: chunk.name });
        attempt.end(`${output}`, chunk.arguments);
        break;
      case 'response.output_item.done': {
        const item = field(chunk, 'item');
        const key = `${output}`;
        if (item?.type === 'function_call') {
          if (!attempt.named(key)) attempt.tool(key, { id: item.call_id, name: item.name });
          attempt.end(key, item.arguments);
        } else if (item?.type === 'custom_tool_call') {
          if (!attempt.named(key)) {
            attempt.tool(key, { id: item.call_id, name: item.name, input: 'text' });
          }
          attempt.end(key, item.input);
        } else if (item?.type === 'message' || item?.type === 'reasoning') {
          for (const [block, text] of blocksOf(output, item)) attempt.end(block, text);
        } else if (item?.type === 'tool_search_output' && toolSearch !== undefined) {
          if (item.execution !== 'client') attempt.providerResult(toolSearch, item.tools);
          toolSearch = undefined;
        } else if (item && !clientDone(attempt, key, item)) {
          if (hostedDone(attempt, key, item) && item.type === 'tool_search_call') {
            toolSearch = key;
          }
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
        const response = field(chunk, 'response');
        const id = response?.id;
        if (typeof id === 'string' && id !== '') attempt.messageId ??= id;
        if (type === 'response.completed') {
          run.finish();
        } else {
          const reason = field(response ?? {}, 'incomplete_details')?.reason;
          run.finish({ stopReason: stopReasonOf(reason) ?? 'incomplete', truncated: true });
        }
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

/** The provider-executed item types: the call's name, its arguments and its output. */
interface Hosted {
  readonly name: (item: Record<string, unknown>) => unknown;
  readonly args: (item: Record<string, unknown>) => unknown;
  /** The provider's output, and whether it is an error; undefined when the item has none (a later item answers). */
  readonly output: (
    item: Record<string, unknown>,
  ) => { value: unknown; isError: boolean } | undefined;
}

const fields =
  (...keys: string[]) =>
  (item: Record<string, unknown>) => {
    const args: Record<string, unknown> = {};
    for (const key of keys)
      if (item[key] !== undefined && item[key] !== null) args[key] = item[key];
    return args;
  };
const named = (name: string) => () => name;
const outputOf = (key: string) => (item: Record<string, unknown>) => ({
  value: item[key],
  isError: item.status === 'failed',
});

const hosted: Readonly<Record<string, Hosted>> = Object.assign(Object.create(null), {
  web_search_call: {
    name: named('web_search'),
    // The action without its `sources`: those are the search's output, not its input.
    args: (item) => {
      if (!isRecord(item.action)) return {};
      const { sources: _sources, ...action } = item.action;
      return action;
    },
    output: (item) => ({
      value:
        isRecord(item.action) && item.action.sources !== undefined
          ? item.action.sources
          : item.status,
      isError: item.status === 'failed',
    }),
  },
  file_search_call: {
    name: named('file_search'),
    args: fields('queries'),
    output: outputOf('results'),
  },
  code_interpreter_call: {
    name: named('code_interpreter'),
    args: fields('code', 'container_id'),
    output: outputOf('outputs'),
  },
  image_generation_call: {
    name: named('image_generation'),
    args: fields(),
    output: outputOf('result'),
  },
  mcp_call: {
    name: (item) => item.name,
    args: (item) => item.arguments,
    output: (item) => ({
      value: item.error !== undefined && item.error !== null ? item.error : item.output,
      isError: item.error !== undefined && item.error !== null,
    }),
  },
  tool_search_call: {
    name: named('tool_search'),
    args: (item) => item.arguments,
    output: () => undefined,
  },
} satisfies Record<string, Hosted>);

function isHosted(item: Record<string, unknown>): Hosted | undefined {
  return typeof item.type === 'string' ? hosted[item.type] : undefined;
}

/** A hosted item appeared: its row shows from now on (a client tool search is a client call). */
function hostedAdded(attempt: Attempt, key: string, item: Record<string, unknown>): void {
  const kind = isHosted(item);
  if (!kind) return;
  if (item.type === 'tool_search_call' && item.execution === 'client') {
    attempt.tool(key, { id: item.call_id, name: 'tool_search' });
    return;
  }
  attempt.tool(key, { id: item.id, name: kind.name(item), executor: 'provider' });
}

/** A hosted item is done: its call, then its result when the item carries it. Returns whether it was a provider call. */
function hostedDone(attempt: Attempt, key: string, item: Record<string, unknown>): boolean {
  const kind = isHosted(item);
  if (!kind) return false;
  if (!attempt.named(key)) hostedAdded(attempt, key, item);
  attempt.end(key, kind.args(item) ?? {});
  if (item.type === 'tool_search_call' && item.execution === 'client') return false;
  const output = kind.output(item);
  if (output) attempt.providerResult(key, output.value, output.isError);
  return true;
}

/** A built-in tool the host runs: its name, and its arguments from the item. */
interface ClientItem {
  readonly name: string;
  readonly args: (item: Record<string, unknown>) => unknown;
}

const objectField = (key: string) => (item: Record<string, unknown>) =>
  isRecord(item[key]) ? item[key] : {};

const clientItems: Readonly<Record<string, ClientItem>> = Object.assign(Object.create(null), {
  apply_patch_call: { name: 'apply_patch', args: objectField('operation') },
  shell_call: { name: 'shell', args: objectField('action') },
  local_shell_call: { name: 'local_shell', args: objectField('action') },
  computer_call: { name: 'computer', args: objectField('action') },
} satisfies Record<string, ClientItem>);

function clientItem(item: Record<string, unknown>): ClientItem | undefined {
  return typeof item.type === 'string' ? clientItems[item.type] : undefined;
}

/** A built-in client item appeared: its row shows from now on. Returns whether it was one. */
function clientAdded(attempt: Attempt, key: string, item: Record<string, unknown>): boolean {
  const kind = clientItem(item);
  if (!kind) return false;
  attempt.tool(key, { id: item.call_id ?? item.id, name: kind.name });
  return true;
}

/** A built-in client item is done: its arguments end the call, which is dispatched. */
function clientDone(attempt: Attempt, key: string, item: Record<string, unknown>): boolean {
  const kind = clientItem(item);
  if (!kind) return false;
  if (!attempt.named(key)) clientAdded(attempt, key, item);
  attempt.end(key, kind.args(item));
  return true;
}
