import { isDurableEvent } from '../events/types.js';
import type { AdapterRun } from './adapter-run.js';
import { Attempt, type Ending } from './attempt.js';
import { field, isRecord, list, text } from './read-chunk.js';
import { isCut, stopReasonOf } from './stop-reason.js';

/** The whole-message attempt being folded, and where its blocks stand. */
interface OpenMessage {
  readonly attempt: Attempt;
  readonly messageId: string | undefined;
  /** The message came from a session transcript: only its durable records are emitted. */
  readonly history: boolean;
  /** Blocks folded so far: the key of the next one. */
  blocks: number;
}

/**
 * Folds Claude Code's whole messages, as `claude -p --output-format stream-json` prints them
 * without `--include-partial-messages` (and the Agent SDK yields them), and as a session
 * transcript `.jsonl` stores them:
 *
 * 1. An `assistant` message is part of one model response, keyed by `message.id`: Claude Code
 *    writes one message per completed content block, so consecutive messages with the same
 *    id are one attempt, their blocks in order (`text`, `thinking`, `tool_use`, and the
 *    server tools' `server_tool_use`/`mcp_tool_use` and `*_tool_result` blocks, as
 *    `fromAnthropicMessages` reads them). A `tool_use`'s arguments are its `input` as JSON text.
 * 2. The response ends (`finish`) at a message with a `stop_reason`, or when the caller sees
 *    the next line of another kind or another id: its `assistant/message`, then a `tool/call`
 *    per call (Claude Code runs them), then `stream/settle`.
 * 3. `tool_result` blocks of a `user` message are durable `tool/result`s (`output`: the
 *    block's `content` as given, `isError` from `is_error`), keyed through the session.
 * 4. A transcript's message (`history`) makes the same durable records and no stream event.
 */
export class ClaudeCodeMessages {
  readonly #run: AdapterRun;
  #open: OpenMessage | undefined;

  constructor(run: AdapterRun) {
    this.#run = run;
  }

  /** The attempt of the whole message being folded, if any. */
  get attempt(): Attempt | undefined {
    return this.#open?.attempt;
  }

  /** Whether the open message is a transcript's (history). */
  get history(): boolean {
    return this.#open?.history === true;
  }

  /** Folds an `assistant` message's blocks; `aborted`: Claude Code cut it (an interrupt). */
  assistant(message: Record<string, unknown>, history: boolean, aborted: boolean): void {
    const messageId = text(message.id);
    const open = this.#open;
    if (open && (open.messageId !== messageId || open.history !== history)) this.finish();
    const current = this.#open ?? this.#start(messageId, history);
    for (const block of list(message.content)) {
      if (isRecord(block)) this.#block(current.attempt, `${current.blocks++}`, block);
    }
    if (aborted) {
      current.attempt.abort();
      this.#open = undefined;
      return;
    }
    const stopReason = stopReasonOf(message.stop_reason);
    if (stopReason !== undefined) this.finish({ stopReason, truncated: isCut(stopReason) });
  }

  /** The response of the open message ended: its durable records, then its settle. */
  finish(ending: Ending = {}): void {
    const open = this.#open;
    this.#open = undefined;
    open?.attempt.finish(ending);
  }

  /** The `tool/result`s of a `user` message's `tool_result` blocks. */
  results(message: Record<string, unknown>): void {
    const session = this.#run.session;
    for (const block of list(message.content)) {
      if (!isRecord(block) || block.type !== 'tool_result') continue;
      const id = text(block.tool_use_id);
      if (id === undefined) continue;
      const callId = session.callIdOf(id) ?? id;
      const output = block.content === undefined ? '' : block.content;
      this.#run.emit(session.result(callId, output, block.is_error === true ? true : undefined));
    }
  }

  #start(messageId: string | undefined, history: boolean): OpenMessage {
    const run = this.#run;
    // A transcript is history: its attempt writes only its durable records (no deltas to
    // withdraw, so no settle either), as a history page would hold them.
    const attempt = history
      ? new Attempt(run.session.nextAttemptId(), run.session, 'adapter', {
          next: (event) => {
            if (isDurableEvent(event)) run.emit(event);
          },
          continuation: () => {},
          joinedEnd: () => {},
        })
      : run.attempt();
    if (messageId !== undefined) attempt.messageId = messageId;
    const open: OpenMessage = { attempt, messageId, history, blocks: 0 };
    this.#open = open;
    return open;
  }

  #block(attempt: Attempt, key: string, block: Record<string, unknown>): void {
    const kind = block.type;
    if (kind === 'text' || kind === 'thinking') {
      const reasoning = kind === 'thinking';
      attempt.open(key, reasoning ? 'reasoning' : 'text');
      attempt.text(key, reasoning ? block.thinking : block.text, reasoning);
      attempt.end(key);
    } else if (kind === 'tool_use' || kind === 'server_tool_use' || kind === 'mcp_tool_use') {
      attempt.tool(
        key,
        kind === 'tool_use'
          ? { id: block.id, name: block.name }
          : { id: block.id, name: block.name, executor: 'provider' },
      );
      const input = isRecord(block.input)
        ? this.#run.json(block.input, 'tool_use input')
        : undefined;
      attempt.end(key, input);
    } else if (typeof kind === 'string' && kind.endsWith('_tool_result')) {
      const id = text(block.tool_use_id);
      if (id !== undefined) attempt.providerResult(id, block.content, isErrorResult(block));
    }
  }
}

/** A server tool's result block reports an error: `is_error`, or content of an `*_error` type. */
function isErrorResult(block: Record<string, unknown>): boolean {
  if (block.is_error === true) return true;
  const type = field(block, 'content')?.type;
  return typeof type === 'string' && type.endsWith('_error');
}
