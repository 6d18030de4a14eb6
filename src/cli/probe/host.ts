import type { ResponseLike } from '../../wire/sse-decoder.js';

/**
 * The web platform pieces the probe uses, typed structurally and read from `globalThis`.
 * src/ compiles without the DOM and Node type libraries, and a global declared in
 * runtime.d.ts must match lib.dom's exactly to merge with it where both load; these few
 * shapes need no such care. Node >= 20, Deno and browsers have them; a test may pass its
 * own `fetch`.
 */
export interface ProbeFetchInit {
  method: 'POST';
  headers: Record<string, string>;
  body: string;
  signal: AbortSignalLike;
}

export interface AbortSignalLike {
  readonly aborted: boolean;
}

/** A fetch `Response` as the probe reads it; its body goes to the provider's adapter. */
export interface ProbeResponse extends ResponseLike {
  readonly statusText: string;
  readonly headers: { get(name: string): string | null };
  text(): Promise<string>;
}

export type ProbeFetch = (url: string, init: ProbeFetchInit) => Promise<ProbeResponse>;

interface AbortControllerLike {
  readonly signal: AbortSignalLike;
  abort(reason?: unknown): void;
}

interface Host {
  fetch?: ProbeFetch;
  AbortController: new () => AbortControllerLike;
}

const host = globalThis as unknown as Host;

/** The host's `fetch`; throws where there is none. */
export function hostFetch(): ProbeFetch {
  const { fetch } = host;
  if (typeof fetch !== 'function') throw new Error('this runtime has no fetch; pass one');
  return fetch.bind(globalThis);
}

export function abortController(): AbortControllerLike {
  return new host.AbortController();
}
