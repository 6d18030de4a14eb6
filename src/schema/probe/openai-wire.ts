import { toOpenAIChatTool } from '../formats.js';
import { FirstKeyScanner } from './first-key.js';
import {
  errorMessage,
  field,
  type Observation,
  parseChunk,
  StreamError,
  type Wire,
} from './wire.js';

/**
 * OpenAI Chat Completions and compatible servers: `POST {base}/chat/completions` with
 * `stream: true`; each event's data is a chunk whose `choices[0].delta.tool_calls[]` carry
 * `index`, and `id`, `function.name` and `function.arguments` fragments; `[DONE]` ends it.
 * The first call is the first index seen; its name may come in any of its chunks.
 */
export const openAIWire: Wire = {
  defaultBaseUrl: 'https://api.openai.com/v1',
  keyVariable: 'OPENAI_API_KEY',

  url: (baseUrl) => `${baseUrl.replace(/\/+$/, '')}/chat/completions`,

  headers(apiKey) {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'text/event-stream',
    };
    if (apiKey !== undefined) headers.authorization = `Bearer ${apiKey}`;
    return headers;
  },

  body: (request) => ({
    model: request.model,
    stream: true,
    messages: [
      { role: 'system', content: request.system },
      { role: 'user', content: request.prompt },
    ],
    tools: [toOpenAIChatTool(request.tool)],
    tool_choice:
      request.choice === 'free'
        ? 'auto'
        : { type: 'function', function: { name: request.tool.name } },
  }),

  reader() {
    let first: { index: number; name: string; scanner: FirstKeyScanner } | undefined;
    const end = (): Observation =>
      first === undefined
        ? { kind: 'no-call' }
        : { kind: 'call', name: first.name, firstKey: first.scanner.result ?? null };

    return {
      end,
      event({ data }) {
        if (data === '[DONE]') return end();
        const chunk = parseChunk(data);
        if (chunk.error !== undefined) {
          throw new StreamError(`error event: ${errorMessage(chunk) ?? 'no message'}`, true);
        }
        const choices = chunk.choices;
        const calls = field(
          field(Array.isArray(choices) ? choices[0] : undefined, 'delta'),
          'tool_calls',
        );
        if (!Array.isArray(calls)) return undefined;
        for (const call of calls) {
          const index =
            typeof field(call, 'index') === 'number' ? (field(call, 'index') as number) : 0;
          first ??= { index, name: '', scanner: new FirstKeyScanner() };
          if (index !== first.index) continue;
          const fn = field(call, 'function');
          const name = field(fn, 'name');
          if (typeof name === 'string' && first.name === '') first.name = name;
          const args = field(fn, 'arguments');
          // Some compatible servers send the arguments as an object, in one piece.
          const fragment =
            typeof args === 'string' ? args : args !== undefined ? JSON.stringify(args) : '';
          if (first.scanner.push(fragment) !== undefined) return end();
        }
        return undefined;
      },
    };
  },
};
