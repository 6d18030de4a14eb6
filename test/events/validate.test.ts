import { expect } from 'chai';
import fc from 'fast-check';
import type { CallfoldEvent, CallfoldEventType } from '../../src/events/types.js';
import { EventError, isCallfoldEvent, parseEvent } from '../../src/events/validate.js';
import { describe, it } from '../harness.js';
import { event, eventsByType } from './arbitraries.js';

/** The EventError that parseEvent throws for `value`; fails if it accepts or throws another. */
function rejection(value: unknown): EventError {
  try {
    parseEvent(value);
  } catch (error) {
    if (error instanceof EventError) return error;
    throw error;
  }
  throw new Error(`accepted ${JSON.stringify(value)}`);
}

const minimal: { readonly [K in CallfoldEventType]: CallfoldEvent & { type: K } } = {
  'turn/start': { type: 'turn/start', seq: 1, turnId: 't1' },
  'turn/end': { type: 'turn/end', seq: 2, turnId: 't1' },
  'assistant/message': {
    type: 'assistant/message',
    seq: 3,
    messageId: 'm',
    attemptId: 'a',
    blocks: [],
  },
  'tool/call': { type: 'tool/call', seq: 4, callId: 'c', name: 'write', args: '' },
  'tool/result': { type: 'tool/result', seq: 5, callId: 'c', output: null },
  'tool/approval-request': { type: 'tool/approval-request', seq: 6, callId: 'c' },
  'tool/approval': { type: 'tool/approval', seq: 7, callId: 'c', approved: false },
  'stream/text-delta': { type: 'stream/text-delta', attemptId: 'a', block: 0, text: '' },
  'stream/tool-call-delta': {
    type: 'stream/tool-call-delta',
    attemptId: 'a',
    block: 1,
    callId: 'c',
    args: '',
  },
  'stream/block-end': { type: 'stream/block-end', attemptId: 'a', block: 0, text: '' },
  'stream/settle': { type: 'stream/settle', attemptId: 'a' },
};

const full: readonly CallfoldEvent[] = [
  { type: 'turn/start', seq: 1, at: 1_700_000_000_000, turnId: 't1' },
  {
    type: 'assistant/message',
    seq: 3,
    at: 0,
    messageId: 'm',
    attemptId: 'a',
    blocks: [
      { type: 'reasoning', text: 'think' },
      { type: 'text', text: '' },
      { type: 'tool-use', callId: 'c', name: 'write', argsText: '{"file_path":"a"}' },
    ],
  },
  { type: 'tool/call', seq: 4.5, at: -1, callId: 'c', name: 'write', args: { file_path: 'a' } },
  { type: 'tool/call', seq: -7, callId: 'c', name: 'write', args: Object.create(null) },
  { type: 'tool/result', seq: 5, callId: 'c', output: { lines: [1, 2] }, isError: true },
  { type: 'tool/result', seq: 6, callId: 'c', output: undefined, isError: false },
  { type: 'stream/text-delta', attemptId: 'a', block: 2, text: 'hi', reasoning: true },
  { type: 'stream/tool-call-delta', attemptId: 'a', block: 1, callId: 'a:1', name: 'x', args: '{' },
  { type: 'stream/block-end', attemptId: 'a', block: 1, callId: 'a:1', text: '{}' },
];

/** Each malformed value, with the field its EventError must name. */
const malformed: readonly (readonly [string, unknown, string])[] = [
  ['null', null, ''],
  ['undefined', undefined, ''],
  ['a number', 42, ''],
  ['a string', 'tool/call', ''],
  ['an array', [minimal['tool/call']], ''],
  ['a function', () => minimal['tool/call'], ''],
  ['an object without type', {}, 'type'],
  ['an unknown type', { ...minimal['tool/call'], type: 'tool/cal' }, 'type'],
  ['a numeric type', { ...minimal['tool/call'], type: 7 }, 'type'],
  ['an inherited type name', { ...minimal['tool/call'], type: 'constructor' }, 'type'],
  ['type "__proto__"', { ...minimal['tool/call'], type: '__proto__' }, 'type'],
  ['a missing seq', omit(minimal['tool/call'], 'seq'), 'seq'],
  ['free-form input other than "text"', { ...minimal['tool/call'], input: 'json' }, 'input'],
  [
    'free-form input with object args',
    { ...minimal['tool/call'], input: 'text', args: { patch: '' } },
    'args',
  ],
  [
    'an executor other than "provider"',
    { ...minimal['tool/result'], executor: 'host' },
    'executor',
  ],
  [
    'an empty providerCallId',
    { ...minimal['stream/tool-call-delta'], providerCallId: '' },
    'providerCallId',
  ],
  ['a delta with input "json"', { ...minimal['stream/tool-call-delta'], input: 'json' }, 'input'],
  ['an approval without approved', omit(minimal['tool/approval'], 'approved'), 'approved'],
  ['an approval with approved "yes"', { ...minimal['tool/approval'], approved: 'yes' }, 'approved'],
  [
    'an approval request without callId',
    omit(minimal['tool/approval-request'], 'callId'),
    'callId',
  ],
  ['an empty stopReason', { ...minimal['assistant/message'], stopReason: '' }, 'stopReason'],
  [
    'a tool-use block with incomplete "yes"',
    {
      ...minimal['assistant/message'],
      blocks: [{ type: 'tool-use', callId: 'c', name: 'n', argsText: '', incomplete: 'yes' }],
    },
    'blocks[0].incomplete',
  ],
  [
    'a tool-use block with executor "host"',
    {
      ...minimal['assistant/message'],
      blocks: [{ type: 'tool-use', callId: 'c', name: 'n', argsText: '', executor: 'host' }],
    },
    'blocks[0].executor',
  ],
  ['seq NaN', { ...minimal['tool/call'], seq: Number.NaN }, 'seq'],
  ['seq Infinity', { ...minimal['turn/start'], seq: Number.POSITIVE_INFINITY }, 'seq'],
  ['seq as a string', { ...minimal['turn/end'], seq: '1' }, 'seq'],
  ['at null', { ...minimal['tool/result'], at: null }, 'at'],
  ['at present but undefined', { ...minimal['tool/result'], at: undefined }, 'at'],
  ['at NaN', { ...minimal['turn/start'], at: Number.NaN }, 'at'],
  ['a missing turnId', omit(minimal['turn/start'], 'turnId'), 'turnId'],
  ['an empty turnId', { ...minimal['turn/end'], turnId: '' }, 'turnId'],
  ['a missing callId', omit(minimal['tool/call'], 'callId'), 'callId'],
  ['an empty callId', { ...minimal['tool/call'], callId: '' }, 'callId'],
  ['a numeric callId', { ...minimal['tool/result'], callId: 1 }, 'callId'],
  ['a numeric name', { ...minimal['tool/call'], name: 3 }, 'name'],
  ['an empty name', { ...minimal['tool/call'], name: '' }, 'name'],
  ['args as an array', { ...minimal['tool/call'], args: ['a'] }, 'args'],
  ['args null', { ...minimal['tool/call'], args: null }, 'args'],
  ['args a number', { ...minimal['tool/call'], args: 1 }, 'args'],
  ['args a class instance', { ...minimal['tool/call'], args: new Date(0) }, 'args'],
  ['args missing', omit(minimal['tool/call'], 'args'), 'args'],
  ['isError a string', { ...minimal['tool/result'], isError: 'yes' }, 'isError'],
  ['isError undefined', { ...minimal['tool/result'], isError: undefined }, 'isError'],
  ['a missing messageId', omit(minimal['assistant/message'], 'messageId'), 'messageId'],
  ['a missing attemptId', omit(minimal['assistant/message'], 'attemptId'), 'attemptId'],
  ['blocks missing', omit(minimal['assistant/message'], 'blocks'), 'blocks'],
  ['blocks an object', { ...minimal['assistant/message'], blocks: { 0: 1 } }, 'blocks'],
  ['a null block', { ...minimal['assistant/message'], blocks: [null] }, 'blocks[0]'],
  // biome-ignore lint/suspicious/noSparseArray: a hole is a missing block
  ['a hole in blocks', { ...minimal['assistant/message'], blocks: [, text('x')] }, 'blocks[0]'],
  [
    'a block of unknown type',
    { ...minimal['assistant/message'], blocks: [text('x'), { type: 'image' }] },
    'blocks[1].type',
  ],
  [
    'a text block without text',
    { ...minimal['assistant/message'], blocks: [{ type: 'reasoning' }] },
    'blocks[0].text',
  ],
  [
    'a tool-use block without argsText',
    { ...minimal['assistant/message'], blocks: [{ type: 'tool-use', callId: 'c', name: 'n' }] },
    'blocks[0].argsText',
  ],
  [
    'a tool-use block with an empty callId',
    {
      ...minimal['assistant/message'],
      blocks: [text('a'), text('b'), { type: 'tool-use', callId: '', name: 'n', argsText: '' }],
    },
    'blocks[2].callId',
  ],
  ['a text delta without text', omit(minimal['stream/text-delta'], 'text'), 'text'],
  ['a negative block', { ...minimal['stream/text-delta'], block: -1 }, 'block'],
  ['a fractional block', { ...minimal['stream/text-delta'], block: 1.5 }, 'block'],
  ['a block as a string', { ...minimal['stream/block-end'], block: '0' }, 'block'],
  ['reasoning a string', { ...minimal['stream/text-delta'], reasoning: 'true' }, 'reasoning'],
  ['a delta without callId', omit(minimal['stream/tool-call-delta'], 'callId'), 'callId'],
  ['a delta with an empty name', { ...minimal['stream/tool-call-delta'], name: '' }, 'name'],
  ['a delta with a numeric name', { ...minimal['stream/tool-call-delta'], name: 1 }, 'name'],
  ['a delta without args', omit(minimal['stream/tool-call-delta'], 'args'), 'args'],
  ['a delta with object args', { ...minimal['stream/tool-call-delta'], args: {} }, 'args'],
  ['a block end without text', omit(minimal['stream/block-end'], 'text'), 'text'],
  ['a block end with an empty callId', { ...minimal['stream/block-end'], callId: '' }, 'callId'],
  ['a settle without attemptId', { type: 'stream/settle' }, 'attemptId'],
  ['a settle with an empty attemptId', { type: 'stream/settle', attemptId: '' }, 'attemptId'],
];

function omit(record: object, key: string): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...record };
  delete copy[key];
  return copy;
}

function text(value: string) {
  return { type: 'text', text: value };
}

/** Fields each variant requires (besides `type`), and the optional ones. */
const required: { readonly [K in CallfoldEventType]: readonly string[] } = {
  'turn/start': ['seq', 'turnId'],
  'turn/end': ['seq', 'turnId'],
  'assistant/message': ['seq', 'messageId', 'attemptId', 'blocks'],
  'tool/call': ['seq', 'callId', 'name', 'args'],
  'tool/result': ['seq', 'callId'],
  'tool/approval-request': ['seq', 'callId'],
  'tool/approval': ['seq', 'callId', 'approved'],
  'stream/text-delta': ['attemptId', 'block', 'text'],
  'stream/tool-call-delta': ['attemptId', 'block', 'callId', 'args'],
  'stream/block-end': ['attemptId', 'block', 'text'],
  'stream/settle': ['attemptId'],
};
const optional: { readonly [K in CallfoldEventType]: readonly string[] } = {
  'turn/start': ['at'],
  'turn/end': ['at'],
  'assistant/message': ['at', 'stopReason'],
  'tool/call': ['at', 'input', 'executor', 'providerCallId'],
  'tool/result': ['at', 'isError', 'executor'],
  'tool/approval-request': ['at', 'approvalId'],
  'tool/approval': ['at', 'reason', 'approvalId'],
  'stream/text-delta': ['reasoning'],
  'stream/tool-call-delta': ['name', 'input', 'executor', 'providerCallId'],
  'stream/block-end': ['callId', 'input'],
  'stream/settle': [],
};

describe('parseEvent', () => {
  it('accepts the minimal form of every variant and returns the same object', () => {
    for (const e of Object.values(minimal)) {
      expect(parseEvent(e), e.type).to.equal(e);
      expect(isCallfoldEvent(e), e.type).to.equal(true);
    }
  });

  it('accepts every optional field, object args and any output', () => {
    for (const e of full) expect(parseEvent(e)).to.equal(e);
  });

  it('accepts a missing output, which reads as undefined', () => {
    const e = parseEvent({ type: 'tool/result', seq: 1, callId: 'c' });
    expect(e.type === 'tool/result' && e.output).to.equal(undefined);
  });

  it('ignores unknown keys and never copies or mutates the value', () => {
    const e = Object.freeze({ ...minimal['stream/settle'], extra: { nested: true }, seq: 'x' });
    expect(parseEvent(e)).to.equal(e);
    expect(e).to.deep.equal({
      type: 'stream/settle',
      attemptId: 'a',
      extra: { nested: true },
      seq: 'x',
    });
  });

  it('accepts any well-formed event, also after a JSON round trip', () => {
    fc.assert(
      fc.property(event, (e) => {
        expect(parseEvent(e)).to.equal(e);
        const copy: unknown = JSON.parse(JSON.stringify(e));
        expect(parseEvent(copy)).to.deep.equal(e);
      }),
    );
  });

  it('generates every variant (the arbitraries cover the union)', () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(event, (e) => void seen.add(e.type)),
      { numRuns: 500 },
    );
    expect([...seen].sort()).to.deep.equal(Object.keys(eventsByType).sort());
  });

  describe('rejects malformed events, naming the field', () => {
    for (const [name, value, field] of malformed) {
      it(name, () => {
        const error = rejection(value);
        expect(error.field).to.equal(field);
        expect(error.name).to.equal('EventError');
        expect(error).to.be.instanceOf(Error);
        if (field !== '') expect(error.message).to.include(`"${field}"`);
        expect(isCallfoldEvent(value)).to.equal(false);
      });
    }
  });

  it('words its message as "<type> event: "<field>" must be …"', () => {
    expect(rejection(omit(minimal['tool/call'], 'callId')).message).to.equal(
      'tool/call event: "callId" must be a non-empty string (missing)',
    );
    expect(rejection({ ...minimal['tool/call'], callId: '' }).message).to.equal(
      'tool/call event: "callId" must be a non-empty string (got "")',
    );
    expect(rejection({ ...minimal['tool/result'], isError: 1 }).message).to.equal(
      'tool/result event: "isError" must be a boolean when present (got 1)',
    );
    expect(rejection(null).message).to.equal('event: expected an object, got null');
    expect(rejection({ type: 'nope' }).message).to.match(
      /^event: "type" must be one of turn\/start, .*stream\/settle \(got "nope"\)$/,
    );
  });

  it('rejects any event missing a required field, naming that field', () => {
    fc.assert(
      fc.property(event, fc.nat(), (e, pick) => {
        const fields = required[e.type];
        const field = fields[pick % fields.length]!;
        expect(rejection(omit(e, field)).field).to.equal(field);
      }),
    );
  });

  it('rejects any optional field present as undefined, naming that field', () => {
    fc.assert(
      fc.property(event, fc.nat(), (e, pick) => {
        const fields = optional[e.type];
        if (fields.length === 0) return;
        const field = fields[pick % fields.length]!;
        expect(rejection({ ...e, [field]: undefined }).field).to.equal(field);
      }),
    );
  });

  it('reports a throwing getter as an EventError for that field', () => {
    const e = { ...minimal['tool/call'] };
    Object.defineProperty(e, 'callId', {
      enumerable: true,
      get() {
        throw new Error('boom');
      },
    });
    const error = rejection(e);
    expect(error.field).to.equal('callId');
    expect(error.message).to.include('getter threw');
    const output = { ...minimal['tool/result'] };
    Object.defineProperty(output, 'output', {
      get() {
        throw new Error('boom');
      },
    });
    expect(rejection(output).field).to.equal('output');
  });

  it('reports exotic objects (proxies with throwing traps, revoked proxies) without crashing', () => {
    const trapped = new Proxy(
      {},
      {
        getOwnPropertyDescriptor() {
          throw new Error('trap');
        },
      },
    );
    expect(rejection(trapped).field).to.equal('type');
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    const error = rejection(proxy);
    expect(error.field).to.equal('');
    expect(error.cause).to.be.instanceOf(TypeError);
    expect(isCallfoldEvent(proxy)).to.equal(false);
  });
});

describe('parseEvent and __proto__', () => {
  it('treats "__proto__" keys from JSON as ordinary keys and pollutes nothing', () => {
    const e = JSON.parse(
      '{"type":"tool/call","seq":1,"callId":"c","name":"n",' +
        '"args":{"__proto__":{"polluted":1}},"__proto__":{"polluted":2,"isError":"x"}}',
    ) as unknown;
    expect(parseEvent(e)).to.equal(e);
    expect(({} as { polluted?: unknown }).polluted).to.equal(undefined);
    expect(Object.hasOwn(Object.prototype, 'polluted')).to.equal(false);
  });

  it('does not take fields from a "__proto__" key or from the prototype chain', () => {
    const viaKey = JSON.parse(
      '{"type":"tool/call","seq":1,"name":"n","args":"","__proto__":{"callId":"c"}}',
    ) as unknown;
    expect(rejection(viaKey).field).to.equal('callId');
    const viaPrototype = Object.create({ callId: 'c' }) as Record<string, unknown>;
    Object.assign(viaPrototype, { type: 'tool/call', seq: 1, name: 'n', args: '' });
    expect(rejection(viaPrototype).field).to.equal('callId');
  });

  it('ignores fields on a polluted Object.prototype', () => {
    Object.defineProperty(Object.prototype, 'callId', { value: 'c', configurable: true });
    try {
      expect(rejection(omit(minimal['tool/call'], 'callId')).field).to.equal('callId');
    } finally {
      delete (Object.prototype as { callId?: unknown }).callId;
    }
    expect(Object.hasOwn(Object.prototype, 'callId')).to.equal(false);
  });
});
