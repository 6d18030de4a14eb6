import type { Observable } from 'rxjs';
import type { CallfoldEvent } from '../events/types.js';
import { type AdapterOptions, type AdapterRun, adapt } from './adapter-run.js';
import { anthropicFolder } from './anthropic-messages.js';
import { ClaudeCodeMessages } from './claude-code-messages.js';
import { JsonLineDecoder } from './json-lines.js';
import { DONE, type ProviderSource } from './provider-source.js';
import { field, isRecord, list, text } from './read-chunk.js';

const provider = 'claude-code';

/** How many streamed message ids are remembered, to skip their whole-message copies. */
const STREAMED_IDS = 256;

export interface ClaudeCodeOptions extends AdapterOptions {
  /**
   * Which agent's timeline to fold. Default: the main agent's; every line of a sub-agent
   * (a non-null `parent_tool_use_id`, or a transcript line with `isSidechain: true`) is
   * skipped. A `tool_use` id (the `Task`/`Agent` call that started a sub-agent): only the
   * lines whose `parent_tool_use_id` is that id. `'sidechain'`: only transcript lines with
   * `isSidechain: true` and no `parent_tool_use_id` (a sub-agent's own `agent-*.jsonl`).
   */
  readonly thread?: string;
  /**
   * Read every message as history (durable events only), as transcript lines are read: for
   * messages from a transcript that no longer carry `parentUuid`, such as the Agent SDK's
   * `getSessionMessages()`. Default: only transcript lines are history.
   */
  readonly history?: boolean;
  /** The longest line read, in UTF-16 code units; longer ones go to `onMalformed`. 16 Mi. */
  readonly maxLineLength?: number;
}

/**
 * Translates a Claude Code session into CallfoldEvents (docs/decisions/0013): the lines of
 * `claude -p --output-format stream-json --verbose` (with or without
 * `--include-partial-messages`), the `SDKMessage`s of the Claude Agent SDK's `query()`, or a
 * session transcript (`~/.claude/projects/…/<session>.jsonl`) as history.
 *
 * The source is an (async) iterable of message objects (the SDK's `query()`), of lines
 * (strings: each one or more whole lines), or newline-delimited JSON bytes (a `Response`, a
 * `ReadableStream`, the CLI's stdout); see `JsonLineDecoder`.
 *
 * 1. A session is many model responses: each is one attempt. With partial messages, a
 *    response streams as the `stream_event` lines' raw Messages events, folded exactly as
 *    `fromAnthropicMessages` folds them (`message_stop` ends the attempt, not the run); the
 *    whole `assistant` messages Claude Code prints for a streamed message are then skipped.
 * 2. Without them, the `assistant` messages of one `message.id` are one attempt, a block
 *    each (see `ClaudeCodeMessages`); the response ends at a `stop_reason`, or at the next
 *    `user`, `tool_progress` or `result` line or an `assistant` line of another id: then its
 *    `assistant/message`, its `tool/call`s (Claude Code runs them) and `stream/settle`.
 *    Until then its calls are preparing, with closed arguments.
 * 3. `tool_result` blocks of `user` lines are durable `tool/result`s. Replayed user lines
 *    (`isReplay`) are skipped.
 * 4. Transcript lines (they carry `parentUuid`/`isSidechain`) are history: the same durable
 *    records, in file order, and no stream event; the last message ends with the lines
 *    (`history: true` reads every message so, e.g. the SDK's `getSessionMessages()`).
 *    Branches of the transcript's `parentUuid` tree are not told apart. `summary`,
 *    `system`, snapshot and queue lines are skipped.
 * 5. Sub-agents are kept apart: one fold is one agent's timeline (`thread`); the other
 *    agents' lines are skipped, so a sub-agent running while the main agent waits for its
 *    `Task` call never opens or interleaves with a main attempt. A sub-agent's first line
 *    ends the response whose call started it; a sub-agent's last response ends when the
 *    `tool_result` of its `Task` call (or a `result`) arrives.
 * 6. A `result` line ends the turn: a response still streaming (no `message_stop`) settles
 *    without records, a whole message ends normally; the run goes on (a next turn may
 *    follow). An `assistant` message with `aborted: true` settles without records.
 * 7. Cut streams, errors (an `error` stream event fails the Observable), malformed lines,
 *    `dispatch` (for live responses; history records its calls) and unsubscribing (the SDK's
 *    `query()` then ends its `claude` process) are as for every adapter: see
 *    `AdapterOptions`; `system`, `tool_progress`, `stream_event` pings and unknown lines
 *    are otherwise ignored.
 *
 * @example
 * ```ts
 * import { query } from '@anthropic-ai/claude-agent-sdk';
 * const options = { includePartialMessages: true };
 * const messages = query({ prompt: 'Fix the failing test', options });
 * fromClaudeCode(messages, { session }).pipe(assemble()).subscribe(render);
 * ```
 */
export function fromClaudeCode(
  source: ProviderSource,
  options: ClaudeCodeOptions = {},
): Observable<CallfoldEvent> {
  return adapt(
    provider,
    source,
    options,
    (run) => claudeCodeFolder(run, options.thread, options.history === true),
    JsonLineDecoder.factory(options.maxLineLength),
  );
}

function claudeCodeFolder(
  run: AdapterRun,
  thread: string | undefined,
  allHistory: boolean,
): (chunk: unknown) => void {
  const messages = new ClaudeCodeMessages(run);
  /** The Messages folder of the response streaming now, from its `message_start` on. */
  let partial: ((event: unknown) => void) | undefined;
  const streamed = new Set<string>();

  /** A response streaming without its `message_stop` was cut: it settles without records. */
  const cutStream = () => {
    partial = undefined;
    const live = run.live;
    if (live && live !== messages.attempt) live.abort();
  };

  return (chunk) => {
    // The end of the lines: a transcript's last message is whole (a live one was cut, and
    // the run settles it without records).
    if (chunk === DONE) {
      if (messages.history) messages.finish();
      return;
    }
    if (!isRecord(chunk)) return;
    const lineThread = threadOf(chunk);
    if (lineThread !== thread) {
      // A sub-agent's last response ends when its Task call is answered, or the turn ends.
      if (thread !== undefined && (chunk.type === 'result' || answers(chunk, thread))) {
        messages.finish();
        cutStream();
      }
      // A sub-agent started by a call of the open response runs: that response has ended.
      if (lineThread !== undefined && messages.attempt?.callIdOf(lineThread) !== undefined) {
        messages.finish();
      }
      return;
    }
    const history =
      allHistory || Object.hasOwn(chunk, 'parentUuid') || Object.hasOwn(chunk, 'isSidechain');
    switch (chunk.type) {
      case 'stream_event': {
        const event = field(chunk, 'event');
        if (!event) return;
        if (event.type === 'message_start') {
          messages.finish();
          cutStream();
          const id = text(field(event, 'message')?.id);
          if (id !== undefined) remember(streamed, id);
          partial = anthropicFolder(
            run,
            (ending) => {
              run.finishAttempt(ending);
              partial = undefined;
            },
            provider,
          );
        }
        partial?.(event);
        break;
      }
      case 'assistant': {
        const message = field(chunk, 'message');
        if (!message) return;
        const id = text(message.id);
        if (id !== undefined && streamed.has(id)) return;
        cutStream();
        messages.assistant(message, history, chunk.aborted === true);
        break;
      }
      case 'user': {
        if (chunk.isReplay === true) return;
        messages.finish();
        cutStream();
        const message = field(chunk, 'message');
        if (message) messages.results(message);
        break;
      }
      case 'tool_progress':
        messages.finish();
        break;
      case 'result':
        messages.finish();
        cutStream();
        break;
      default:
        break;
    }
  };
}

/** The agent a line belongs to: undefined for the main one (see `ClaudeCodeOptions.thread`). */
function threadOf(chunk: Record<string, unknown>): string | undefined {
  const parent = text(chunk.parent_tool_use_id);
  if (parent !== undefined) return parent;
  return chunk.isSidechain === true ? 'sidechain' : undefined;
}

/** Whether `chunk` is a `user` line with the `tool_result` of call `callId`. */
function answers(chunk: Record<string, unknown>, callId: string): boolean {
  if (chunk.type !== 'user') return false;
  for (const block of list(field(chunk, 'message')?.content)) {
    if (isRecord(block) && block.type === 'tool_result' && block.tool_use_id === callId)
      return true;
  }
  return false;
}

/** Adds `id`, forgetting the oldest beyond `STREAMED_IDS` (a session may stream thousands). */
function remember(ids: Set<string>, id: string): void {
  ids.add(id);
  if (ids.size > STREAMED_IDS) {
    for (const oldest of ids) {
      ids.delete(oldest);
      break;
    }
  }
}
