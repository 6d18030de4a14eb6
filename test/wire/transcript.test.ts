import { expect } from 'chai';
import fc from 'fast-check';
import type { CallfoldEvent } from '../../src/events/types.js';
import { EventError } from '../../src/events/validate.js';
import {
  decodeTranscript,
  encodeTranscript,
  encodeTranscriptLine,
  TranscriptDecoder,
  type TranscriptEntry,
  TranscriptError,
} from '../../src/wire/transcript.js';
import { cuts, entries, split } from '../events/arbitraries.js';
import { describe, it } from '../harness.js';

const settle: CallfoldEvent = { type: 'stream/settle', attemptId: 'a' };
const call: CallfoldEvent = { type: 'tool/call', seq: 1, callId: 'c', name: 'n', args: '{}' };
const line = (at: number, event: unknown = settle) => JSON.stringify({ at, event });

/** Decodes `pieces` through one TranscriptDecoder, collecting every entry. */
function streamed(pieces: readonly string[]): TranscriptEntry[] {
  const decoder = new TranscriptDecoder();
  const out: TranscriptEntry[] = [];
  for (const piece of pieces) out.push(...decoder.push(piece));
  out.push(...decoder.end());
  return out;
}

/** The TranscriptError that `run` throws; fails if it throws nothing or something else. */
function failure(run: () => unknown): TranscriptError {
  try {
    run();
  } catch (error) {
    if (error instanceof TranscriptError) return error;
    throw error;
  }
  throw new Error('no TranscriptError');
}

/** The same text with CRLF endings, a blank line first and a few blank lines between. */
function loosen(text: string): string {
  return `\r\n${text.replaceAll('\n', '\r\n\n')}`;
}

describe('encodeTranscript', () => {
  it('writes one JSON line per entry with a trailing newline', () => {
    const text = encodeTranscript([
      { at: 0, event: settle },
      { at: 12.5, event: call },
    ]);
    expect(text).to.equal(`${line(0)}\n${line(12.5, call)}\n`);
    expect(encodeTranscript([])).to.equal('');
  });

  it('keeps each line on one line whatever the strings hold', () => {
    const event: CallfoldEvent = {
      type: 'stream/text-delta',
      attemptId: 'a',
      block: 0,
      text: 'a\nb\r\nc\u2028d\u2029e"\\',
    };
    const encoded = encodeTranscriptLine({ at: 1, event });
    expect(encoded.endsWith('\n')).to.equal(true);
    expect(encoded.indexOf('\n')).to.equal(encoded.length - 1);
    expect(encoded).not.to.include('\r');
    expect(decodeTranscript(encoded)).to.deep.equal([{ at: 1, event }]);
  });

  it('refuses what it could not read back', () => {
    expect(() => encodeTranscriptLine({ at: -1, event: settle })).to.throw(RangeError);
    expect(() => encodeTranscriptLine({ at: Number.NaN, event: settle })).to.throw(RangeError);
    const bad = { type: 'stream/settle', attemptId: '' } as CallfoldEvent;
    expect(() => encodeTranscriptLine({ at: 0, event: bad })).to.throw(EventError);
    const invalid = failure(() =>
      encodeTranscript([
        { at: 0, event: settle },
        { at: 1, event: bad },
      ]),
    );
    expect(invalid.line).to.equal(2);
    expect(invalid.cause).to.be.instanceOf(EventError);
    const backwards = failure(() =>
      encodeTranscript([
        { at: 5, event: settle },
        { at: 5, event: settle },
        { at: 4, event: settle },
      ]),
    );
    expect(backwards.line).to.equal(3);
    expect(backwards.reason).to.equal('"at" must not decrease (4 after 5)');
  });
});

describe('decodeTranscript', () => {
  it('round-trips any entries', () => {
    fc.assert(
      fc.property(entries, (list) => {
        expect(decodeTranscript(encodeTranscript(list))).to.deep.equal(list);
      }),
    );
  });

  it('accepts CRLF endings, blank lines, no final newline and a byte-order mark', () => {
    const expected = [
      { at: 0, event: settle },
      { at: 3, event: call },
    ];
    expect(decodeTranscript(`${line(0)}\r\n\r\n  \t\n${line(3, call)}`)).to.deep.equal(expected);
    expect(decodeTranscript(`\ufeff${line(0)}\n${line(3, call)}\n\n`)).to.deep.equal(expected);
    expect(decodeTranscript('')).to.deep.equal([]);
    expect(decodeTranscript('\n\r\n')).to.deep.equal([]);
  });

  it('returns a fresh entry per line, with the event as parsed', () => {
    const [entry] = decodeTranscript(`{"extra":1,"at":2,"event":${JSON.stringify(settle)}}`);
    expect(entry).to.deep.equal({ at: 2, event: settle });
  });

  it('pollutes nothing through "__proto__" keys', () => {
    const text =
      '{"__proto__":{"polluted":1},"at":0,"event":{"type":"tool/call","seq":1,"callId":"c",' +
      '"name":"n","args":{"__proto__":{"polluted":2}},"__proto__":{"polluted":3}}}\n';
    const [entry] = decodeTranscript(text);
    expect(entry?.event.type).to.equal('tool/call');
    expect(({} as { polluted?: unknown }).polluted).to.equal(undefined);
    expect(Object.getPrototypeOf(entry)).to.equal(Object.prototype);
  });

  describe('reports a malformed line with its 1-based number', () => {
    const good = line(1);
    const cases: readonly (readonly [string, string, number, RegExp])[] = [
      ['invalid JSON', `${good}\nnot json\n`, 2, /^invalid JSON: /],
      ['a truncated last line', `${good}\n${good.slice(0, -3)}`, 2, /^invalid JSON: /],
      ['an array', `${good}\n\n[1]\n`, 3, /^expected an object \{"at", "event"\}, got an array$/],
      ['null', 'null', 1, /got null$/],
      [
        'a missing at',
        '{"event":{"type":"stream/settle","attemptId":"a"}}',
        1,
        /"at" .*\(missing\)/,
      ],
      ['a string at', line('5' as never), 1, /"at" must be a finite number ≥ 0 \(got "5"\)/],
      ['a negative at', `${good}\r\n${line(-1)}\r\n`, 2, /"at" must be a finite number ≥ 0/],
      ['an infinite at', '{"at":1e400,"event":{}}', 1, /got Infinity/],
      [
        'a decreasing at',
        `${line(3)}\n${line(3)}\n${line(2)}\n`,
        3,
        /must not decrease \(2 after 3\)/,
      ],
      ['a missing event', `${good}\n{"at":2}`, 2, /^"event" is missing$/],
      [
        'an invalid event',
        `${good}\n${line(2, { type: 'tool/call', seq: 1, name: 'n', args: '' })}\n`,
        2,
        /^invalid event: tool\/call event: "callId" must be a non-empty string \(missing\)$/,
      ],
      ['an unknown event type', line(0, { type: 'tool/calls' }), 1, /"type" must be one of/],
    ];
    for (const [name, text, lineNumber, reason] of cases) {
      it(name, () => {
        for (const variant of [text, text.replaceAll('\n', '\r\n')]) {
          const error = failure(() => decodeTranscript(variant));
          expect(error.line).to.equal(lineNumber);
          expect(error.reason).to.match(reason);
          expect(error.message).to.equal(`transcript line ${lineNumber}: ${error.reason}`);
          expect(error.name).to.equal('TranscriptError');
        }
      });
    }
  });

  it('keeps the EventError as the cause of an invalid event', () => {
    const error = failure(() => decodeTranscript(line(0, { type: 'stream/settle' })));
    expect(error.cause).to.be.instanceOf(EventError);
    expect((error.cause as EventError).field).to.equal('attemptId');
  });
});

describe('TranscriptDecoder', () => {
  it('decodes text cut at any points as decodeTranscript does the whole', () => {
    const textAndCuts = entries
      .chain((list) => fc.constantFrom(encodeTranscript(list), loosen(encodeTranscript(list))))
      .chain((text) => fc.tuple(fc.constant(text), cuts(text.length)));
    fc.assert(
      fc.property(textAndCuts, ([text, points]) => {
        expect(streamed(split(text, points))).to.deep.equal(decodeTranscript(text));
      }),
    );
  });

  it('decodes a transcript at every chunk size', () => {
    const text = loosen(
      encodeTranscript([
        { at: 0, event: settle },
        { at: 1, event: { type: 'stream/text-delta', attemptId: 'a', block: 0, text: '😀\r\n' } },
        { at: 2, event: call },
      ]),
    ).slice(0, -2);
    const whole = decodeTranscript(text);
    expect(whole).to.have.length(3);
    for (let size = 1; size <= text.length; size++) {
      const pieces: string[] = [];
      for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
      expect(streamed(pieces), `chunk size ${size}`).to.deep.equal(whole);
    }
  });

  it('returns entries as soon as their line is complete', () => {
    const decoder = new TranscriptDecoder();
    const [first, second] = [line(0), line(1, call)];
    expect(decoder.push(first.slice(0, 5))).to.deep.equal([]);
    expect(decoder.push(`${first.slice(5)}\r`)).to.deep.equal([]);
    expect(decoder.push(`\n${second}`)).to.deep.equal([{ at: 0, event: settle }]);
    expect(decoder.end()).to.deep.equal([{ at: 1, event: call }]);
    expect(decoder.end()).to.deep.equal([]);
    expect(() => decoder.push('')).to.throw(Error, 'push() after end()');
  });

  it('numbers lines across chunks and goes on after a bad line', () => {
    const decoder = new TranscriptDecoder();
    expect(decoder.push(`${line(0)}\n\n`)).to.have.length(1);
    const error = failure(() => decoder.push(`${line(1)}\n{oops\n${line(2)}\n${line(3)}`));
    expect(error.line).to.equal(4);
    expect(decoder.push('').map((e) => e.at)).to.deep.equal([1, 2]);
    expect(decoder.end().map((e) => e.at)).to.deep.equal([3]);
  });

  it('reports a bad last line from end() and still hands over the entries before it', () => {
    const decoder = new TranscriptDecoder();
    const error = failure(() => {
      decoder.push(`${line(0)}\r\n${line(1)}\n`);
      decoder.push('{"at":0.5,');
      decoder.end();
    });
    expect(error.line).to.equal(3);
    const fresh = new TranscriptDecoder();
    fresh.push(`${line(0)}\n${line(5)}\n{"at":0.5,`);
    expect(() => fresh.end()).to.throw(TranscriptError, 'transcript line 3');
    expect(fresh.end()).to.deep.equal([]);
  });
});
