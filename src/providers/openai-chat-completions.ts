import type { Observable } from 'rxjs';
import type { CallfoldEvent } from '../events/types.js';
import { type AdapterOptions, type AdapterRun, adapt } from './adapter-run.js';
import { DONE, type ProviderSource } from './provider-source.js';
import { errorMessage, ProviderStreamError } from './provider-stream-error.js';
import { isRecord } from './read-chunk.js';
import { isCut, stopReasonOf } from './stop-reason.js';

const provider = 'openai-chat-completions';

/**
 * Translates an OpenAI Chat Completions stream (`stream: true`) into CallfoldEvents: the
 * `ChatCompletionChunk`s openai-node yields, or the raw SSE (`data: {chunk}` … `data: [DONE]`).
 *
 * - Only choice 0 is read. `delta.content` (and `delta.refusal`) is one text block;
 *   `delta.reasoning_content` / `delta.reasoning` (DeepSeek, vLLM, OpenRouter) one reasoning
 *   block; each `delta.tool_calls[i]` is a tool block keyed by its `index`. Blocks are
 *   numbered in order of first appearance.
 * - Tool calls: `id` and `function.name` normally come in the first chunk of an index and
 *   only `function.arguments` after it. Tolerated: a name (or id) in a later chunk,
 *   arguments before the name (held until it arrives), no id at all (the callId becomes
 *   `${attemptId}:${block}`), empty argument strings, interleaved indexes, a missing
 *   `index` (the position in `tool_calls`), and a new id at an index already in use (some
 *   servers number every parallel call 0): it opens a new call. `function.arguments` sent
 *   as an object (some OpenAI-compatible servers) is shown as its JSON text and dispatched
 *   as that object.
 * - Free-form (custom) tools: `type: 'custom'` with `custom: { name, input }` deltas stream as
 *   `input: 'text'` calls (the fragments are raw text, not JSON).
 * - The response ends normally at the first `finish_reason` (or at `[DONE]`), which becomes
 *   the message's `stopReason`. Every block ends then (Chat Completions sends no per-block
 *   end) with its joined fragments. With `finish_reason` `length` or `content_filter` the
 *   response is truncated: its last block, if a call, is marked `incomplete` and not
 *   dispatched.
 * - A chunk with an `error` member fails the stream (`ProviderStreamError`).
 *
 * Cut streams, errors and `dispatch` are as for every adapter: see `AdapterOptions`.
 *
 * @example
 * ```ts
 * const stream = await openai.chat.completions.create({ model, messages, tools, stream: true });
 * fromOpenAIChatCompletions(stream, { session }).pipe(assemble()).subscribe(render);
 * ```
 */
export function fromOpenAIChatCompletions(
  source: ProviderSource,
  options: AdapterOptions = {},
): Observable<CallfoldEvent> {
  return adapt(provider, source, options, chatCompletionsFolder);
}

function chatCompletionsFolder(run: AdapterRun): (chunk: unknown) => void {
  /** The current block key of each tool index, and the id it was opened with. */
  const slots = new Map<number, { key: string; id: string | undefined }>();
  let opened = 0;

  const slotOf = (index: number, id: unknown): string => {
    const slot = slots.get(index);
    const fresh = typeof id === 'string' && id !== '' ? id : undefined;
    if (slot && (fresh === undefined || slot.id === undefined || slot.id === fresh)) {
      slot.id ??= fresh;
      return slot.key;
    }
    const key = `tool:${opened++}`;
    slots.set(index, { key, id: fresh });
    return key;
  };

  // One chunk per delta: a 512 KiB write is ~38,000 of them, each `{ choices: [{ delta:
  // { tool_calls: [{ index, function: { arguments } }] } }] }`. Fields are read once each
  // and straight off the chunk (no helper taking the field's name, no array made for a
  // missing list), and a chunk without `finish_reason` stops before the stop-reason lookup:
  // the same checks as any chunk, at ~5 ms less per 512 KiB write (docs/decisions/0011).
  return (chunk) => {
    if (chunk === DONE) {
      run.finish();
      return;
    }
    if (!isRecord(chunk)) return;
    const error = chunk.error;
    if (error !== undefined && error !== null) {
      throw new ProviderStreamError(provider, errorMessage(error, 'stream error'), {
        payload: chunk,
      });
    }
    const attempt = run.attempt();
    if (attempt.messageId === undefined) {
      const id = chunk.id;
      if (typeof id === 'string' && id !== '') attempt.messageId = id;
    }
    const choice = firstChoice(chunk.choices);
    if (choice === undefined) return;
    const delta = choice.delta;
    if (isRecord(delta)) {
      const reasoningContent = delta.reasoning_content;
      const reasoning = typeof reasoningContent === 'string' ? reasoningContent : delta.reasoning;
      // An empty string opens no block: first chunks often carry `content: ''` before any
      // reasoning, which would otherwise put an empty text block first.
      if (typeof reasoning === 'string' && reasoning !== '') {
        attempt.text('reasoning', reasoning, true);
      }
      const content = delta.content;
      if (typeof content === 'string' && content !== '') attempt.text('text', content);
      const refusal = delta.refusal;
      if (typeof refusal === 'string') attempt.text('text', refusal);
      const calls = delta.tool_calls;
      if (Array.isArray(calls)) {
        for (let position = 0, count = calls.length; position < count; position++) {
          const call: unknown = calls[position];
          if (!isRecord(call)) continue;
          const given = call.index;
          const index = typeof given === 'number' ? given : position;
          const custom = call.custom;
          if (isRecord(custom) || call.type === 'custom') {
            const input = isRecord(custom) ? custom : undefined;
            attempt.tool(slotOf(index, call.id), {
              id: call.id,
              name: input?.name,
              args: input?.input,
              input: 'text',
            });
            continue;
          }
          const fnValue = call.function;
          const fn = isRecord(fnValue) ? fnValue : undefined;
          if (call.id === undefined && fn?.name === undefined) {
            // Most chunks of a call: an argument fragment alone (the hot path).
            attempt.args(slotOf(index, undefined), fn?.arguments);
          } else {
            attempt.tool(slotOf(index, call.id), {
              id: call.id,
              name: fn?.name,
              args: fn?.arguments,
            });
          }
        }
      }
    }
    const finish = choice.finish_reason;
    if (finish === undefined || finish === null) return;
    const stopReason = stopReasonOf(finish);
    if (stopReason !== undefined) run.finish({ stopReason, truncated: isCut(stopReason) });
  };
}

/** Choice 0 of a chunk (a choice without `index` counts as 0), if it is an object. */
function firstChoice(choices: unknown): Record<string, unknown> | undefined {
  if (!Array.isArray(choices)) return undefined;
  for (let i = 0, count = choices.length; i < count; i++) {
    const choice: unknown = choices[i];
    if (isRecord(choice) && (choice.index ?? 0) === 0) return choice;
  }
  return undefined;
}
