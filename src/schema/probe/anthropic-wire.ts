import { toAnthropicTool } from '../formats.js';
import { FirstKeyScanner } from './first-key.js';
import {
  errorMessage,
  field,
  type Observation,
  parseChunk,
  StreamError,
  type Wire,
} from './wire.js';

/** Error event types worth another attempt (the rest are the request's own fault). */
const transient = new Set(['overloaded_error', 'api_error', 'rate_limit_error', 'timeout_error']);

/**
 * Anthropic Messages: `POST {base}/v1/messages` with `stream: true`. A `content_block_start`
 * whose `content_block.type` is `tool_use` names the call (its `input` is always `{}`); the
 * arguments arrive as `content_block_delta` events with `delta.type: 'input_json_delta'` and
 * a `partial_json` fragment, until that block's `content_block_stop`. `ping`, `message_*`
 * and text blocks are skipped; an `error` event fails the attempt.
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

  reader() {
    let first: { index: unknown; name: string; scanner: FirstKeyScanner } | undefined;
    const end = (): Observation =>
      first === undefined
        ? { kind: 'no-call' }
        : { kind: 'call', name: first.name, firstKey: first.scanner.result ?? null };

    return {
      end,
      event({ data }) {
        const chunk = parseChunk(data);
        switch (chunk.type) {
          case 'content_block_start': {
            const block = chunk.content_block;
            if (first === undefined && field(block, 'type') === 'tool_use') {
              const name = field(block, 'name');
              first = {
                index: chunk.index,
                name: typeof name === 'string' ? name : '',
                scanner: new FirstKeyScanner(),
              };
            }
            return undefined;
          }
          case 'content_block_delta': {
            if (first === undefined || chunk.index !== first.index) return undefined;
            const fragment = field(chunk.delta, 'partial_json');
            if (typeof fragment !== 'string') return undefined;
            return first.scanner.push(fragment) === undefined ? undefined : end();
          }
          case 'content_block_stop':
            return first !== undefined && chunk.index === first.index ? end() : undefined;
          case 'message_stop':
            return end();
          case 'error': {
            const type = field(chunk.error, 'type');
            const retryable = typeof type === 'string' && transient.has(type);
            throw new StreamError(`error event: ${errorMessage(chunk) ?? String(type)}`, retryable);
          }
          default:
            return undefined;
        }
      },
    };
  },
};
