/**
 * Hostile Bedrock `ConverseStream` bodies: event-stream frames a broken proxy or a hostile
 * endpoint can send. Frames are written here with the format's own rules (prelude, headers,
 * CRC-32s) so that each case breaks one thing; nothing is thrown out of the Observable, a
 * bad message goes to `onMalformed`, a lost framing fails the stream with a
 * `ProviderStreamError`, and the good call beside a bad message is dispatched.
 */
import { expect } from 'chai';
import type { CallfoldEvent } from '../../src/events/types.js';
import { crc32, MAX_MESSAGE_BYTES } from '../../src/providers/aws-event-stream.js';
import { fromBedrockConverse } from '../../src/providers/bedrock-converse.js';
import { ProviderStreamError } from '../../src/providers/provider-stream-error.js';
import { describe, it } from '../harness.js';
import { fixedSession } from '../providers/support/cases.js';
import { collect, type Outcome } from '../providers/support/fixtures.js';
import { checkInvariants } from '../providers/support/invariants.js';
import { ofType } from '../providers/support/run.js';

const utf8 = new TextEncoder();

/** One event-stream message with string headers. */
function frame(headers: Record<string, string>, body: string | Uint8Array): Uint8Array {
  const head: number[] = [];
  for (const [name, value] of Object.entries(headers)) {
    const n = utf8.encode(name);
    const v = utf8.encode(value);
    head.push(n.length, ...n, 7, v.length >> 8, v.length & 0xff, ...v);
  }
  const payload = typeof body === 'string' ? utf8.encode(body) : body;
  const total = 16 + head.length + payload.length;
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  view.setUint32(0, total);
  view.setUint32(4, head.length);
  view.setUint32(8, crc32(out, 0, 8));
  out.set(head, 12);
  out.set(payload, 12 + head.length);
  view.setUint32(total - 4, crc32(out, 0, total - 4));
  return out;
}

const event = (type: string, value: unknown) =>
  frame(
    { ':event-type': type, ':content-type': 'application/json', ':message-type': 'event' },
    JSON.stringify(value),
  );
const goodCall = [
  event('messageStart', { role: 'assistant' }),
  event('contentBlockStart', {
    contentBlockIndex: 0,
    start: { toolUse: { toolUseId: 't_ok', name: 'Read' } },
  }),
  event('contentBlockDelta', {
    contentBlockIndex: 0,
    delta: { toolUse: { input: '{"file_path":"a.ts"}' } },
  }),
  event('contentBlockStop', { contentBlockIndex: 0 }),
];
const stop = event('messageStop', { stopReason: 'tool_use' });

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

async function run(
  frames: readonly Uint8Array[],
): Promise<Outcome & { reports: ProviderStreamError[] }> {
  const reports: ProviderStreamError[] = [];
  const body = new Response(concat(frames) as BodyInit);
  const outcome = await collect(
    fromBedrockConverse(body, {
      session: fixedSession(),
      onMalformed: (e) => void reports.push(e),
    }),
  );
  checkInvariants(outcome.events);
  return { ...outcome, reports };
}

function dispatched(events: readonly CallfoldEvent[]): string[] {
  return ofType(events, 'tool/call').map((c) => `${c.name} ${c.args}`);
}

describe('hostile Bedrock event streams', () => {
  it('a message with a bad checksum, one without a type and one whose payload is not JSON are skipped and reported', async () => {
    const corrupted = event('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'x' } });
    corrupted[corrupted.length - 5] = (corrupted[corrupted.length - 5] as number) ^ 0x20;
    const { events, error, reports } = await run([
      ...goodCall,
      corrupted,
      frame({ ':message-type': 'event' }, '{}'),
      frame({ ':event-type': 'contentBlockDelta', ':message-type': 'event' }, '{not json'),
      stop,
    ]);
    expect(error).to.equal(undefined);
    expect(dispatched(events)).to.deep.equal(['Read {"file_path":"a.ts"}']);
    expect(reports.map((r) => r.message)).to.deep.equal([
      'event stream message checksum mismatch',
      'event stream message without a type (event)',
      'event payload is not JSON',
    ]);
    expect(reports.every((r) => r.provider === 'bedrock-converse')).to.equal(true);
  });

  it('a corrupted prelude, an absurd length or headers past the message fail the stream, after settling', async () => {
    const lengths = [
      (() => {
        const f = event('messageStop', { stopReason: 'end_turn' });
        f[1] = (f[1] as number) ^ 0x01;
        return f;
      })(),
      (() => {
        const f = new Uint8Array(16);
        const view = new DataView(f.buffer);
        view.setUint32(0, MAX_MESSAGE_BYTES + 1);
        view.setUint32(8, crc32(f, 0, 8));
        return f;
      })(),
      (() => {
        const f = new Uint8Array(16);
        const view = new DataView(f.buffer);
        view.setUint32(0, 16);
        view.setUint32(4, 64);
        view.setUint32(8, crc32(f, 0, 8));
        return f;
      })(),
    ];
    const messages: string[] = [];
    for (const bad of lengths) {
      const { events, error } = await run([...goodCall, bad, stop]);
      expect(error).to.be.instanceOf(ProviderStreamError);
      messages.push((error as Error).message);
      expect(events.at(-1)?.type).to.equal('stream/settle');
      expect(ofType(events, 'tool/call')).to.have.length(0);
    }
    expect(messages).to.deep.equal([
      'event stream prelude checksum mismatch',
      `event stream message of ${MAX_MESSAGE_BYTES + 1} bytes`,
      'event stream headers of 64 bytes',
    ]);
  });

  it('an exception message fails the stream with its message; an error message too', async () => {
    const exception = frame(
      {
        ':exception-type': 'throttlingException',
        ':content-type': 'application/json',
        ':message-type': 'exception',
      },
      '{"message":"Too many requests"}',
    );
    const one = await run([...goodCall, exception, stop]);
    expect(one.error).to.be.instanceOf(ProviderStreamError);
    expect((one.error as Error).message).to.equal('Too many requests');
    const failure = frame(
      { ':message-type': 'error', ':error-code': 'InternalFailure', ':error-message': 'oops' },
      '',
    );
    const two = await run([...goodCall, failure, stop]);
    expect((two.error as Error).message).to.equal('InternalFailure: oops');
  });

  it('an event type named __proto__ or constructor pollutes nothing and is ignored', async () => {
    const { events, reports } = await run([
      ...goodCall,
      event('__proto__', { polluted: true }),
      event('constructor', { prototype: { polluted: true } }),
      stop,
    ]);
    expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
    expect(dispatched(events)).to.deep.equal(['Read {"file_path":"a.ts"}']);
    expect(reports).to.deep.equal([]);
  });

  it('a body cut inside a frame is a cut stream: settle alone', async () => {
    const body = concat([...goodCall, stop]);
    const { events, error } = await run([body.subarray(0, body.length - 3)]);
    expect(error).to.equal(undefined);
    expect(events.filter((e) => e.type === 'tool/call')).to.have.length(0);
    expect(events.at(-1)?.type).to.equal('stream/settle');
  });

  it('chunk objects that are not events, and deltas of unknown blocks, are ignored', async () => {
    const reports: ProviderStreamError[] = [];
    const outcome = await collect(
      fromBedrockConverse(
        [
          { contentBlockDelta: { contentBlockIndex: 9, delta: { toolUse: { input: 'x' } } } },
          { contentBlockDelta: { contentBlockIndex: 'a', delta: null } },
          { contentBlockStart: { contentBlockIndex: 1, start: { toolUse: null } } },
          { contentBlockStop: { contentBlockIndex: 7 } },
          { somethingNew: {} },
          7,
          { messageStop: { stopReason: 'end_turn' } },
        ],
        { session: fixedSession(), onMalformed: (e) => void reports.push(e) },
      ),
    );
    expect(outcome.error).to.equal(undefined);
    checkInvariants(outcome.events);
    expect(reports.map((r) => r.message)).to.deep.equal(['chunk is not an object']);
    expect(ofType(outcome.events, 'assistant/message')[0]?.stopReason).to.equal('end');
  });
});
