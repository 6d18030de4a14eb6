/**
 * Bad and odd input (DESIGN: Assembler; docs/guide/events.md: choices): malformed events are rejected
 * before anything of their batch is folded; odd but well-typed orders fold to something
 * sensible; a failing Definition is reported and contained; large arguments fold.
 */
import { expect } from 'chai';
import { PartialArguments } from '../../src/arguments/partial-arguments.js';
import type { Definition } from '../../src/assembler/definition.js';
import { assistantDefinition } from '../../src/definitions/assistant-definition.js';
import { type ToolNode, toolDefinition } from '../../src/definitions/tool-definition.js';
import type { CallfoldEvent } from '../../src/events/types.js';
import { EventError } from '../../src/events/validate.js';
import { describe, it } from '../harness.js';
import {
  assembler,
  blockEnd,
  call,
  result,
  settle,
  textDelta,
  toolDelta,
  toolOf,
} from './support/events.js';
import { definitionsOption } from './support/recording.js';

/** The EventError `act` throws; fails when it throws nothing or something else. */
function rejection(act: () => void): EventError {
  try {
    act();
  } catch (error) {
    if (error instanceof EventError) return error;
    throw error;
  }
  throw new Error('accepted');
}

const malformed: readonly (readonly [string, unknown, string])[] = [
  ['an unknown event type', { type: 'tool/progress', seq: 9, callId: 'c9' }, 'type'],
  [
    'a delta without callId',
    { type: 'stream/tool-call-delta', attemptId: 'a1', block: 0, args: '' },
    'callId',
  ],
  ['a delta with an empty callId', { ...toolDelta('a1', 0, 'x', ''), callId: '' }, 'callId'],
  ['a tool/call with an empty callId', { ...call(9, 'x', 'read', '{}'), callId: '' }, 'callId'],
  ['a tool/result without callId', { type: 'tool/result', seq: 9, output: 1 }, 'callId'],
  ['a block end with an empty callId', { ...blockEnd('a1', 0, ''), callId: '' }, 'callId'],
  ['a durable event without seq', { type: 'turn/start', turnId: 't' }, 'seq'],
];

describe('bad input: a malformed event rejects its whole batch', () => {
  for (const [label, bad, field] of malformed) {
    it(`${label}: push throws an EventError naming "${field}" and folds nothing of the batch`, () => {
      const { assembler: a } = assembler();
      a.push([toolDelta('a0', 0, 'c0', '{}', 'read'), call(1, 'k', 'read', '{}')]);
      const before = a.publish();
      const batch = [
        toolDelta('a1', 0, 'c1', '{"x":1}', 'read'),
        call(2, 'c2', 'read', '{}'),
        settle('a0'),
        bad,
      ] as CallfoldEvent[];
      expect(rejection(() => a.push(batch)).field).to.equal(field);
      expect(rejection(() => a.push(bad as CallfoldEvent)).field).to.equal(field);
      expect(a.publish(), 'state unchanged').to.equal(before);

      // Nothing of the batch left a trace: its seq is free, its settle did not happen.
      a.push([call(2, 'c2', 'write', '{}'), toolDelta('a0', 0, 'c0', '')]);
      const after = a.publish();
      expect(toolOf(after, 'c2').name).to.equal('write');
      expect(after.tools.has('c0')).to.equal(true);
      expect(after.tools.has('c1')).to.equal(false);
    });
  }

  it('prepend rejects a malformed event, and a stream event, folding nothing of the page', () => {
    const { assembler: a } = assembler();
    a.push(call(10, 'c10', 'read', '{}'));
    const before = a.publish();
    const bad = { ...result(3, 'x', 1), callId: '' };
    expect(rejection(() => a.prepend([call(1, 'c1', 'read', '{}'), bad])).field).to.equal('callId');
    const stream = toolDelta('a1', 0, 'c2', '{}', 'read') as unknown as CallfoldEvent;
    const page = [call(2, 'c2', 'read', '{}'), stream] as Parameters<typeof a.prepend>[0];
    expect(rejection(() => a.prepend(page)).field).to.equal('type');
    expect(a.publish()).to.equal(before);
    a.prepend([call(1, 'c1', 'read', '{}'), call(2, 'c2', 'read', '{}')]);
    expect([...a.publish().tools.keys()]).to.deep.equal(['c1', 'c2', 'c10']);
  });
});

describe('bad input: odd but well-typed orders', () => {
  it('a result before any call: an unpaired result node with the shared empty view', () => {
    const { assembler: a } = assembler();
    a.push(result(1, 'c1', 'out'));
    const node = toolOf(a.publish(), 'c1');
    expect(node).to.include({ stage: 'result', name: '', argsRaw: null, call: null });
    expect(node.args).to.equal(PartialArguments.empty);
    a.push(call(0, 'c1', 'read', '{"file_path":"a"}'));
    const paired = toolOf(a.publish(), 'c1');
    expect(paired, 'its call, arriving late but earlier by seq, pairs it').to.include({
      stage: 'result',
      name: 'read',
    });
    expect(paired.args.text('file_path')).to.equal('a');
  });

  it('duplicate results: the later record wins, by seq, whatever the arrival order', () => {
    const { assembler: a } = assembler();
    a.push([
      call(1, 'c1', 'bash', '{}'),
      result(2, 'c1', 'first'),
      result(4, 'c1', 'second', true),
    ]);
    expect(toolOf(a.publish(), 'c1').result).to.deep.equal({ output: 'second', isError: true });
    a.push(result(3, 'c1', 'late but older'));
    expect(toolOf(a.publish(), 'c1').result).to.deep.equal({ output: 'second', isError: true });
    a.push(result(5, 'c1', 'third'));
    expect(toolOf(a.publish(), 'c1').result).to.deep.equal({ output: 'third', isError: false });
  });

  it('a block end that conflicts with the deltas: a new reader, and the block end text wins', () => {
    const { assembler: a } = assembler();
    a.push(toolDelta('a1', 0, 'c1', '{"file_path":"a.ts"}', 'read'));
    const streamed = toolOf(a.publish(), 'c1');
    expect(streamed.args.text('file_path')).to.equal('a.ts');
    a.push(blockEnd('a1', 0, '{"file_path":"b.ts","limit":3}', 'c1'));
    const ended = toolOf(a.publish(), 'c1');
    expect(ended.args).to.not.equal(streamed.args);
    expect(ended.args.text('file_path')).to.equal('b.ts');
    expect(ended.args.value('limit')).to.equal(3);
    expect(ended.argsRaw).to.equal('{"file_path":"b.ts","limit":3}');
    expect(ended.stage).to.equal('preparing');
  });

  it('a block end of the same length but other text is a conflict too', () => {
    const { assembler: a } = assembler();
    a.push([toolDelta('a1', 0, 'c1', '{"f":"ab', 'read'), toolDelta('a1', 0, 'c1', 'c"}')]);
    const streamed = toolOf(a.publish(), 'c1');
    a.push(blockEnd('a1', 0, '{"f":"abd"}', 'c1'));
    const ended = toolOf(a.publish(), 'c1');
    expect(ended.args).to.not.equal(streamed.args);
    expect(ended.args.text('f')).to.equal('abd');
  });

  it('a block end equal to the deltas seals the same reader; deltas after it are stale', () => {
    const { assembler: a } = assembler();
    a.push([toolDelta('a1', 0, 'c1', '{"f":"a', 'read'), toolDelta('a1', 0, 'c1', 'b",')]);
    const streamed = toolOf(a.publish(), 'c1');
    expect(streamed.args.closed()).to.equal(false);
    a.push([toolDelta('a1', 0, 'c1', '"g":1}'), blockEnd('a1', 0, '{"f":"ab","g":1}', 'c1')]);
    const ended = toolOf(a.publish(), 'c1');
    expect(ended.args).to.equal(streamed.args);
    expect(ended.args.closed()).to.equal(true);
    expect(ended.args.value('g')).to.equal(1);
    a.push(toolDelta('a1', 0, 'c1', ',"h":2'));
    expect(toolOf(a.publish(), 'c1')).to.equal(ended);
    expect(ended.args.has('h')).to.equal(false);
    expect(ended.argsRaw).to.equal('{"f":"ab","g":1}');
  });

  it('a tool/call whose text conflicts with a sealed block end: the call text wins', () => {
    const { assembler: a } = assembler();
    a.push([toolDelta('a1', 0, 'c1', '{"f":1}', 'read'), blockEnd('a1', 0, '{"f":1}', 'c1')]);
    const ended = toolOf(a.publish(), 'c1');
    a.push(call(1, 'c1', 'read', '{"f":2}'));
    const started = toolOf(a.publish(), 'c1');
    expect(started.args).to.not.equal(ended.args);
    expect(started.args.value('f')).to.equal(2);
    expect(started.argsRaw).to.equal('{"f":2}');
  });

  it('deltas for an attempt that already settled are ignored', () => {
    const { assembler: a } = assembler();
    a.push([toolDelta('a1', 0, 'c1', '{', 'read'), settle('a1')]);
    const before = a.publish();
    a.push([
      toolDelta('a1', 0, 'c1', '"x":1}', 'read'),
      toolDelta('a1', 1, 'c2', '{}', 'read'),
      textDelta('a1', 2, 'late'),
      blockEnd('a1', 0, '{"x":1}', 'c1'),
    ]);
    expect(a.publish()).to.equal(before);
    expect(before.items).to.deep.equal([]);
  });

  it('arguments before the name: the view is invalid and shows no fields; tool/call gives the fields', () => {
    const { assembler: a } = assembler();
    a.push([
      toolDelta('a1', 0, 'c1', '{"file_path":"a.ts",'),
      toolDelta('a1', 0, 'c1', '"content":"x', 'write'),
      toolDelta('a1', 0, 'c1', 'yz"}'),
    ]);
    const preparing = toolOf(a.publish(), 'c1');
    expect(preparing).to.include({ stage: 'preparing', name: 'write' });
    expect(preparing.args.has('file_path')).to.equal(false);
    expect(preparing.args.has('content')).to.equal(false);
    expect(preparing.args.text('content')).to.equal(undefined);
    expect(preparing.args.invalid).to.be.instanceOf(Error);
    const text = '{"file_path":"a.ts","content":"xyz"}';
    a.push(call(1, 'c1', 'write', text));
    const started = toolOf(a.publish(), 'c1');
    expect(started.args.invalid).to.equal(null);
    expect(started.args.text('file_path')).to.equal('a.ts');
    expect(started.args.text('content')).to.equal('xyz');
  });

  it('a named delta with empty arguments after unnamed empty ones loses nothing', () => {
    const { assembler: a } = assembler();
    a.push([
      toolDelta('a1', 0, 'c1', ''),
      toolDelta('a1', 0, 'c1', '', 'read'),
      toolDelta('a1', 0, 'c1', '{"a":1}'),
    ]);
    const node = toolOf(a.publish(), 'c1');
    expect(node.args.invalid).to.equal(null);
    expect(node.args.value('a')).to.equal(1);
  });
});

describe('bad input: large arguments', () => {
  const MiB = 1024 * 1024;
  const content = 'abcdefghijklmnop'.repeat((5 * MiB) / 16);
  const text = `{"file_path":"big.txt","content":"${content}"}`;

  it('5 MiB of arguments in 64 KiB deltas fold, publish, seal the same reader and dispatch', () => {
    const { assembler: a, errors } = assembler();
    const step = 64 * 1024;
    a.push(toolDelta('a1', 0, 'c1', text.slice(0, step), 'write'));
    const first = toolOf(a.publish(), 'c1');
    expect(first.args.text('file_path')).to.equal('big.txt');
    first.args.stringLength('content', { step: 1024 });
    let node: ToolNode = first;
    for (let at = step; at < text.length; at += step) {
      a.push(toolDelta('a1', 0, 'c1', text.slice(at, at + step)));
      node = toolOf(a.publish(), 'c1');
    }
    expect(node.args.stringLength('content')).to.equal(5 * MiB);
    a.push([blockEnd('a1', 0, text, 'c1'), call(1, 'c1', 'write', text), settle('a1')]);
    const started = toolOf(a.publish(), 'c1');
    expect(started.args).to.equal(first.args);
    expect(started.argsRaw?.length).to.equal(text.length);
    expect(started.args.stringLength('content')).to.equal(5 * MiB);
    expect(errors).to.deep.equal([]);
  });

  it('a 5 MiB durable call and a 5 MiB single delta fold and publish', () => {
    const { assembler: a, errors } = assembler();
    a.push([toolDelta('a1', 0, 'c2', text, 'write'), call(1, 'c1', 'write', text)]);
    const conversation = a.publish();
    expect(toolOf(conversation, 'c1').args.text('content')?.length).to.equal(5 * MiB);
    expect(toolOf(conversation, 'c2').args.stringLength('content')).to.equal(5 * MiB);
    expect(errors).to.deep.equal([]);
  });
});

type Phase = 'match' | 'start' | 'update' | 'build';

/** `inner`, throwing in `phase` for the call "bad" (in build: from its second build on). */
function faulty<S, N>(inner: Definition<S, N>, phase: Phase): Definition<S, N> {
  const isBad = (event: CallfoldEvent) => 'callId' in event && event.callId === 'bad';
  const builds = new WeakMap<object, number>();
  return {
    name: `faulty-${phase}`,
    match(event, emit) {
      if (phase === 'match' && isBad(event)) throw new Error('match failed');
      inner.match(event, emit);
    },
    start(match, at, key) {
      if (phase === 'start' && isBad(match.event)) throw new Error('start failed');
      return inner.start(match, at, key);
    },
    update(state, match, at) {
      if (phase === 'update' && isBad(match.event)) throw new Error('update failed');
      return inner.update(state, match, at);
    },
    build(state, previous) {
      const count = (builds.get(state as object) ?? 0) + 1;
      builds.set(state as object, count);
      if (phase === 'build' && (state as { callId?: string }).callId === 'bad' && count > 1) {
        throw new Error('build failed');
      }
      return inner.build(state, previous);
    },
  };
}

describe('bad input: a Definition that throws', () => {
  for (const phase of ['match', 'start', 'update', 'build'] as const) {
    it(`a throw in ${phase} is reported through onError and the other calls still publish`, () => {
      const { assembler: a, errors } = assembler({
        definitions: definitionsOption(assistantDefinition, faulty(toolDefinition, phase)),
      });
      a.push([
        textDelta('a1', 0, 'Two calls.'),
        toolDelta('a1', 1, 'bad', '{"a":', 'read'),
        toolDelta('a1', 2, 'good', '{"a":', 'read'),
      ]);
      const first = a.publish();
      a.push([toolDelta('a1', 1, 'bad', '1}'), toolDelta('a1', 2, 'good', '2}')]);
      const conversation = a.publish();
      expect(errors.length, 'reported').to.be.greaterThan(0);
      for (const { error, definition, key } of errors) {
        expect((error as Error).message).to.equal(`${phase} failed`);
        expect(definition).to.equal(`faulty-${phase}`);
        expect(key).to.equal(phase === 'match' ? '' : 'bad');
      }
      expect(toolOf(conversation, 'good').args.value('a')).to.equal(2);
      expect(conversation.items[0]?.kind, 'the assistant still folds').to.equal('assistant');
      if (phase === 'build') {
        expect(toolOf(conversation, 'bad'), 'keeps its last good node').to.equal(
          toolOf(first, 'bad'),
        );
      }
      if (phase === 'match' || phase === 'start') {
        expect(conversation.tools.has('bad')).to.equal(false);
      }
    });
  }
});
