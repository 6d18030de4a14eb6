import { fromAnthropicMessages } from '../../providers/anthropic-messages.js';
import { toAnthropicTool } from '../../schema/formats.js';
import type { Wire } from './wire.js';

/** Error event types worth another attempt (the rest are the request's own fault). */
const transient = new Set(['overloaded_error', 'api_error', 'rate_limit_error', 'timeout_error']);

/**
 * Anthropic Messages: `POST {base}/v1/messages` with `stream: true`, read by
 * `fromAnthropicMessages`. An `error` event is retried when its `error.type` is transient
 * (overloaded, API, rate limit, timeout).
 */
export const anthropicWire: Wire = {
  defaultBaseUrl: 'https://api.anthropic.com',
  keyVariable: 'ANTHROPIC_API_KEY',

  url(baseUrl) {
    const base = baseUrl.replace(/\/+$/, '');
    return base.endsWith('/v1') ? `${base}/messages` : `${base}/v1/messages`;
  },

  headers(apiKey) {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'text/event-stream',
      'anthropic-version': '2023-06-01',
    };
    if (apiKey !== undefined) headers['x-api-key'] = apiKey;
    return headers;
  },

  body: (request) => ({
    model: request.model,
    max_tokens: request.maxTokens,
    stream: true,
    system: request.system,
    messages: [{ role: 'user', content: request.prompt }],
    tools: [toAnthropicTool(request.tool)],
    tool_choice:
      request.choice === 'free' ? { type: 'auto' } : { type: 'tool', name: request.tool.name },
  }),

  adapter: fromAnthropicMessages,
  retryable(error) {
    const payload = error.payload as { error?: { type?: unknown } } | undefined;
    const type = payload?.error?.type;
    return typeof type === 'string' && transient.has(type);
  },
};
