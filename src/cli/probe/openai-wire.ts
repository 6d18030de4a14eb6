import { fromOpenAIChatCompletions } from '../../providers/openai-chat-completions.js';
import { toOpenAIChatTool } from '../../schema/formats.js';
import type { Wire } from './wire.js';

/**
 * OpenAI Chat Completions and compatible servers: `POST {base}/chat/completions` with
 * `stream: true`, read by `fromOpenAIChatCompletions`. An error chunk in the stream is the
 * server's trouble, not the request's: always worth another attempt.
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

  adapter: fromOpenAIChatCompletions,
  retryable: () => true,
};
