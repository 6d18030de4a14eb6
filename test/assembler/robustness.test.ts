/**
 * Well-typed nonsense (DESIGN: Assembler): any sequence of well-formed events, in any order
 * (deltas after settles, results before calls, repeated ids, unnamed calls, reconnections
 * at random), never makes `push`, `prepend`, `reconnect` or `publish` throw, never makes a
 * built-in Definition fail, and every publication keeps its shape. Once the live events are
 * withdrawn, what remains is exactly the fold of the durable events held.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import type {
  CallfoldEvent,
  MessageBlock,
  SessionEvent,
  StreamEvent,
} from '../../src/events/types.js';
import { describe, it } from '../harness.js';
import { expectWellFormed, project, readSome } from './support/driver.js';
import { assembler } from './support/events.js';

const attemptId = fc.constantFrom('a1', 'a2', 'a3');
const callId = fc.constantFrom('c1', 'c2', 'c3', 'c4');
const name = fc.constantFrom('read', 'write', 'bash');
const block = fc.nat({ max: 3 });
const seq = fc.integer({ min: -3, max: 40 });
const piece = fc.oneof(
  fc.constantFrom(
    '',
    '{',
    '}',
    '"',
    '\\',
    ':',
    ',',
    '[',
    ']',
    '1',
    'null',
    '\\u00',
    'e9',
    '😀',
    '\ud83d',
  ),
  fc.constantFrom('"file_path"', '"content"', '"a.ts"', '{"file_path":"', '"}', ' '),
  fc.string({ maxLength: 6 }),
);
const text = fc.array(piece, { maxLength: 6 }).map((parts) => parts.join(''));
const argsText = fc.oneof(
  text,
  fc.constantFrom(
    '{}',
    '{"file_path":"a.ts"}',
    '{"content":"x\\ny","n":[1,{}]}',
    'not json',
    '[1]',
  ),
);
const argsObject = fc
  .dictionary(
    fc.constantFrom('file_path', 'content', '__proto__', 'n'),
    fc.jsonValue({ maxDepth: 2 }),
    {
      maxKeys: 3,
    },
  )
  .map((o) => JSON.parse(JSON.stringify(o)) as Record<string, unknown>);

const messageBlock: fc.Arbitrary<MessageBlock> = fc.oneof(
  fc.record({ type: fc.constantFrom('text' as const, 'reasoning' as const), text }),
  fc.record({ type: fc.constant('tool-use' as const), callId, name, argsText }),
);

const streamEvent: fc.Arbitrary<StreamEvent> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record(
      {
        type: fc.constant('stream/tool-call-delta' as const),
        attemptId,
        block,
        callId,
        name,
        args: text,
      },
      { requiredKeys: ['type', 'attemptId', 'block', 'callId', 'args'] },
    ),
  },
  {
    weight: 2,
    arbitrary: fc.record(
      {
        type: fc.constant('stream/text-delta' as const),
        attemptId,
        block,
        text,
        reasoning: fc.boolean(),
      },
      { requiredKeys: ['type', 'attemptId', 'block', 'text'] },
    ),
  },
  {
    weight: 2,
    arbitrary: fc.record(
      { type: fc.constant('stream/block-end' as const), attemptId, block, callId, text: argsText },
      { requiredKeys: ['type', 'attemptId', 'block', 'text'] },
    ),
  },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('stream/settle' as const), attemptId }) },
);

const sessionEvent: fc.Arbitrary<SessionEvent> = fc.oneof(
  fc.record({
    type: fc.constantFrom('turn/start' as const, 'turn/end' as const),
    seq,
    turnId: fc.constant('t'),
  }),
  fc.record({
    type: fc.constant('assistant/message' as const),
    seq,
    messageId: fc.constantFrom('m1', 'm2'),
    attemptId,
    blocks: fc.array(messageBlock, { maxLength: 3 }),
  }),
  fc.record({
    type: fc.constant('tool/call' as const),
    seq,
    callId,
    name,
    args: fc.oneof(argsText, argsObject),
  }),
  fc.record(
    {
      type: fc.constant('tool/result' as const),
      seq,
      callId,
      output: fc.jsonValue({ maxDepth: 2 }),
      isError: fc.boolean(),
    },
    { requiredKeys: ['type', 'seq', 'callId', 'output'] },
  ),
);

type Step =
  | { kind: 'push'; events: CallfoldEvent | CallfoldEvent[] }
  | { kind: 'prepend'; events: SessionEvent[] }
  | { kind: 'reconnect' }
  | { kind: 'publish'; reads: number };

const anyEvent: fc.Arbitrary<CallfoldEvent> = fc.oneof(
  { weight: 3, arbitrary: streamEvent },
  { weight: 2, arbitrary: sessionEvent },
);

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 6, arbitrary: anyEvent.map((e) => ({ kind: 'push' as const, events: e })) },
  {
    weight: 3,
    arbitrary: fc
      .array(anyEvent, { maxLength: 5 })
      .map((events) => ({ kind: 'push' as const, events })),
  },
  {
    weight: 1,
    arbitrary: fc
      .uniqueArray(sessionEvent, { maxLength: 5, selector: (e) => e.seq })
      .map((events) => ({ kind: 'prepend' as const, events })),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'reconnect' as const }) },
  { weight: 3, arbitrary: fc.nat().map((reads) => ({ kind: 'publish' as const, reads })) },
);

const steps = fc.array(step, { maxLength: 40 });

describe('robustness: well-typed events in any order', () => {
  it('never make push, prepend, reconnect or publish throw, nor a built-in Definition fail', () => {
    fc.assert(
      fc.property(steps, (list) => {
        const { assembler: a, errors } = assembler();
        for (const s of list) {
          if (s.kind === 'push') a.push(s.events);
          else if (s.kind === 'prepend') a.prepend(s.events);
          else if (s.kind === 'reconnect') a.reconnect();
          else {
            const conversation = a.publish();
            expectWellFormed(conversation);
            readSome(conversation, s.reads);
          }
        }
        expectWellFormed(a.publish());
        expect(errors).to.deep.equal([]);
      }),
      { numRuns: 400 },
    );
  });

  it('after reconnect(), the Conversation is the fold of the durable events held (the first of each seq)', () => {
    fc.assert(
      fc.property(steps, (list) => {
        const { assembler: a } = assembler();
        const held = new Map<number, SessionEvent>();
        const hold = (events: readonly CallfoldEvent[]) => {
          for (const e of events) if ('seq' in e && !held.has(e.seq)) held.set(e.seq, e);
        };
        for (const s of list) {
          if (s.kind === 'push') {
            a.push(s.events);
            hold(Array.isArray(s.events) ? s.events : [s.events]);
          } else if (s.kind === 'prepend') {
            a.prepend(s.events);
            hold(s.events);
          } else if (s.kind === 'reconnect') a.reconnect();
          else readSome(a.publish(), s.reads);
        }
        a.reconnect();
        const { assembler: reference } = assembler();
        reference.push([...held.values()].sort((x, y) => x.seq - y.seq));
        expect(project(a.publish())).to.deep.equal(project(reference.publish()));
      }),
      { numRuns: 400 },
    );
  });
});
