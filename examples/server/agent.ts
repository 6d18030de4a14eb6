/**
 * The example's agent loop: for each turn, ask the model, stream its response through
 * `fromOpenAIChatCompletions` into the store with `recordAttempt` (followers see the calls
 * as they stream), run the calls it dispatched in the sandbox, record their results, and ask
 * again until a response calls no tool (or, cut by its token limit, could not). A response
 * cut mid-stream (no `assistant/message`) is retried; `recordAttempt` has already withdrawn its
 * preparing calls for every follower. A request that fails past its retries (a refused key, an
 * unreachable endpoint) fails the run, but its turn still ends (`turn/end`) for followers.
 */
import { tap } from 'rxjs';
import type { AssistantMessageEvent, ToolCallEvent } from '../../src/events/types.js';
import { fromOpenAIChatCompletions } from '../../src/providers/openai-chat-completions.js';
import { createSession, type UnnumberedEvent } from '../../src/providers/session.js';
import { recordAttempt } from '../../src/server/record-attempt.js';
import type { SessionStore } from '../../src/server/session-store.js';
import type { ChatMessage, Model } from './models.js';
import type { Sandbox } from './sandbox-tools.js';

const system =
  'You are a coding agent exploring a small project. Use read_file and list_files to answer.';
/** A turn asks the model at most this many times (a model that never stops calling tools). */
const maxResponses = 12;
/** A cut response is retried this many times. */
const maxRetries = 2;

export interface AgentRun {
  readonly store: SessionStore;
  readonly sessionId: string;
  readonly model: Model;
  readonly sandbox: Sandbox;
  readonly signal: AbortSignal;
}

/** Runs every turn of `model` into the session; resolves when the last turn ended. */
export async function runAgent({
  store,
  sessionId,
  model,
  sandbox,
  signal,
}: AgentRun): Promise<void> {
  const session = createSession();
  /** Host events go to the store directly; the store numbers them after the adapters' ones. */
  const append = (event: UnnumberedEvent) => store.append(sessionId, [event]);
  const messages: ChatMessage[] = [{ role: 'system', content: system }];
  for (const [turn, prompt] of model.prompts.entries()) {
    const turnId = `turn_${turn + 1}`;
    messages.push({ role: 'user', content: prompt });
    await append({ type: 'turn/start', turnId });
    try {
      await runTurn(turn);
    } finally {
      // Even a failed turn ends, so followers do not wait for it forever.
      await append({ type: 'turn/end', turnId });
    }
  }

  /** Asks the model until the turn is done; throws when a response failed past its retries. */
  async function runTurn(turn: number): Promise<void> {
    let retries = 0;
    for (let response = 0; response < maxResponses && !signal.aborted; response++) {
      const body = await model.respond(turn, messages, signal);
      if (body === undefined) break;
      let message: AssistantMessageEvent | undefined;
      const calls: ToolCallEvent[] = [];
      const events = fromOpenAIChatCompletions(body, { session }).pipe(
        tap((event) => {
          if (event.type === 'assistant/message') message = event;
          if (event.type === 'tool/call') calls.push(event);
        }),
      );
      try {
        await recordAttempt(store, sessionId, events);
      } catch (error) {
        // A failed request or a broken stream: its attempt is settled; retry or give up.
        if (++retries > maxRetries) throw error;
        continue;
      }
      if (!message) {
        if (++retries > maxRetries) break;
        continue; // cut: ask again
      }
      const text = message.blocks.flatMap((block) => (block.type === 'text' ? [block.text] : []));
      messages.push({
        role: 'assistant',
        content: text.join('') || null,
        ...(calls.length > 0 && {
          tool_calls: calls.map((call) => ({
            id: call.providerCallId ?? call.callId,
            type: 'function' as const,
            function: {
              name: call.name,
              arguments: typeof call.args === 'string' ? call.args : JSON.stringify(call.args),
            },
          })),
        }),
      });
      // A response its token limit cut dispatched nothing, but the turn is not over: ask again.
      if (calls.length === 0 && message.stopReason !== 'length') break;
      // Independent calls run together; each result is recorded as it comes.
      await Promise.all(
        calls.map(async (call) => {
          // A free-form call's input is text: the sandbox reads it as the `input` field.
          const args = call.input === 'text' ? { input: call.args } : call.args;
          const { output, isError } = await sandbox.run(call.name, args);
          await append({
            type: 'tool/result',
            callId: call.callId,
            output,
            ...(isError && { isError }),
          });
          messages.push({
            role: 'tool',
            tool_call_id: call.providerCallId ?? call.callId,
            content: typeof output === 'string' ? output : JSON.stringify(output),
          });
        }),
      );
    }
  }
}
