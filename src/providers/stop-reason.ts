import type { StopReason } from '../events/types.js';

/**
 * A provider's word for why a response ended, in callfold's words where one fits
 * (`AssistantMessageEvent.stopReason`); any other word is kept as the provider's own.
 *
 * | callfold | OpenAI Chat | OpenAI Responses | Anthropic | AI SDK | Gemini | Bedrock Converse |
 * |---|---|---|---|---|---|---|
 * | `end` | `stop` | (completed) | `end_turn`, `stop_sequence` | `stop` | `STOP` (no call) | `end_turn`, `stop_sequence` |
 * | `tool-calls` | `tool_calls`, `function_call` | (completed with calls) | `tool_use` | `tool-calls` | `STOP` (with calls) | `tool_use` |
 * | `length` | `length` | `max_output_tokens` | `max_tokens`, `model_context_window_exceeded` | `length` | `MAX_TOKENS` | `max_tokens`, `model_context_window_exceeded` |
 * | `content-filter` | `content_filter` | `content_filter` | `refusal` | `content-filter` | `SAFETY`, `RECITATION`, `BLOCKLIST`, `PROHIBITED_CONTENT`, `SPII`, `IMAGE_SAFETY`, `IMAGE_PROHIBITED_CONTENT`, `IMAGE_RECITATION` | `guardrail_intervened`, `content_filtered` |
 * | `pause` | | | `pause_turn` | | | |
 * | `error` | | | | `error` | `MALFORMED_FUNCTION_CALL` | |
 *
 * Gemini's `STOP` is `end` here; the Gemini adapter passes no reason for it, so that a
 * response with calls says `tool-calls` (see `Attempt.finish`).
 */
export function stopReasonOf(word: unknown): StopReason | undefined {
  if (typeof word !== 'string' || word === '') return undefined;
  return words[word] ?? word;
}

/** Whether a response that ended for `reason` was cut inside (its last call, if any, is incomplete). */
export function isCut(reason: StopReason | undefined): boolean {
  return reason === 'length' || reason === 'content-filter';
}

const words: Readonly<Record<string, StopReason>> = Object.assign(Object.create(null), {
  stop: 'end',
  end_turn: 'end',
  stop_sequence: 'end',
  tool_calls: 'tool-calls',
  function_call: 'tool-calls',
  tool_use: 'tool-calls',
  'tool-calls': 'tool-calls',
  length: 'length',
  max_tokens: 'length',
  max_output_tokens: 'length',
  model_context_window_exceeded: 'length',
  content_filter: 'content-filter',
  'content-filter': 'content-filter',
  refusal: 'content-filter',
  pause_turn: 'pause',
  error: 'error',
  // Gemini (`FinishReason`).
  STOP: 'end',
  MAX_TOKENS: 'length',
  SAFETY: 'content-filter',
  RECITATION: 'content-filter',
  BLOCKLIST: 'content-filter',
  PROHIBITED_CONTENT: 'content-filter',
  SPII: 'content-filter',
  IMAGE_SAFETY: 'content-filter',
  IMAGE_PROHIBITED_CONTENT: 'content-filter',
  IMAGE_RECITATION: 'content-filter',
  MALFORMED_FUNCTION_CALL: 'error',
  // Bedrock Converse (`StopReason`).
  guardrail_intervened: 'content-filter',
  content_filtered: 'content-filter',
});
