import { expect } from 'chai';
import fc from 'fast-check';
import { SSEDecoder } from '../../src/wire/sse-decoder.js';
import { cutAt } from '../events/arbitraries.js';
import { describe, it } from '../harness.js';

/** Messages as `{ event, data }`, the stream's last message kept with `end({ flush: true })`. */
function decode(pieces: readonly string[]): { event: string; data: string }[] {
  const decoder = new SSEDecoder();
  const out = pieces.flatMap((piece) => decoder.push(piece));
  out.push(...decoder.end({ flush: true }));
  return out.map(({ event, data }) => ({ event, data }));
}

const sample =
  '\uFEFFevent: message_start\r\ndata: {"a":1}\r\n\r\n: keep-alive\n\nid: 7\ndata: one\ndata:two\rretry: 10\r\rdata\n\nevent: ping\ndata: {"type": "ping"}\n\ndata: [DONE]\n';

describe('SSEDecoder with end({ flush: true })', () => {
  it('follows the event-stream rules: line ends, BOM, comments, multi-line data, empty data', () => {
    expect(decode([sample])).to.deep.equal([
      { event: 'message_start', data: '{"a":1}' },
      { event: 'message', data: 'one\ntwo' },
      { event: 'message', data: '' },
      { event: 'ping', data: '{"type": "ping"}' },
      { event: 'message', data: '[DONE]' },
    ]);
  });

  it('gives the same messages for any cut of the text, CRLF split included', () => {
    const whole = decode([sample]);
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 20 }), (points) => {
        expect(decode(cutAt(sample, points))).to.deep.equal(whole);
      }),
    );
    expect(decode(['data: a\r', '\ndata: b\r', '\r', '\n'])).to.deep.equal([
      { event: 'message', data: 'a\nb' },
    ]);
  });

  it('joins a long line that arrives in many pieces', () => {
    const data = 'x'.repeat(300_000);
    const pieces = cutAt(
      `data: ${data}\n\n`,
      Array.from({ length: 300 }, (_, i) => i * 1000 + 3),
    );
    expect(decode(pieces)).to.deep.equal([{ event: 'message', data }]);
  });
});
