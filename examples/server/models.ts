/**
 * Where the example agent's model responses come from, as OpenAI Chat Completions response
 * bodies (server-sent events) that `fromOpenAIChatCompletions` reads:
 * - `recordedModel`: the demo's recorded session (examples/transcripts/demo-session.jsonl),
 *   each model response re-encoded into the Chat Completions wire format by the demo's
 *   encoder and streamed at its recorded pace (× `speed`), one per request. No key, no
 *   network. The recording answers the same whatever the tools returned.
 * - `liveModel`: a real OpenAI-compatible endpoint (`POST {baseUrl}/chat/completions`,
 *   `stream: true`) with the sandbox's tools.
 */
import { readFile } from 'node:fs/promises';
import { decodeTranscript } from '../../src/wire/transcript.js';
import { encodeOpenAIChatCompletions } from '../demo/encoders/openai-chat-completions.js';
import { type ScriptAttempt, scriptOf } from '../demo/session-script.js';
import { liveTools } from './sandbox-tools.js';

/** A Chat Completions message the loop keeps for a live model. */
export type ChatMessage =
  | { role: 'system' | 'user'; content: string }
  | {
      role: 'assistant';
      content: string | null;
      tool_calls?: {
        id: string;
        type: 'function';
        function: { name: string; arguments: string };
      }[];
    }
  | { role: 'tool'; tool_call_id: string; content: string };

export interface Model {
  /** The user prompts of the turns to run. */
  readonly prompts: readonly string[];
  /**
   * One streamed response to `messages` in turn `turn` (an index of `prompts`); `signal`
   * aborts it. Undefined: the model has nothing more to say in this turn.
   */
  respond(
    turn: number,
    messages: readonly ChatMessage[],
    signal: AbortSignal,
  ): Promise<ReadableStream<Uint8Array> | Response | undefined>;
}

/** The demo's recorded session as a model; `speed` 1 is the recorded pace. */
export async function recordedModel(transcriptPath: string, speed = 1): Promise<Model> {
  const script = scriptOf(decodeTranscript(await readFile(transcriptPath, 'utf8')));
  // The recorded responses of each turn, in order (a cut one included: the loop retries it).
  const turns: ScriptAttempt[][] = [];
  for (const item of script.items) {
    if (item.kind === 'host' && item.event.type === 'turn/start') turns.push([]);
    else if (item.kind === 'attempt') turns.at(-1)?.push(item.attempt);
  }
  return {
    prompts: turns.map((_, index) => `Recorded turn ${index + 1}`),
    respond: async (turn, _messages, signal) => {
      const attempt = turns[turn]?.shift();
      return attempt && paced(attempt, speed, signal);
    },
  };
}

/** A response body written at the recorded times of its chunks. */
function paced(
  attempt: ScriptAttempt,
  speed: number,
  signal: AbortSignal,
): ReadableStream<Uint8Array> {
  const chunks = encodeOpenAIChatCompletions(attempt);
  const utf8 = new TextEncoder();
  const start = chunks[0]?.at ?? attempt.end;
  const began = performance.now();
  let index = 0;
  const waitUntil = (at: number) => {
    const due = began + (at - start) / speed - performance.now();
    return due > 1 ? new Promise((resolve) => setTimeout(resolve, due)) : undefined;
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (signal.aborted) return controller.error(signal.reason);
      const chunk = chunks[index];
      if (!chunk) {
        await waitUntil(attempt.end);
        return controller.close();
      }
      await waitUntil(chunk.at);
      // Everything due by now goes in one read, as a network read hands over what arrived.
      let text = '';
      const now = start + (performance.now() - began) * speed;
      do text += (chunks[index++] as { data: string }).data;
      while (index < chunks.length && (chunks[index] as { at: number }).at <= now);
      controller.enqueue(utf8.encode(text));
    },
  });
}

export interface LiveModelOptions {
  /** E.g. `https://api.openai.com/v1`, or a compatible server's (vLLM, Ollama, LM Studio…). */
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly model: string;
  readonly prompt: string;
}

/** An OpenAI-compatible endpoint, offered the sandbox's read and list tools. */
export function liveModel(options: LiveModelOptions): Model {
  const base = options.baseUrl.trim().replace(/\/+$/, '');
  return {
    prompts: [options.prompt],
    respond: async (_turn, messages, signal) => {
      const response = await fetch(`${base}/chat/completions`, {
        method: 'POST',
        signal,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${options.apiKey}` },
        body: JSON.stringify({ model: options.model, stream: true, messages, tools: liveTools }),
      });
      return response;
    },
  };
}
