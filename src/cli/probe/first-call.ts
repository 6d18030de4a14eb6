import { defaultIfEmpty, filter, firstValueFrom, map, type Observable } from 'rxjs';
import type { CallfoldEvent } from '../../events/types.js';
import type { ProviderSource } from '../../providers/provider-source.js';
import { ProviderStreamError } from '../../providers/provider-stream-error.js';
import { FirstKeyScanner } from './first-key.js';
import { type Observation, StreamError, type Wire } from './wire.js';

/**
 * What one response's events say of its first tool call: its name and the first key of its
 * arguments. `event` returns the observation as soon as it is known; `end` gives it from
 * what was seen when the events end first.
 *
 * 1. The first call is the first `stream/tool-call-delta` (adapters name a call in its first
 *    delta), else the first tool-use block of the `assistant/message` (a call that streamed
 *    no delta).
 * 2. Its first key is scanned from its deltas' `args` fragments, reading each character
 *    once (`FirstKeyScanner`); at its `stream/block-end`, from the block's authoritative text
 *    if the deltas did not decide it.
 * 3. The response's `assistant/message` ends the reading. A cut or failed response settles
 *    first and then completes or fails: its settle is not the end (the failure must win).
 */
export class FirstCallReader {
  #first: { callId: string; name: string; scanner: FirstKeyScanner } | undefined;

  event(event: CallfoldEvent): Observation | undefined {
    switch (event.type) {
      case 'stream/tool-call-delta': {
        this.#first ??= { callId: event.callId, name: '', scanner: new FirstKeyScanner() };
        const first = this.#first;
        if (event.callId !== first.callId) return undefined;
        if (first.name === '' && event.name !== undefined) first.name = event.name;
        return first.scanner.push(event.args) === undefined ? undefined : this.end();
      }
      case 'stream/block-end':
        if (this.#first === undefined || event.callId !== this.#first.callId) return undefined;
        if (this.#first.scanner.result !== undefined) return this.end();
        return { kind: 'call', name: this.#first.name, firstKey: keyOf(event.text) };
      case 'assistant/message':
        if (this.#first === undefined) {
          const use = event.blocks.find((block) => block.type === 'tool-use');
          if (use === undefined) return { kind: 'no-call' };
          return { kind: 'call', name: use.name, firstKey: keyOf(use.argsText) };
        }
        return this.end();
      default:
        return undefined;
    }
  }

  end(): Observation {
    const first = this.#first;
    if (first === undefined) return { kind: 'no-call' };
    return { kind: 'call', name: first.name, firstKey: first.scanner.result ?? null };
  }
}

function keyOf(text: string): string | null {
  return new FirstKeyScanner().push(text) ?? null;
}

/**
 * Reads `events` (one response through its provider's adapter) until the first call's first
 * key is known, then unsubscribes, which cancels the source: the rest of the stream is never
 * read. Rejects with the adapter's error.
 */
export async function firstCall(events: Observable<CallfoldEvent>): Promise<Observation> {
  const reader = new FirstCallReader();
  const observation = await firstValueFrom(
    events.pipe(
      map((event) => reader.event(event)),
      filter((seen): seen is Observation => seen !== undefined),
      defaultIfEmpty(undefined),
    ),
  );
  return observation ?? reader.end();
}

/**
 * Reads one response body through the wire's adapter until its first call's first key is
 * known, then cancels the rest. A malformed chunk fails the read (the adapter alone would
 * skip it) with a StreamError that is not retryable; an error the provider sent becomes a
 * StreamError, retryable as the wire says. Other errors (the network, an abort) pass as they are.
 */
export async function observe(source: ProviderSource, wire: Wire): Promise<Observation> {
  const events = wire.adapter(source, {
    onMalformed(error) {
      throw new StreamError(`malformed chunk: ${describeChunk(error.payload)}`, false);
    },
  });
  try {
    return await firstCall(events);
  } catch (error) {
    if (error instanceof ProviderStreamError) {
      throw new StreamError(`error event: ${error.message}`, wire.retryable(error));
    }
    throw error;
  }
}

/** A malformed chunk as a report shows it: its data's first 60 characters, as JSON. */
function describeChunk(payload: unknown): string {
  if (typeof payload !== 'string') return 'not a JSON object';
  return JSON.stringify(payload.length > 60 ? `${payload.slice(0, 60)}…` : payload);
}
