/**
 * Hostile event streams: every failure reaches the Observable's `error` (never an uncaught
 * exception), lines and messages are bounded, and the body is cancelled and unlocked.
 */
import { expect } from 'chai';
import { config, type Observable } from 'rxjs';
import type { CallfoldEvent } from '../../src/events/types.js';
import { decodeSSE, encodeSSE } from '../../src/wire/sse.js';
import { readSSE, SSEDecoder, SSEError } from '../../src/wire/sse-decoder.js';
import { describe, it } from '../harness.js';

const utf8 = new TextEncoder();

interface Probe {
  readonly stream: ReadableStream<Uint8Array>;
  /** Pulls so far, and whether the consumer cancelled. */
  readonly state: { pulls: number; cancelled: boolean };
}

/**
 * A body that sends `chunks`, then (with `endless`) `endless` again and again, up to
 * `maxPulls` reads: a bounded stand-in for a server that never ends its line; with
 * `'hang'`, a server that sends nothing more and never closes.
 */
function source(chunks: readonly string[], endless?: string | 'hang', maxPulls = 2000): Probe {
  const state = { pulls: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks[state.pulls] ?? (state.pulls < maxPulls ? endless : undefined);
      state.pulls++;
      // A hung server: this read never resolves (the test cancels it).
      if (chunk === 'hang') return new Promise<void>(() => {});
      if (chunk === undefined) controller.close();
      else controller.enqueue(utf8.encode(chunk));
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { stream, state };
}

/** What an Observable did, with every error rxjs reported as unhandled meanwhile. */
function outcome<T>(
  events$: Observable<T>,
): Promise<{ values: T[]; error: unknown; completed: boolean; unhandled: unknown[] }> {
  const unhandled: unknown[] = [];
  const previous = config.onUnhandledError;
  config.onUnhandledError = (error) => unhandled.push(error);
  return new Promise((resolve) => {
    const values: T[] = [];
    const done = (error: unknown, completed: boolean) =>
      // Unhandled errors are reported on a timer: wait one turn before looking.
      setTimeout(() => {
        config.onUnhandledError = previous;
        resolve({ values, error, completed, unhandled });
      }, 10);
    events$.subscribe({
      next: (value) => values.push(value),
      error: (error: unknown) => done(error, false),
      complete: () => done(undefined, true),
    });
  });
}

const turn = (seq: number): CallfoldEvent => ({ type: 'turn/start', seq, turnId: `t${seq}` });
const nextTurn = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('hostile event streams', () => {
  // Failed before: uncaught, then completed normally.
  it('fails decodeSSE with the error onEventId throws', async () => {
    const { stream, state } = source([encodeSSE(turn(1)), encodeSSE(turn(2)), encodeSSE(turn(3))]);
    const thrown = new Error('onEventId failed');
    const result = await outcome(
      decodeSSE(stream, {
        onEventId: (id) => {
          if (id === '2') throw thrown;
        },
      }),
    );
    expect(result.unhandled).to.deep.equal([]);
    expect(result.completed).to.equal(false);
    expect(result.error).to.equal(thrown);
    expect(result.values.map((e) => (e as { seq: number }).seq)).to.deep.equal([1]);
    expect(state.cancelled).to.equal(true);
    expect(stream.locked).to.equal(false);
  });

  // Failed before: buffered without bound.
  it('fails readSSE with an SSEError on a line that never ends, cancelling the body', async () => {
    const { stream, state } = source(['data: x\n\n', 'data: '], 'y'.repeat(64 * 1024));
    const result = await outcome(readSSE(stream, { maxLength: 1024 * 1024 }));
    expect(result.unhandled).to.deep.equal([]);
    expect(result.values.map((m) => m.data)).to.deep.equal(['x']);
    expect(result.error).to.be.instanceOf(SSEError);
    expect((result.error as Error).message).to.equal(
      'event stream: a line longer than 1048576 characters (the decoder’s maxLength)'.replace(
        '’',
        "'",
      ),
    );
    // 1 MiB of 64 KiB reads, and not one read past the error (plus the pull in flight).
    expect(state.pulls).to.be.within(17, 20);
    expect(state.cancelled).to.equal(true);
    expect(stream.locked).to.equal(false);
  });

  it('bounds a message made of many short data lines the same way', async () => {
    const { stream } = source([], 'data: 0123456789\n', 100_000);
    const result = await outcome(decodeSSE(stream, { maxLength: 100_000 }));
    expect(result.unhandled).to.deep.equal([]);
    expect((result.error as Error).message).to.match(/a message longer than 100000 characters/);
  });

  it('keeps the limit exact: a line of maxLength passes, one more unit fails, however it is cut', () => {
    for (const cut of [1, 7, 100, 1000]) {
      const decoder = new SSEDecoder({ maxLength: 1000 });
      const line = `data: ${'z'.repeat(994)}`;
      let messages = 0;
      for (let i = 0; i < line.length; i += cut)
        messages += decoder.push(line.slice(i, i + cut)).length;
      messages += decoder.push('\n\n').length;
      expect(messages, `cut ${cut}`).to.equal(1);
      const failing = new SSEDecoder({ maxLength: 1000 });
      expect(() => {
        for (let i = 0; i <= line.length; i += cut) failing.push(`${line}z`.slice(i, i + cut));
        failing.push('\n');
      }, `cut ${cut}`).to.throw(SSEError);
    }
  });

  // Failed before: the stream stayed locked.
  it('releases the body’s reader lock on unsubscribe', async () => {
    const { stream, state } = source([encodeSSE(turn(1))], 'hang');
    const subscription = decodeSSE(stream).subscribe();
    await nextTurn();
    expect(stream.locked).to.equal(true);
    subscription.unsubscribe();
    await nextTurn();
    expect(state.cancelled).to.equal(true);
    expect(stream.locked).to.equal(false);
  });

  it('fails on a malformed message without any uncaught error, and releases the lock', async () => {
    const { stream, state } = source([
      encodeSSE(turn(1)),
      'data: {"type":"turn/start","seq":\n\n',
      encodeSSE(turn(3)),
    ]);
    const result = await outcome(decodeSSE(stream));
    expect(result.unhandled).to.deep.equal([]);
    expect(result.error).to.be.instanceOf(SSEError);
    expect(state.cancelled).to.equal(true);
    expect(stream.locked).to.equal(false);
  });
});
