/**
 * Identity (DESIGN: Tool Definition, publication): a node object is replaced only when its
 * stage, its result or an argument answer someone read changed; unread calls keep their
 * node; structure is shared up to the Conversation. And the Assembler allocates one frozen
 * Match per input and role, shared by every Definition that matched it.
 */
import { expect } from 'chai';
import type { AssemblerOptions } from '../../src/conversation/assembler.js';
import { assistantDefinition } from '../../src/definitions/assistant-definition.js';
import { toolDefinition } from '../../src/definitions/tool-definition.js';
import { describe, it } from '../harness.js';
import {
  assembler,
  blockEnd,
  call,
  groups,
  message,
  NOW,
  outline,
  result,
  settle,
  textDelta,
  toolDelta,
  toolOf,
} from './support/events.js';
import {
  cloning,
  definitionsOption,
  observer,
  type Receipt,
  recording,
  sharingViolations,
} from './support/recording.js';

describe('identity: tool nodes across publications', () => {
  it('an unread call keeps its node while its deltas arrive', () => {
    const { assembler: a } = assembler();
    a.push(toolDelta('a1', 0, 'c1', '{"content":"', 'write'));
    const first = toolOf(a.publish(), 'c1');
    for (let i = 0; i < 50; i++) {
      a.push(toolDelta('a1', 0, 'c1', 'abcdefgh'));
      expect(toolOf(a.publish(), 'c1')).to.equal(first);
    }
    expect(first.args.stringLength('content'), 'the reader still saw every delta').to.equal(400);
  });

  it('a read answer that changed gives a new node with the same reader', () => {
    const { assembler: a } = assembler();
    a.push(toolDelta('a1', 0, 'c1', '{"file_path":"sr', 'write'));
    const first = toolOf(a.publish(), 'c1');
    expect(first.args.text('file_path')).to.equal('sr');
    a.push(toolDelta('a1', 0, 'c1', 'c/a.ts'));
    const second = toolOf(a.publish(), 'c1');
    expect(second).to.not.equal(first);
    expect(second.args).to.equal(first.args);
    expect(second.args.text('file_path')).to.equal('src/a.ts');
    a.push(toolDelta('a1', 0, 'c1', '","content":"long text nobody reads'));
    expect(toolOf(a.publish(), 'c1'), 'only an unread field grew').to.equal(second);
  });

  it('the reader states the granularity: a length read per KiB changes the node once per KiB', () => {
    const { assembler: a } = assembler();
    a.push(toolDelta('a1', 0, 'c1', '{"content":"', 'write'));
    let node = toolOf(a.publish(), 'c1');
    node.args.stringLength('content', { step: 1024 });
    const seen = new Set([node]);
    for (let i = 0; i < 64; i++) {
      a.push(toolDelta('a1', 0, 'c1', 'x'.repeat(100)));
      node = toolOf(a.publish(), 'c1');
      seen.add(node);
    }
    expect(node.args.stringLength('content', { step: 1024 })).to.equal(6144);
    expect(seen.size, 'the first node and one per KiB crossed').to.equal(7);
  });

  it('a read between publications does not swallow the change for the next publication', () => {
    const { assembler: a } = assembler();
    a.push(toolDelta('a1', 0, 'c1', '{"description":"Li', 'bash'));
    const first = toolOf(a.publish(), 'c1');
    expect(first.args.text('description')).to.equal('Li');
    a.push(toolDelta('a1', 0, 'c1', 'st files'));
    expect(first.args.text('description'), 'another consumer reads early').to.equal('List files');
    const second = toolOf(a.publish(), 'c1');
    expect(second).to.not.equal(first);
  });

  it('an unchanged tool keeps its node while others change; its group and the Conversation are shared', () => {
    const { assembler: a } = assembler();
    a.push([
      toolDelta('a1', 0, 'c1', '{"file_path":"a"}', 'read'),
      textDelta('a2', 0, 'Then:'),
      toolDelta('a2', 1, 'c2', '{"file_path":"b', 'read'),
    ]);
    const first = a.publish();
    expect(outline(first)).to.deep.equal(['group:c1', 'assistant:a2', 'group:c2']);
    toolOf(first, 'c2').args.text('file_path');
    expect(a.publish(), 'nothing new: the same Conversation').to.equal(first);
    a.push(toolDelta('a2', 1, 'c2', 'c'));
    const second = a.publish();
    expect(second).to.not.equal(first);
    expect(toolOf(second, 'c1')).to.equal(toolOf(first, 'c1'));
    expect(toolOf(second, 'c2')).to.not.equal(toolOf(first, 'c2'));
    const [g1, g2] = groups(second);
    expect(g1, 'the group of unchanged tools is shared').to.equal(groups(first)[0]);
    expect(g2).to.not.equal(groups(first)[1]);
    expect(second.items[1], 'the assistant node is shared').to.equal(first.items[1]);
  });

  it('stage changes replace the node even when nothing was read', () => {
    const text = '{"file_path":"a"}';
    const { assembler: a } = assembler();
    a.push(toolDelta('a1', 0, 'c1', text, 'read'));
    const preparing = toolOf(a.publish(), 'c1');
    a.push(blockEnd('a1', 0, text, 'c1'));
    const ended = toolOf(a.publish(), 'c1');
    expect(ended, 'the text became known').to.not.equal(preparing);
    a.push(call(1, 'c1', 'read', text));
    const started = toolOf(a.publish(), 'c1');
    expect(started).to.not.equal(ended);
    a.push(result(2, 'c1', 'x'));
    const answered = toolOf(a.publish(), 'c1');
    expect(answered).to.not.equal(started);
    expect(new Set([preparing.args, ended.args, started.args, answered.args]).size).to.equal(1);
  });

  it('a dispatched call with string arguments keeps its node through its settle', () => {
    const text = '{"file_path":"a"}';
    const { assembler: a } = assembler();
    a.push([
      toolDelta('a1', 0, 'c1', text, 'read'),
      message(1, 'a1', []),
      call(2, 'c1', 'read', text),
    ]);
    const node = toolOf(a.publish(), 'c1');
    node.args.text('file_path');
    a.push(settle('a1'));
    expect(toolOf(a.publish(), 'c1')).to.equal(node);
  });

  it('a dispatched call with object arguments keeps its node through its settle (nothing observable changed)', () => {
    const { assembler: a } = assembler();
    a.push([
      toolDelta('a1', 0, 'c1', '{"file_path":"a"}', 'read'),
      message(1, 'a1', []),
      call(2, 'c1', 'read', { file_path: 'a' }),
    ]);
    const node = toolOf(a.publish(), 'c1');
    a.push(settle('a1'));
    const settled = toolOf(a.publish(), 'c1');
    expect(settled.args.value('file_path')).to.equal('a');
    expect(settled, 'same node').to.equal(node);
  });

  it('a dispatched call with object arguments keeps its node through a reconnection and replay', () => {
    const { assembler: a } = assembler();
    const live = [toolDelta('a1', 0, 'c1', '{"file_path":"a"}', 'read')];
    a.push([...live, call(1, 'c1', 'read', { file_path: 'a' })]);
    const node = toolOf(a.publish(), 'c1');
    a.reconnect();
    a.push(live);
    expect(toolOf(a.publish(), 'c1'), 'same node').to.equal(node);
  });

  it('an older page or a late result arriving mid-stream leaves the live nodes alone', () => {
    const { assembler: a } = assembler();
    a.push([
      call(10, 'c10', 'read', '{}'),
      textDelta('a2', 0, 'Now writing.'),
      toolDelta('a2', 1, 'c11', '{"file_path":"a', 'write'),
    ]);
    const before = a.publish();
    const live = toolOf(before, 'c11');
    live.args.text('file_path');
    a.prepend([call(3, 'c3', 'read', '{}'), result(4, 'c3', 'x')]);
    a.push(result(11, 'c10', 'late'));
    const after = a.publish();
    expect(toolOf(after, 'c11')).to.equal(live);
    expect(after.items[1], 'the live assistant node too').to.equal(before.items[1]);
    expect(outline(after)).to.deep.equal(['group:c3,c10', 'assistant:a2', 'group:c11']);
  });
});

describe('identity: one Match per input and role', () => {
  /** Pushes a session that makes Contexts replay (a settle, a reconnection, an older page). */
  function exercise(definitions: NonNullable<AssemblerOptions['definitions']>): void {
    const { assembler: a, errors } = assembler({ definitions });
    const text = '{"file_path":"a"}';
    a.push([
      { ...textDelta('a1', 0, 'Reading.'), reasoning: false },
      toolDelta('a1', 1, 'c1', '{"file_path":', 'read'),
      toolDelta('a1', 1, 'c1', '"a"}'),
      blockEnd('a1', 0, 'Reading.'),
      blockEnd('a1', 1, text, 'c1'),
    ]);
    a.publish();
    a.reconnect();
    a.push([textDelta('a1', 0, 'Reading.'), toolDelta('a1', 1, 'c1', text, 'read')]);
    a.push([
      message(10, 'a1', [
        { type: 'text', text: 'Reading.' },
        { type: 'tool-use', callId: 'c1', name: 'read', argsText: text },
      ]),
      call(11, 'c1', 'read', text),
      settle('a1'),
      { ...result(12, 'c1', 'x'), at: 5 },
    ]);
    a.publish();
    a.prepend([call(3, 'c0', 'read', '{}'), result(4, 'c1', 'earlier')]);
    a.publish();
    expect(errors).to.deep.equal([]);
  }

  it('every Definition matching an event in one role receives the identical Match, on every replay', () => {
    const receipts: Receipt[] = [];
    exercise(
      definitionsOption(
        recording(assistantDefinition, receipts),
        recording(toolDefinition, receipts),
        recording(observer, receipts),
      ),
    );
    expect(sharingViolations(receipts)).to.deep.equal([]);

    const shared = receipts.filter((r) =>
      receipts.some((o) => o.match === r.match && o.definition !== r.definition),
    );
    expect(shared.length, 'several Definitions received the same Match').to.be.greaterThan(0);
    const replayed = receipts.filter(
      (r, i) => receipts.findIndex((o) => o.match === r.match && o.definition === r.definition) < i,
    );
    expect(replayed.length, 'Contexts were replayed with the Matches they held').to.be.greaterThan(
      0,
    );
  });

  it('a Match carries its event, role, location and time', () => {
    const receipts: Receipt[] = [];
    exercise(definitionsOption(recording(observer, receipts)));
    const locationOf = (seq: number) =>
      receipts.find((r) => 'seq' in r.match.event && r.match.event.seq === seq)?.match.location;
    const settledResult = receipts.find((r) => r.match.event.type === 'tool/result');
    expect(settledResult?.at, 'a durable at wins').to.equal(5);
    expect(receipts[0]?.at, 'else the clock').to.equal(NOW);
    expect(
      receipts.every(
        (r) => r.match.role === (r.match.event.type === 'stream/block-end' ? 'update' : 'start'),
      ),
    ).to.equal(true);
    expect(locationOf(3) as number, 'a prepended event is placed below').to.be.lessThan(
      receipts[0]?.match.location as number,
    );
    expect(locationOf(3) as number).to.be.lessThan(locationOf(4) as number);
    expect(locationOf(4) as number).to.be.lessThan(locationOf(10) as number);
    expect(locationOf(10) as number).to.be.lessThan(locationOf(11) as number);
  });

  it('(negative control) a Definition handed cloned Matches is caught by the same check', () => {
    const receipts: Receipt[] = [];
    exercise(
      definitionsOption(
        recording(assistantDefinition, receipts),
        cloning(recording(toolDefinition, receipts)),
      ),
    );
    const violations = sharingViolations(receipts);
    expect(violations.length).to.be.greaterThan(0);
    expect(violations.some((v) => /Matches for one stream\/tool-call-delta/.test(v))).to.equal(
      true,
    );
  });
});
