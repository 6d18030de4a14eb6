/**
 * The Fetch API pieces the server uses, typed structurally and read from `globalThis`
 * (src/ compiles without the DOM and Node type libraries). Node >= 20, Deno, Bun and edge
 * runtimes have them all.
 *
 * `HostRequest` and `HostResponse` are the runtime's own `Request` and `Response` wherever
 * the program's types declare them (lib.dom, @types/node, Deno), so `sessionHandler`'s
 * handler can be passed to `Deno.serve` or a framework as it is; elsewhere they are these
 * structural shapes.
 */
import type { AbortSignalLike } from './session-store.js';

export interface WebHeaders {
  get(name: string): string | null;
}

export interface WebRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: WebHeaders;
  readonly signal?: AbortSignalLike;
}

export interface WebResponse {
  readonly status: number;
  readonly headers: WebHeaders;
  readonly body: ReadableStream<Uint8Array> | null;
}

export type HostRequest = typeof globalThis extends { Request: { prototype: infer R } }
  ? R
  : WebRequest;
export type HostResponse = typeof globalThis extends { Response: { prototype: infer R } }
  ? R
  : WebResponse;

interface WebGlobals {
  Response: new (
    body: ReadableStream<Uint8Array> | string | null,
    init: { status: number; headers: Record<string, string> },
  ) => WebResponse;
  URL: new (
    url: string,
    base?: string,
  ) => { readonly searchParams: { get(name: string): string | null } };
}

const host = globalThis as unknown as WebGlobals;

/** A Response of this runtime. */
export function response(
  body: ReadableStream<Uint8Array> | string | null,
  status: number,
  headers: Record<string, string>,
): HostResponse {
  return new host.Response(body, { status, headers }) as unknown as HostResponse;
}

/** A query parameter of a request URL (relative URLs are read against a dummy origin). */
export function queryParameter(url: string, name: string): string | null {
  return new host.URL(url, 'http://localhost').searchParams.get(name);
}
