/**
 * The recorded Bedrock `ConverseStream` streams of test/fixtures/provider-recordings/: JSON
 * lines of events (`{ "<eventType>": {…} }`, as the AWS SDK yields them) and whole
 * `application/vnd.amazon.eventstream` bodies (bytes), read in any runtime.
 */
import { runtime } from '../../harness.js';
import { recording } from './recordings.js';

/** The events of a JSON-lines recording, as the SDK's stream yields them. */
export async function bedrockEvents(path: string): Promise<unknown[]> {
  const lines = (await recording(path)).split('\n').filter((line) => line.trim() !== '');
  return lines.map((line) => JSON.parse(line) as unknown);
}

/** A recorded binary body under test/fixtures/provider-recordings/. */
export async function recordedBytes(path: string): Promise<Uint8Array> {
  const url = new URL(`../../../../test/fixtures/provider-recordings/${path}`, import.meta.url);
  if (runtime === 'node') {
    const fs = 'node:fs/promises';
    const { readFile } = (await import(fs)) as { readFile(url: URL): Promise<Uint8Array> };
    return new Uint8Array(await readFile(url));
  }
  const response = await fetch(url);
  if (!response.ok) throw new Error(`recording ${path}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

/** `bytes` cut every `size` bytes (so cuts fall inside frames and headers), as a body stream. */
export function cutBody(bytes: Uint8Array, size: number): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= bytes.length) {
        controller.close();
        return;
      }
      controller.enqueue(bytes.slice(at, at + size));
      at += size;
    },
  });
}
