/**
 * Recorded provider streams (test/fixtures/<provider>/, written by
 * scripts/make-provider-fixtures.mjs) and the ways a test feeds them to an adapter.
 *
 * Fixtures are read relative to this compiled module (.build…/test/providers/support/):
 * with `fetch` in browsers (the test server serves the repository root) and Deno, and with
 * `node:fs` in Node, whose fetch does not read file URLs.
 */
import type { Observable } from 'rxjs';
import type { CallfoldEvent, MessageBlock } from '../../../src/events/types.js';
import { runtime } from '../../harness.js';
import { prng } from '../../support/prng.js';

export type ProviderName =
  | 'openai-chat-completions'
  | 'openai-responses'
  | 'anthropic-messages'
  | 'ai-sdk-ui-stream';

/** What a correct adapter makes of a fixture. */
export interface Expected {
  readonly messageId: string;
  /** Each attempt's assistant/message blocks. */
  readonly attempts: readonly { readonly blocks: readonly MessageBlock[] }[];
  readonly results: readonly { readonly callId: string; readonly output: unknown }[];
}

export interface Fixture {
  readonly sse: string;
  readonly expected: Expected;
}

const cache = new Map<string, Promise<Fixture>>();

export function loadFixture(provider: ProviderName, name = 'parallel-write'): Promise<Fixture> {
  const key = `${provider}/${name}`;
  let fixture = cache.get(key);
  if (!fixture) {
    fixture = Promise.all([readText(`${key}.sse`), readText(`${key}.expected.json`)]).then(
      ([sse, expected]) => ({ sse, expected: JSON.parse(expected) as Expected }),
    );
    cache.set(key, fixture);
  }
  return fixture;
}

/** A file under test/fixtures/, as text, in any runtime. */
export async function readText(path: string): Promise<string> {
  const url = new URL(`../../../../test/fixtures/${path}`, import.meta.url);
  if (runtime === 'node') {
    const fs = 'node:fs/promises';
    const { readFile } = (await import(fs)) as {
      readFile(url: URL, encoding: 'utf8'): Promise<string>;
    };
    return readFile(url, 'utf8');
  }
  const response = await fetch(url);
  if (!response.ok) throw new Error(`fixture ${path}: HTTP ${response.status}`);
  return response.text();
}

/**
 * The chunk objects an SDK would yield for SSE `text`: each message's `data:` parsed, the
 * `[DONE]` sentinel dropped (SDKs consume it). Written independently of the adapters' decoder.
 */
export function sdkChunks(text: string): unknown[] {
  const chunks: unknown[] = [];
  for (const message of text.split('\n\n')) {
    const data = message
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => line.slice('data: '.length))
      .join('\n');
    if (data !== '' && data !== '[DONE]') chunks.push(JSON.parse(data));
  }
  return chunks;
}

/** `items` as an SDK-like async iterable: one item per turn of the event loop's microtasks. */
export async function* asyncIterable<T>(items: Iterable<T>): AsyncGenerator<T> {
  for (const item of items) yield item;
}

/** UTF-8 bytes of `text` cut at random points (1–`max` bytes a piece), so cuts fall inside code points. */
export function bytePieces(text: string, seed: number, max = 4096): Uint8Array[] {
  const bytes = new TextEncoder().encode(text);
  const random = prng(seed);
  const pieces: Uint8Array[] = [];
  for (let start = 0; start < bytes.length; ) {
    const end = Math.min(bytes.length, start + 1 + Math.floor(random() * max));
    pieces.push(bytes.subarray(start, end));
    start = end;
  }
  return pieces;
}

/** A ReadableStream of `pieces`, as a fetch body delivers them. */
export function byteStream(pieces: readonly Uint8Array[]): ReadableStream<Uint8Array> {
  let next = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const piece = pieces[next++];
      if (piece) controller.enqueue(piece);
      else controller.close();
    },
  });
}

export interface Outcome {
  readonly events: CallfoldEvent[];
  readonly error: unknown;
  /** Whether the Observable completed (false when it failed). */
  readonly completed: boolean;
}

/** Subscribes to `events$` and gathers what it emits until it completes or fails. */
export function collect(events$: Observable<CallfoldEvent>): Promise<Outcome> {
  return new Promise((resolve) => {
    const events: CallfoldEvent[] = [];
    events$.subscribe({
      next: (event) => events.push(event),
      error: (error: unknown) => resolve({ events, error, completed: false }),
      complete: () => resolve({ events, error: undefined, completed: true }),
    });
  });
}
