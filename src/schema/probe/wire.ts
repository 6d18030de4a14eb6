import type { ToolLike } from '../formats.js';

export type ProviderName = 'openai' | 'anthropic';
export type ToolChoice = 'free' | 'forced';

/** One probe request: the tool variant offered, alone, and whether it is forced. */
export interface ProbeRequest {
  readonly model: string;
  readonly system: string;
  readonly prompt: string;
  readonly tool: ToolLike;
  readonly choice: ToolChoice;
  readonly maxTokens: number;
}

/** What a response showed: the first tool call's name and first argument key, or no call. */
export type Observation =
  | { readonly kind: 'call'; readonly name: string; readonly firstKey: string | null }
  | { readonly kind: 'no-call' };

/**
 * Reads one response's events. `event` returns the observation as soon as it is known (the
 * probe then stops reading); `end` gives it when the stream ends first. Both throw a
 * `StreamError` for an error event or a chunk that is not JSON.
 */
export interface StreamReader {
  /** One server-sent event: only its data is read (both providers repeat the type inside). */
  event(event: { readonly data: string }): Observation | undefined;
  end(): Observation;
}

/** A provider's wire format: where to send a request, how, and how to read the stream. */
export interface Wire {
  readonly defaultBaseUrl: string;
  readonly keyVariable: string;
  url(baseUrl: string): string;
  headers(apiKey: string | undefined): Record<string, string>;
  body(request: ProbeRequest): unknown;
  reader(): StreamReader;
}

/** An error inside a 200 stream: an error event, or a chunk that is not JSON. */
export class StreamError extends Error {
  readonly retryable: boolean;

  constructor(message: string, retryable: boolean) {
    super(message);
    this.name = 'StreamError';
    this.retryable = retryable;
  }
}

/** Parses one event's data as a JSON object, or throws a non-retryable StreamError. */
export function parseChunk(data: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    const shown = data.length > 60 ? `${data.slice(0, 60)}…` : data;
    throw new StreamError(`malformed chunk: ${JSON.stringify(shown)}`, false);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new StreamError('malformed chunk: not a JSON object', false);
  }
  return value as Record<string, unknown>;
}

export function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null
    ? (value as Record<string, unknown>)[key]
    : undefined;
}

/** The `message` of an `{ error: { message } }` body (both providers use that shape). */
export function errorMessage(body: unknown): string | undefined {
  const error = field(body, 'error');
  const message = field(error, 'message');
  if (typeof message === 'string') return message;
  return typeof error === 'string' ? error : undefined;
}
