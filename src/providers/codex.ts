import type { Observable } from 'rxjs';
import type { CallfoldEvent } from '../events/types.js';
import { type AdapterOptions, type AdapterRun, adapt } from './adapter-run.js';
import { callArgs, callName, callResult, isCallItem } from './codex-items.js';
import { JsonLineDecoder } from './json-lines.js';
import type { ProviderSource } from './provider-source.js';
import { errorMessage, ProviderStreamError } from './provider-stream-error.js';
import { field, text } from './read-chunk.js';

const provider = 'codex';

export interface CodexOptions extends AdapterOptions {
  /** The longest line read, in UTF-16 code units; longer ones go to `onMalformed`. 16 Mi. */
  readonly maxLineLength?: number;
}

/**
 * Translates a Codex session into CallfoldEvents (docs/decisions/0013): the lines of
 * `codex exec --json` (also `--experimental-json`), or the `ThreadEvent`s of
 * `@openai/codex-sdk` (`(await thread.runStreamed(input)).events`). The source is an (async)
 * iterable of event objects, of lines, or newline-delimited JSON bytes (see
 * `JsonLineDecoder`).
 *
 * 1. One turn (`turn.started` … `turn.completed`) is one attempt: Codex reports the turn's
 *    items, not its model responses. `turn.completed` ends it normally (its
 *    `assistant/message` holds the turn's text, reasoning and calls in order, then
 *    `stream/settle`); the run goes on, so several turns' lines may follow each other.
 * 2. `agent_message` and `reasoning` items are text and reasoning blocks: the text of
 *    `item.started`/`item.updated` streams as it grows, `item.completed` has the full text.
 * 3. `command_execution`, `file_change`, `mcp_tool_call`, `web_search` and `todo_list` items
 *    are calls the agent runs itself, so they are provider-executed (`executor: 'provider'`,
 *    as hosted tools are): the first event of an item shows it with its name and arguments
 *    (see `callArgs`), and its durable `tool/call` is recorded at once (stage `start`: it
 *    runs); `item.completed` records its `tool/result` (see `callResult`: `status: 'failed'`
 *    is an error). An item seen only at `item.completed` is called and answered together.
 *    A `web_search` that starts without its query is preparing until it completes.
 * 4. `turn.failed` fails the Observable with a `ProviderStreamError` after the attempt
 *    settles without records (the calls already recorded stay, as for server tools).
 *    A top-level `error` line is not: Codex prints its transient notices so
 *    (`Reconnecting... 2/5`) and the turn goes on; the SDK's own `run()` fails only on
 *    `turn.failed` too. If the process then dies, the stream is cut (or the SDK throws).
 * 5. `thread.started`, `turn.started`, `error` lines and items, and unknown lines are
 *    ignored; cut streams, malformed lines and unsubscribing are as for every adapter
 *    (`AdapterOptions`). Unsubscribing calls the SDK generator's `return()`, which it
 *    obeys only at its next event: to stop a silent `codex` process at once, pass a
 *    `signal` to `runStreamed`.
 *
 * @example
 * ```ts
 * import { Codex } from '@openai/codex-sdk';
 * const { events } = await new Codex().startThread().runStreamed('Fix the failing test');
 * fromCodex(events, { session }).pipe(assemble()).subscribe(render);
 * ```
 */
export function fromCodex(
  source: ProviderSource,
  options: CodexOptions = {},
): Observable<CallfoldEvent> {
  return adapt(
    provider,
    source,
    options,
    codexFolder,
    JsonLineDecoder.factory(options.maxLineLength),
  );
}

function codexFolder(run: AdapterRun): (chunk: unknown) => void {
  /** The text shown so far of each streaming agent_message/reasoning item of the turn. */
  const shown = new Map<string, string>();
  /** Keys for items without an id. */
  let anonymous = 0;
  return (chunk) => {
    const event = chunk as Record<string, unknown>;
    switch (event.type) {
      case 'item.started':
      case 'item.updated':
      case 'item.completed': {
        const item = field(event, 'item');
        if (!item) return;
        const key = text(item.id) ?? `#${anonymous++}`;
        const completed = event.type === 'item.completed';
        if (item.type === 'agent_message' || item.type === 'reasoning') {
          textItem(run, shown, key, item, completed);
        } else if (isCallItem(item.type)) {
          callItem(run, key, item, completed);
        }
        break;
      }
      case 'turn.completed':
        run.finishAttempt();
        shown.clear();
        break;
      case 'turn.failed':
        throw new ProviderStreamError(provider, errorMessage(event.error, 'turn failed'), {
          payload: event,
        });
      default:
        break;
    }
  };
}

function textItem(
  run: AdapterRun,
  shown: Map<string, string>,
  key: string,
  item: Record<string, unknown>,
  completed: boolean,
): void {
  const attempt = run.attempt();
  const reasoning = item.type === 'reasoning';
  attempt.open(key, reasoning ? 'reasoning' : 'text');
  const full = typeof item.text === 'string' ? item.text : undefined;
  const before = shown.get(key) ?? '';
  // A text that grew is streamed by its new end; one that changed otherwise waits for its
  // completion, whose full text is authoritative.
  if (full !== undefined && full.length > before.length && full.startsWith(before)) {
    attempt.text(key, full.slice(before.length), reasoning);
    shown.set(key, full);
  }
  if (completed) {
    attempt.end(key, full);
    shown.delete(key);
  }
}

function callItem(
  run: AdapterRun,
  key: string,
  item: Record<string, unknown>,
  completed: boolean,
): void {
  const attempt = run.attempt();
  if (!attempt.named(key)) {
    attempt.tool(key, { id: item.id, name: callName(item), executor: 'provider' });
  }
  const args = callArgs(item, completed);
  if (args !== undefined) attempt.end(key, run.json(args, `${item.type} arguments`));
  if (completed) {
    const { output, isError } = callResult(item);
    attempt.providerResult(key, output, isError);
  }
}
