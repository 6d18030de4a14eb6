/**
 * Hostile Gemini streams: what a third-party endpoint (or a proxy) can put in
 * `streamGenerateContent` chunks and Vertex AI's `partialArgs` paths. Nothing is thrown,
 * sizes stay bounded, no prototype is polluted, each bad piece goes to `onMalformed`, and
 * the good call beside it is dispatched.
 */
import { expect } from 'chai';
import type { CallfoldEvent } from '../../src/events/types.js';
import { jsonStringText } from '../../src/internal/json-string-text.js';
import { fromGemini } from '../../src/providers/gemini.js';
import { MAX_PATH_DEPTH, MAX_PATH_LENGTH } from '../../src/providers/gemini-json-path.js';
import { PartialArgsWriter } from '../../src/providers/gemini-partial-args.js';
import type { ProviderStreamError } from '../../src/providers/provider-stream-error.js';
import { describe, it } from '../harness.js';
import { fixedSession } from '../providers/support/cases.js';
import { collect } from '../providers/support/fixtures.js';
import { checkInvariants } from '../providers/support/invariants.js';
import { ofType } from '../providers/support/run.js';

const parts = (...list: unknown[]) => ({
  candidates: [{ content: { role: 'model', parts: list } }],
});
const entry = (jsonPath: unknown, value: Record<string, unknown>) => ({ jsonPath, ...value });
const streamed = (...entries: unknown[]) =>
  parts({ functionCall: { partialArgs: entries, willContinue: true } });
const opened = (name: string) => parts({ functionCall: { name, willContinue: true } });
const closed = {
  candidates: [{ content: { parts: [{ functionCall: {} }] }, finishReason: 'STOP' }],
};
const goodCall = parts({ functionCall: { name: 'Read', args: { file_path: 'a.ts' } } });

/** Folds `chunks` with malformed reports gathered; checks the invariants and that `Read` was dispatched. */
async function run(
  chunks: readonly unknown[],
): Promise<{ events: CallfoldEvent[]; reports: ProviderStreamError[] }> {
  const reports: ProviderStreamError[] = [];
  const outcome = await collect(
    fromGemini([goodCall, ...chunks], {
      session: fixedSession(),
      onMalformed: (e) => void reports.push(e),
    }),
  );
  expect(outcome.error).to.equal(undefined);
  checkInvariants(outcome.events);
  const calls = ofType(outcome.events, 'tool/call');
  expect(calls.find((c) => c.name === 'Read')?.args).to.deep.equal({ file_path: 'a.ts' });
  return { events: outcome.events, reports };
}

function argsOf(events: readonly CallfoldEvent[], name: string): unknown {
  const call = ofType(events, 'tool/call').find((c) => c.name === name);
  return typeof call?.args === 'string' ? JSON.parse(call.args) : call?.args;
}

describe('hostile Gemini streams', () => {
  it('$.__proto__, $.constructor.prototype: plain keys of the arguments, no prototype touched', async () => {
    const { events, reports } = await run([
      opened('f'),
      streamed(entry('$.__proto__.polluted', { stringValue: 'yes' })),
      streamed(entry('$.constructor.prototype.polluted', { boolValue: true })),
      streamed(entry("$['__proto__'].x", { numberValue: 1 })),
      closed,
    ]);
    expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
    expect(Object.prototype).not.to.have.property('x');
    const text = ofType(events, 'stream/block-end').find((e) => e.callId === 'a1:1')?.text;
    // The third goes back into a closed object: the arguments are rebuilt from the tree.
    expect(text).to.equal(
      '{"__proto__":{"polluted":"yes","x":1},"constructor":{"prototype":{"polluted":true}}}',
    );
    const parsed = JSON.parse(text as string) as Record<string, unknown>;
    expect(Object.hasOwn(parsed, '__proto__')).to.equal(true);
    expect(reports.map((r) => r.message)).to.deep.equal([]);
  });

  it('an absurd index ([99999999]) and a gap are skipped and reported, allocating nothing', async () => {
    const { events, reports } = await run([
      opened('f'),
      streamed(entry('$.list[99999999]', { stringValue: 'x' })),
      streamed(entry('$.list[0]', { stringValue: 'a' })),
      streamed(entry('$.list[2]', { stringValue: 'gap' })),
      streamed(entry('$.list[1]', { stringValue: 'b' })),
      closed,
    ]);
    expect(argsOf(events, 'f')).to.deep.equal({ list: ['a', 'b'] });
    expect(reports.map((r) => r.message)).to.deep.equal([
      'partialArgs: index past the end of its array: $.list[99999999]',
      'partialArgs: index past the end of its array: $.list[2]',
    ]);
    expect(reports[0]?.provider).to.equal('gemini');
  });

  it('a path deeper than MAX_PATH_DEPTH, longer than MAX_PATH_LENGTH or with an index of 10 digits is reported', async () => {
    const deep = `$${'.a'.repeat(MAX_PATH_DEPTH + 1)}`;
    const long = `$.${'k'.repeat(MAX_PATH_LENGTH)}`;
    const { events, reports } = await run([
      opened('f'),
      streamed(entry(deep, { stringValue: 'x' })),
      streamed(entry(long, { stringValue: 'x' })),
      streamed(entry('$.a[1234567890]', { stringValue: 'x' })),
      streamed(entry(`$${'.b'.repeat(MAX_PATH_DEPTH)}`, { numberValue: 1 })),
      closed,
    ]);
    expect(reports.map((r) => r.message.split(':')[1]?.trim())).to.deep.equal([
      'jsonPath too deep',
      'jsonPath too long',
      'bad index in jsonPath',
    ]);
    let value = argsOf(events, 'f') as Record<string, unknown>;
    for (let i = 0; i < MAX_PATH_DEPTH - 1; i++) value = value.b as Record<string, unknown>;
    expect(value).to.deep.equal({ b: 1 });
  });

  it('malformed paths, values and parts are each reported; nothing is thrown', async () => {
    const { events, reports } = await run([
      opened('f'),
      streamed(
        entry('location', { stringValue: 'x' }),
        entry('$..a', { stringValue: 'x' }),
        entry('$[abc]', { stringValue: 'x' }),
        entry('$.a[', { stringValue: 'x' }),
        entry('$[0]', { stringValue: 'x' }),
        entry("$['a", { stringValue: 'x' }),
        entry(42, { stringValue: 'x' }),
        entry('$.n', { numberValue: 'NaN' }),
        entry('$.b', { boolValue: 'yes' }),
        'not an entry',
        null,
        entry('$.ok', { stringValue: 'fine' }),
        entry('$.ok.deeper', { stringValue: 'x' }),
      ),
      parts(7, null, 'text'),
      { candidates: 'none' },
      { candidates: [{ content: { parts: 'none' } }] },
      closed,
      parts({ functionCall: { partialArgs: [entry('$.late', { stringValue: 'x' })] } }),
      parts({ functionResponse: { name: 'nobody', response: {} } }),
    ]);
    expect(argsOf(events, 'f')).to.deep.equal({ ok: 'fine' });
    expect(reports).to.have.length(17);
    expect(reports.every((r) => r.provider === 'gemini')).to.equal(true);
    expect(reports.at(-1)?.message).to.equal('functionResponse answers no call of this response');
  });

  it('onMalformed that throws fails the stream with its error, after settling', async () => {
    const failure = new Error('strict');
    const outcome = await collect(
      fromGemini([opened('f'), streamed(entry('$.a[5]', { stringValue: 'x' })), closed], {
        session: fixedSession(),
        onMalformed: () => {
          throw failure;
        },
      }),
    );
    expect(outcome.error).to.equal(failure);
    expect(outcome.events.at(-1)?.type).to.equal('stream/settle');
    expect(ofType(outcome.events, 'tool/call')).to.have.length(0);
  });

  it('50,000 entries in one chunk and a 1 MiB string in 64 KiB pieces: one pass, the text equals the arguments', async () => {
    const many = Array.from({ length: 50_000 }, (_, i) =>
      entry(`$.items[${i}]`, { numberValue: i }),
    );
    const piece = 'x'.repeat(64 * 1024);
    const pieces = Array.from({ length: 16 }, () =>
      streamed(entry('$.content', { stringValue: piece, willContinue: true })),
    );
    const { events } = await run([opened('f'), streamed(...many), ...pieces, closed]);
    const args = argsOf(events, 'f') as { items: number[]; content: string };
    expect(args.items).to.have.length(50_000);
    expect(args.content).to.have.length(16 * 64 * 1024);
    const end = ofType(events, 'stream/block-end').find((e) => e.callId === 'a1:1')?.text;
    const joined = ofType(events, 'stream/tool-call-delta')
      .filter((e) => e.callId === 'a1:1')
      .map((e) => e.args)
      .join('');
    expect(end).to.equal(joined);
  });

  it('an entry skipped between the pieces of a string leaves it open: the text stays the arguments', async () => {
    const { events, reports } = await run([
      opened('f'),
      streamed(entry('$.s', { stringValue: 'ab', willContinue: true })),
      streamed(entry('$.s.x', { stringValue: 'no' })),
      streamed(entry('$.list[3]', { stringValue: 'no' })),
      streamed(entry('$.s', { stringValue: 'cd' })),
      streamed(entry('$.t', { numberValue: 1 })),
      closed,
    ]);
    expect(reports.map((r) => r.message)).to.deep.equal([
      'partialArgs: path goes through a value of another kind: $.s.x',
      'partialArgs: index past the end of its array: $.list[3]',
    ]);
    const joined = ofType(events, 'stream/tool-call-delta')
      .filter((e) => e.callId === 'a1:1')
      .map((e) => e.args)
      .join('');
    expect(JSON.parse(joined)).to.deep.equal({ s: 'abcd', t: 1 });
    expect(argsOf(events, 'f')).to.deep.equal({ s: 'abcd', t: 1 });
  });

  it('a value through one of another kind is skipped; control characters and lone surrogates are escaped', () => {
    const writer = new PartialArgsWriter();
    let text = '';
    for (const e of [
      entry('$.a', { stringValue: 'x' }),
      entry('$.a.b', { stringValue: 'y' }),
      entry('$.s', { stringValue: '\u0000"\\\ud800', willContinue: true }),
      entry('$.s', { stringValue: '\udc00\n' }),
    ]) {
      const fragment = writer.write(e);
      if (fragment !== undefined) text += fragment;
    }
    text += writer.close();
    expect(writer.problem).to.equal('path goes through a value of another kind: $.a.b');
    expect(JSON.parse(text)).to.deep.equal({ a: 'x', s: '\u0000"\\\ud800\udc00\n' });
    // The same value; the pair split across two pieces stays escaped in the streamed text.
    expect(JSON.parse(text)).to.deep.equal(JSON.parse(writer.text()));
  });

  it('with decoded pieces (write(entry, true)), a continuing piece comes back as it was sent; escaped, the text is the same', () => {
    const entries = [
      entry('$.a', { stringValue: 'x' }),
      entry('$.s', { stringValue: '\u0000"\\\ud800', willContinue: true }),
      entry('$.s', { stringValue: '\udc00\n', willContinue: true }),
      entry('$.s', { stringValue: 'end' }),
      entry('$.t', { numberValue: 1 }),
    ];
    const plain = new PartialArgsWriter();
    const decoded = new PartialArgsWriter();
    let expected = '';
    let text = '';
    const flags: boolean[] = [];
    for (const e of entries) {
      expected += plain.write(e) ?? '';
      const fragment = decoded.write(e, true) ?? '';
      flags.push(decoded.decoded);
      text += decoded.decoded ? jsonStringText(fragment) : fragment;
    }
    expected += plain.close();
    text += decoded.close();
    expect(flags).to.deep.equal([false, false, true, false, false]);
    expect(text).to.equal(expected);
    expect(decoded.text()).to.equal(plain.text());
    expect(JSON.parse(decoded.text())).to.deep.equal({
      a: 'x',
      s: '\u0000"\\\ud800\udc00\nend',
      t: 1,
    });
  });
});
