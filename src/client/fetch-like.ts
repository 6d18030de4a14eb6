import type { ResponseLike } from '../wire/sse-decoder.js';

/**
 * The `fetch` the session client uses: `globalThis.fetch` by default; any function of this
 * shape (a test's, an authenticated wrapper) can stand in. Typed structurally because src/
 * compiles without the DOM library; the runtime's own `fetch` fits.
 */
// biome-ignore lint/suspicious/noExplicitAny: the init object is passed through as the runtime's own RequestInit.
export type FetchLike = (url: string, init: any) => Promise<FetchResponseLike>;

/** What the session client reads of a fetch `Response`. */
export interface FetchResponseLike extends ResponseLike {
  readonly headers: { get(name: string): string | null };
  json(): Promise<unknown>;
}

export interface AbortControllerLike {
  readonly signal: unknown;
  abort(): void;
}

interface Host {
  fetch?: FetchLike;
  AbortController: new () => AbortControllerLike;
}

const host = globalThis as unknown as Host;

/** `fetch`, or the runtime's; throws where there is none. */
export function fetchOf(fetch: FetchLike | undefined): FetchLike {
  if (fetch) return fetch;
  if (typeof host.fetch !== 'function') throw new Error('this runtime has no fetch; pass one');
  return host.fetch.bind(globalThis);
}

export function abortController(): AbortControllerLike {
  return new host.AbortController();
}
