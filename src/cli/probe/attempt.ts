import { errorMessage } from '../../providers/provider-stream-error.js';
import { observe } from './first-call.js';
import { abortController, type ProbeFetch, type ProbeResponse } from './host.js';
import type { SampleOutcome } from './report.js';
import { type Observation, StreamError, type Wire } from './wire.js';

/** What one attempt came to: an outcome to record, a reason to retry, or a reason to stop. */
export type Attempt =
  | { readonly kind: 'outcome'; readonly outcome: SampleOutcome }
  | {
      readonly kind: 'retry';
      readonly error: string;
      readonly status?: number;
      /** What the server asked for with `retry-after-ms` or `retry-after`. */
      readonly afterMs?: number;
    }
  | { readonly kind: 'fatal'; readonly error: string; readonly status: number };

export interface AttemptRequest {
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body: string;
  readonly wire: Wire;
  readonly timeoutMs: number;
  readonly now: () => number;
}

/** Every later request would fail the same way. */
const fatalStatuses = new Set([401, 403, 404]);
const retryStatuses = new Set([408, 409, 425, 429]);

/**
 * Sends one request and reads its stream until the first call's first key is known, within
 * `timeoutMs` from sending. Classifies what happened:
 * - retry: 408, 409, 425, 429, 5xx, a timeout, a network error, a transient error event;
 * - fatal: 401, 403, 404;
 * - an error outcome: any other status, a JSON body instead of a stream, a malformed chunk.
 */
export async function attempt(fetch: ProbeFetch, request: AttemptRequest): Promise<Attempt> {
  const controller = abortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, request.timeoutMs);
  try {
    const response = await fetch(request.url, {
      method: 'POST',
      headers: request.headers,
      body: request.body,
      signal: controller.signal,
    });
    if (response.status < 200 || response.status > 299) return await failed(response, request);
    if ((response.headers.get('content-type') ?? '').includes('application/json')) {
      const text = await response.text();
      return outcomeError(`expected an event stream, got JSON: ${describeBody(text)}`);
    }
    const observation = await read(response, request.wire);
    return {
      kind: 'outcome',
      outcome:
        observation.kind === 'call'
          ? { kind: 'call', name: observation.name, firstKey: observation.firstKey }
          : { kind: 'no-call' },
    };
  } catch (error) {
    if (timedOut) return { kind: 'retry', error: `timed out after ${formatMs(request.timeoutMs)}` };
    if (error instanceof StreamError) {
      return error.retryable
        ? { kind: 'retry', error: error.message }
        : outcomeError(error.message);
    }
    return { kind: 'retry', error: `network error: ${describeError(error)}` };
  } finally {
    clearTimeout(timer);
    // Closes the connection of a stream left unread after its first key.
    controller.abort();
  }
}

async function failed(response: ProbeResponse, request: AttemptRequest): Promise<Attempt> {
  const { status } = response;
  const text = describeBody(await response.text());
  const error = `HTTP ${status}${response.statusText ? ` ${response.statusText}` : ''}: ${text}`;
  if (fatalStatuses.has(status)) return { kind: 'fatal', error, status };
  if (retryStatuses.has(status) || status >= 500) {
    const afterMs = retryAfter(response, request.now());
    return afterMs === undefined
      ? { kind: 'retry', error, status }
      : { kind: 'retry', error, status, afterMs };
  }
  return { kind: 'outcome', outcome: { kind: 'error', error, status } };
}

function outcomeError(error: string): Attempt {
  return { kind: 'outcome', outcome: { kind: 'error', error } };
}

async function read(response: ProbeResponse, wire: Wire): Promise<Observation> {
  if (response.body === null) throw new StreamError('the response has no body', false);
  return observe(response.body, wire);
}

/** `retry-after-ms` (OpenAI), else `retry-after` in seconds or as an HTTP date. */
function retryAfter(response: ProbeResponse, now: number): number | undefined {
  const ms = Number(response.headers.get('retry-after-ms') ?? Number.NaN);
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const header = response.headers.get('retry-after');
  if (header === null) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** An error body's message (`{ error: { message } }`), else its first 200 characters. */
function describeBody(text: string): string {
  let message = '';
  try {
    message = errorMessage(JSON.parse(text), '');
  } catch {
    message = '';
  }
  const shown = (message || text).replace(/\s+/g, ' ').trim();
  if (shown === '') return '(empty body)';
  return shown.length > 200 ? `${shown.slice(0, 200)}…` : shown;
}

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  if (cause instanceof Error) {
    const code = (cause as { code?: unknown }).code;
    return `${error.message} (${typeof code === 'string' ? code : cause.message})`;
  }
  return error.message;
}

/** `1.5 s`, `250 ms`, `120 s`. */
export function formatMs(ms: number): string {
  if (ms % 1000 === 0) return `${ms / 1000} s`;
  return ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${ms} ms`;
}
