/**
 * A provider stream failed: the provider sent an error event (Anthropic `error`, OpenAI
 * Responses `error` or `response.failed`, an AI SDK `error` chunk, a Chat Completions chunk
 * with an `error` member) or answered with an HTTP error status: an adapter settles its live
 * attempt first, then fails its Observable with this error. A malformed chunk (data that is
 * not JSON, a chunk that is not an object) is also described by one, handed to
 * `AdapterOptions.onMalformed` while the stream goes on.
 * Errors thrown by the source itself (a network failure, an SDK's `APIError`) are passed on
 * unchanged.
 */
export class ProviderStreamError extends Error {
  /** The adapter that saw the error, e.g. `'anthropic-messages'`. */
  readonly provider: string;
  /** The provider's error payload as received (the error event's data), when there is one. */
  readonly payload: unknown;
  /** The HTTP status, when the error is an HTTP error status. */
  readonly status: number | undefined;

  constructor(
    provider: string,
    message: string,
    details: { payload?: unknown; status?: number; cause?: unknown } = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'ProviderStreamError';
    this.provider = provider;
    this.payload = details.payload;
    this.status = details.status;
  }
}

/**
 * The `message` of a provider error payload such as `{ error: { type, message } }`, looked
 * for through at most 8 nested `error` members (a payload is untrusted: no recursion).
 */
export function errorMessage(payload: unknown, fallback: string): string {
  let current = payload;
  for (let depth = 0; depth < 8; depth++) {
    if (typeof current === 'string' && current !== '') return current;
    if (typeof current !== 'object' || current === null) return fallback;
    const record = current as Record<string, unknown>;
    if (typeof record.message === 'string' && record.message !== '') return record.message;
    if (typeof record.errorText === 'string' && record.errorText !== '') return record.errorText;
    if (record.error === undefined || record.error === current) return fallback;
    current = record.error;
  }
  return fallback;
}
