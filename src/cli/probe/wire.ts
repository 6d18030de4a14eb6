import type { Observable } from 'rxjs';
import type { CallfoldEvent } from '../../events/types.js';
import type { AdapterOptions } from '../../providers/adapter-run.js';
import type { ProviderSource } from '../../providers/provider-source.js';
import type { ProviderStreamError } from '../../providers/provider-stream-error.js';
import type { ToolLike } from '../../schema/formats.js';

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
 * A provider's wire format as the probe uses it: where to send a request and how to write
 * it. The response stream is read by the provider's adapter (`src/providers/`), the one
 * reader of each wire format: the probe reads the adapter's events, never the wire.
 */
export interface Wire {
  readonly defaultBaseUrl: string;
  readonly keyVariable: string;
  url(baseUrl: string): string;
  headers(apiKey: string | undefined): Record<string, string>;
  body(request: ProbeRequest): unknown;
  /** The provider's adapter, e.g. `fromOpenAIChatCompletions`. */
  readonly adapter: (source: ProviderSource, options: AdapterOptions) => Observable<CallfoldEvent>;
  /** Whether an error the provider sent inside a 200 stream is worth another attempt. */
  retryable(error: ProviderStreamError): boolean;
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
