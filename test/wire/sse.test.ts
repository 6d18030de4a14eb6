import { expect } from 'chai';
import fc from 'fast-check';
import { firstValueFrom, from, lastValueFrom, Subject, toArray } from 'rxjs';
import { type CallfoldEvent, isDurableEvent } from '../../src/events/types.js';
import { EventError } from '../../src/events/validate.js';
import { decodeSSE, encodeSSE, encodeSSEStream, parseLastEventId } from '../../src/wire/sse.js';
import { readSSE, SSEDecoder, SSEError, type SSEMessage } from '../../src/wire/sse-decoder.js';
import { event } from '../events/arbitraries.js';
import { describe, it } from '../harness.js';

const utf8 = new TextEncoder();
const settle: CallfoldEvent = { type: 'stream/settle', attemptId: 'a' };
const turn: CallfoldEvent = { type: 'turn/start', seq: 7, turnId: 't1' };

/** A body stream handing out `chunks` one read at a time; `cancelled` says whether it was cancelled. */
function body(chunks: readonly Uint8Array[]): ReadableStream<Uint8Array> & { cancelled: boolean } {
  let i = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks[i++];
      if (chunk) controller.enqueue(chunk);
      else controller.close();
    },
    cancel() {
      state.cancelled = true;
    },
  });
  const state = Object.assign(stream, { cancelled: false });
  return state;
}

/** `bytes` cut at `points`. */
function cut(bytes: Uint8Array, points: readonly number[]): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  let start = 0;
  for (const point of [...points, bytes.length]) {
    chunks.push(bytes.subarray(start, point));
    start = point;
  }
  return chunks;
}

/** Every message of `text` pushed through one SSEDecoder in `pieces`. */
function messages(...pieces: string[]): SSEMessage[] {
  const decoder = new SSEDecoder();
  const out = pieces.flatMap((piece) => decoder.push(piece));
  decoder.end();
  return out;
}

async function decodeAll(chunks: readonly Uint8Array[]) {
  const ids: string[] = [];
  const events = await lastValueFrom(
    decodeSSE(body(chunks), { onEventId: (id) => ids.push(id) }).pipe(toArray()),
  );
  return { events, ids };
}

/** The SSE text of `events` with CRLF or CR line ends, comments and foreign messages mixed in. */
const wire = fc
  .tuple(
    fc.array(event, { maxLength: 10 }),
    fc.constantFrom('\n', '\r\n', '\r'),
    fc.array(fc.constantFrom('', ': ping\n', 'retry: 300\n', 'event: other\ndata: x\n\n')),
  )
  .map(([events, newline, extras]) => {
    const text = events
      .map((e, i) => (extras[i] ?? '') + encodeSSE(e))
      .join('')
      .replaceAll('\n', newline);
    return { events, bytes: utf8.encode(text) };
  });

describe('encodeSSE', () => {
  it('writes id: seq for durable events, then one data line, then a blank line', () => {
    expect(encodeSSE(turn)).to.equal(`id: 7\ndata: ${JSON.stringify(turn)}\n\n`);
    expect(encodeSSE(settle)).to.equal(`data: ${JSON.stringify(settle)}\n\n`);
    const multiline: CallfoldEvent = {
      type: 'stream/text-delta',
      attemptId: 'a',
      block: 0,
      text: 'a\r\nb\rc\n\u2028',
    };
    const encoded = encodeSSE(multiline);
    expect(encoded.slice(0, -2)).not.to.match(/[\r\n]/);
    expect(encoded).not.to.include('event:');
  });

  it('refuses an invalid event', () => {
    expect(() => encodeSSE({ type: 'stream/settle' } as CallfoldEvent)).to.throw(EventError);
  });

  it('parses Last-Event-ID headers back to seqs', () => {
    expect(parseLastEventId('7')).to.equal(7);
    expect(parseLastEventId('-2.5')).to.equal(-2.5);
    expect(parseLastEventId(String(1e21))).to.equal(1e21);
    for (const bad of [null, undefined, '', ' ', 'x', 'Infinity', 'NaN']) {
      expect(parseLastEventId(bad), String(bad)).to.equal(undefined);
    }
  });
});

describe('SSEDecoder', () => {
  it('follows the HTML standard examples', () => {
    expect(messages('data: YHOO\ndata: +2\ndata: 10\n\n').map((m) => m.data)).to.deep.equal([
      'YHOO\n+2\n10',
    ]);
    const decoder = new SSEDecoder();
    const out = decoder.push(
      ': test stream\n\ndata: first event\nid: 1\n\ndata:second event\nid\n\ndata:  third event\n',
    );
    expect(out).to.deep.equal([
      { event: 'message', data: 'first event', lastEventId: '1' },
      { event: 'message', data: 'second event', lastEventId: '' },
    ]);
    decoder.end();
    expect(messages('data\n\ndata\ndata\n\ndata:').map((m) => m.data)).to.deep.equal(['', '\n']);
    expect(messages('data:test\n\ndata: test\n\n').map((m) => m.data)).to.deep.equal([
      'test',
      'test',
    ]);
  });

  it('keeps the last event ID across messages and lets an id-only message move it', () => {
    const decoder = new SSEDecoder();
    expect(decoder.push('id: 3\ndata: a\n\ndata: b\n\nid: 4\n\n')).to.deep.equal([
      { event: 'message', data: 'a', lastEventId: '3' },
      { event: 'message', data: 'b', lastEventId: '3' },
    ]);
    expect(decoder.lastEventId).to.equal('4');
    decoder.push('id: x\0y\n\nid: 5\ndata: unfinished\n');
    expect(decoder.lastEventId).to.equal('4');
    decoder.end();
    expect(decoder.lastEventId).to.equal('4');
  });

  it('reads event names, retry and fields without a colon', () => {
    const decoder = new SSEDecoder();
    const out = decoder.push('event: ping\ndata\nretry: 250\n\nretry: 2s\nevent\ndata: x\n\n');
    expect(out).to.deep.equal([
      { event: 'ping', data: '', lastEventId: '' },
      { event: 'message', data: 'x', lastEventId: '' },
    ]);
    expect(decoder.retry).to.equal(250);
  });

  it('splits lines at CRLF, CR and LF wherever the chunks are cut, and drops one BOM', () => {
    const text = '\ufeffdata: a\r\ndata: b\rdata: c\n\r\n: x\r\rdata: \ufeffd\n\n';
    const whole = messages(text);
    expect(whole.map((m) => m.data)).to.deep.equal(['a\nb\nc', '\ufeffd']);
    for (let size = 1; size <= text.length; size++) {
      const pieces: string[] = [];
      for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
      expect(messages(...pieces), `chunk size ${size}`).to.deep.equal(whole);
    }
    expect(messages('\r', '\n', 'data: a\r', '', '\n\n').map((m) => m.data)).to.deep.equal(['a']);
  });
});

describe('decodeSSE', () => {
  it('round-trips any events cut anywhere in their UTF-8 bytes, tracking the last seq', async () => {
    const cases = wire.chain(({ events, bytes }) =>
      fc.tuple(
        fc.constant(events),
        fc.constant(bytes),
        fc
          .uniqueArray(fc.nat({ max: bytes.length }), { maxLength: 24 })
          .map((p) => p.sort((a, b) => a - b)),
      ),
    );
    await fc.assert(
      fc.asyncProperty(cases, async ([events, bytes, points]) => {
        const { events: decoded, ids } = await decodeAll(cut(bytes, points));
        expect(decoded).to.deep.equal(events);
        const seqs = events.filter(isDurableEvent).map((e) => String(e.seq));
        expect(ids).to.deep.equal(seqs.filter((id, i) => id !== (i === 0 ? '' : seqs[i - 1])));
      }),
    );
  });

  it('decodes multi-byte characters, CRLF and multi-line data at every chunk size', async () => {
    const events: CallfoldEvent[] = [
      { type: 'stream/text-delta', attemptId: 'é', block: 0, text: '😀 日本 é\u2028' },
      { type: 'tool/call', seq: 1, callId: 'c', name: 'Write', args: { path: 'ü/😀' } },
      settle,
    ];
    const json = JSON.stringify(settle);
    const comma = json.indexOf(',') + 1;
    const text =
      `: hello\r\n${encodeSSE(events[0] as CallfoldEvent).replaceAll('\n', '\r\n')}` +
      `${encodeSSE(events[1] as CallfoldEvent)}data: ${json.slice(0, comma)}\r\ndata: ${json.slice(comma)}\r\n\r\n`;
    const bytes = utf8.encode(text);
    for (let size = 1; size <= bytes.length; size++) {
      const points: number[] = [];
      for (let i = size; i < bytes.length; i += size) points.push(i);
      const { events: decoded, ids } = await decodeAll(cut(bytes, points));
      expect(decoded, `chunk size ${size}`).to.deep.equal(events);
      expect(ids).to.deep.equal(['1']);
    }
  });

  it('reports an id-only message as a new last event ID', async () => {
    const { events, ids } = await decodeAll([utf8.encode('id: 9\n\n')]);
    expect(events).to.deep.equal([]);
    expect(ids).to.deep.equal(['9']);
  });

  it('fails with an SSEError for data that is not a CallfoldEvent, before reporting its ID', async () => {
    for (const [data, cause] of [
      ['{nope', SyntaxError],
      ['{"type":"stream/settle"}', EventError],
    ] as const) {
      const ids: string[] = [];
      const chunks = [utf8.encode(`${encodeSSE(turn)}id: 8\ndata: ${data}\n\n`)];
      const error = await lastValueFrom(
        decodeSSE(body(chunks), { onEventId: (id) => ids.push(id) }),
      ).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).to.be.instanceOf(SSEError);
      expect((error as SSEError).cause).to.be.instanceOf(cause);
      expect(ids).to.deep.equal(['7']);
    }
  });

  it('reads a Response or a promise of one, and fails on an HTTP error status', async () => {
    const text = encodeSSE(turn) + encodeSSE(settle);
    expect(await lastValueFrom(decodeSSE(new Response(text)).pipe(toArray()))).to.deep.equal([
      turn,
      settle,
    ]);
    const promised = decodeSSE(Promise.resolve(new Response(text)));
    expect(await lastValueFrom(promised.pipe(toArray()))).to.have.length(2);
    const failed = await lastValueFrom(decodeSSE(new Response('oops', { status: 503 }))).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(failed).to.be.instanceOf(SSEError);
    expect((failed as Error).message).to.include('503');
    expect(await lastValueFrom(decodeSSE(new Response(null)).pipe(toArray()))).to.deep.equal([]);
  });

  it('cancels the body when unsubscribed', async () => {
    const stream = body([utf8.encode(encodeSSE(turn)), utf8.encode(encodeSSE(settle))]);
    expect(await firstValueFrom(decodeSSE(stream))).to.deep.equal(turn);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(stream.cancelled).to.equal(true);
  });
});

describe('readSSE', () => {
  it('passes every message on, named ones included', async () => {
    const text = 'event: ping\ndata: {}\n\ndata: [DONE]\n\n';
    const out = await lastValueFrom(readSSE(body([utf8.encode(text)])).pipe(toArray()));
    expect(out.map((m) => [m.event, m.data])).to.deep.equal([
      ['ping', '{}'],
      ['message', '[DONE]'],
    ]);
  });
});

describe('encodeSSEStream', () => {
  it('round-trips an AsyncIterable and an Observable through a Response', async () => {
    const events = [turn, settle, { ...turn, seq: 8 }];
    async function* generate() {
      yield* events;
    }
    for (const source of [generate(), from(events)]) {
      const response = new Response(encodeSSEStream(source));
      expect(await lastValueFrom(decodeSSE(response).pipe(toArray()))).to.deep.equal(events);
    }
  });

  it('pulls an AsyncIterable as read and returns it when cancelled', async () => {
    let pulled = 0;
    let returned = false;
    async function* generate() {
      try {
        for (;;) {
          pulled++;
          yield settle;
        }
      } finally {
        returned = true;
      }
    }
    const reader = encodeSSEStream(generate()).getReader();
    await reader.read();
    await reader.read();
    expect(pulled).to.be.lessThan(5);
    await reader.cancel();
    expect(returned).to.equal(true);
  });

  it('unsubscribes from an Observable when cancelled', async () => {
    const subject = new Subject<CallfoldEvent>();
    const reader = encodeSSEStream(subject).getReader();
    subject.next(turn);
    const { value } = await reader.read();
    expect(new TextDecoder().decode(value)).to.equal(encodeSSE(turn));
    await reader.cancel();
    expect(subject.observed).to.equal(false);
  });

  it('errors the stream on an invalid event', async () => {
    const bad = { type: 'tool/call', seq: 1 } as CallfoldEvent;
    for (const source of [
      from([settle, bad]),
      (async function* () {
        yield settle;
        yield bad;
      })(),
    ]) {
      const reader = encodeSSEStream(source).getReader();
      const error = await (async () => {
        for (;;) {
          const { done } = await reader.read();
          if (done) return undefined;
        }
      })().catch((e: unknown) => e);
      expect(error).to.be.instanceOf(EventError);
    }
  });
});
