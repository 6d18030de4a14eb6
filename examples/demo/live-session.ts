import { concat, defer, from, Observable, of, switchMap, tap } from 'rxjs';
import type { CallfoldEvent } from '../../src/events/types.js';
import { fromAnthropicMessages } from '../../src/providers/anthropic-messages.js';
import { fromOpenAIChatCompletions } from '../../src/providers/openai-chat-completions.js';
import type { Session } from '../../src/providers/session.js';
import { builtinTools } from '../../src/schema/builtin-tools.js';
import { toAnthropicTool, toOpenAIChatTool } from '../../src/schema/formats.js';

export type LiveApi = 'openai-chat-completions' | 'anthropic-messages';

export interface LiveRequest {
  readonly api: LiveApi;
  /** E.g. `https://api.openai.com/v1`, `https://api.anthropic.com/v1`, or a compatible server's. */
  readonly baseUrl: string;
  readonly model: string;
  /** Sent to `baseUrl` only, in this request's headers; the page keeps it nowhere else. */
  readonly apiKey: string;
  readonly prompt: string;
}

const tools = [builtinTools.read, builtinTools.write, builtinTools.edit, builtinTools.bash];
const system =
  'You are a coding agent shown in a demo of streamed tool calls. Do the task with the tools: ' +
  'call several at once when they are independent, and write whole files with write.';
/** What the host reports for each call: the demo shows calls, it does not run them. */
export const NOT_RUN = 'Not run: this demo streams the call but does not execute tools.';

/**
 * One live turn: a streamed model response from an OpenAI-compatible Chat Completions
 * endpoint or the Anthropic Messages API, through its adapter, numbered by `session`; then a
 * "not run" result for every dispatched call, and the turn's end. Unsubscribing aborts the
 * request. HTTP errors fail the Observable with a `ProviderStreamError`.
 */
export function liveSession(request: LiveRequest, session: Session): Observable<CallfoldEvent> {
  return defer(() => {
    const turnId = `live_${Date.now().toString(36)}`;
    const abort = new AbortController();
    const base = request.baseUrl.trim().replace(/\/+$/, '');
    const messages = [{ role: 'user', content: request.prompt }];
    const anthropic = request.api === 'anthropic-messages';
    const response = fetch(anthropic ? `${base}/messages` : `${base}/chat/completions`, {
      method: 'POST',
      signal: abort.signal,
      headers: anthropic
        ? {
            'content-type': 'application/json',
            'x-api-key': request.apiKey,
            'anthropic-version': '2023-06-01',
            // Anthropic refuses browser requests without this header (the key is the user's own).
            'anthropic-dangerous-direct-browser-access': 'true',
          }
        : { 'content-type': 'application/json', authorization: `Bearer ${request.apiKey}` },
      body: JSON.stringify(
        anthropic
          ? {
              model: request.model,
              max_tokens: 8192,
              stream: true,
              system,
              messages,
              tools: tools.map(toAnthropicTool),
            }
          : {
              model: request.model,
              stream: true,
              messages: [{ role: 'system', content: system }, ...messages],
              tools: tools.map((tool) => toOpenAIChatTool(tool)),
            },
      ),
    });
    const dispatched: string[] = [];
    const adapt = anthropic ? fromAnthropicMessages : fromOpenAIChatCompletions;
    const events = concat(
      of(session.turn('turn/start', turnId, request.prompt)),
      from(response).pipe(
        switchMap((body) => adapt(body, { session })),
        tap((event) => {
          if (event.type === 'tool/call') dispatched.push(event.callId);
        }),
      ),
      defer(() => [
        ...dispatched.map((callId) => session.result(callId, NOT_RUN)),
        session.turn('turn/end', turnId),
      ]),
    );
    return new Observable<CallfoldEvent>((subscriber) => {
      const subscription = events.subscribe(subscriber);
      return () => {
        subscription.unsubscribe();
        abort.abort();
      };
    });
  });
}
