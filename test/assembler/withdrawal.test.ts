/**
 * Withdrawal (DESIGN: Events, Assembler): `stream/settle` withdraws its attempt's stream
 * events and `reconnect()` withdraws every live one; the Assembler re-selects each touched
 * Context's start from what remains, deletes Contexts left empty, and keeps node identity
 * where a replay brings back what was already shown.
 */
import { expect } from 'chai';
import type { CallfoldEvent } from '../../src/events/types.js';
import { describe, it } from '../harness.js';
import {
  assembler,
  assistants,
  blockEnd,
  call,
  message,
  outline,
  result,
  settle,
  textDelta,
  toolDelta,
  toolOf,
} from './support/events.js';

/** A live attempt: some text, then a write whose arguments are still streaming. */
const attempt: readonly CallfoldEvent[] = [
  textDelta('a1', 0, 'Let me '),
  textDelta('a1', 0, 'write it.'),
  toolDelta('a1', 1, 'c1', '{"file_pa', 'write'),
  toolDelta('a1', 1, 'c1', 'th":"src/'),
  toolDelta('a1', 1, 'c1', 'a.ts","content":"x'),
];

describe('withdrawal: an attempt that settles without dispatch', () => {
  it('its preparing nodes, its group and its assistant node disappear', () => {
    const { assembler: a } = assembler();
    a.push(attempt);
    const live = a.publish();
    expect(outline(live)).to.deep.equal(['assistant:a1', 'group:c1']);
    a.push(settle('a1'));
    const gone = a.publish();
    expect(gone.items).to.deep.equal([]);
    expect(gone.tools.size).to.equal(0);
  });

  it('a later tool/call with the same callId opens the same identity, at start', () => {
    const { assembler: a } = assembler();
    a.push(attempt);
    a.publish();
    a.push(settle('a1'));
    expect(a.publish().tools.has('c1')).to.equal(false);
    a.push(call(1, 'c1', 'write', '{"file_path":"src/b.ts"}'));
    const node = toolOf(a.publish(), 'c1');
    expect(node).to.include({ callId: 'c1', stage: 'start', name: 'write' });
    expect(node.args.text('file_path')).to.equal('src/b.ts');
  });

  it('a retry that streams the same callId again shows it preparing again, with the new name and text', () => {
    const { assembler: a } = assembler();
    a.push(toolDelta('a1', 0, 'c1', '{"file_path":"x"', 'read'));
    toolOf(a.publish(), 'c1').args.text('file_path');
    a.push([settle('a1'), toolDelta('a2', 0, 'c1', '{"file_path":"x","content":"y"}', 'write')]);
    const node = toolOf(a.publish(), 'c1');
    expect(node).to.include({ stage: 'preparing', name: 'write' });
    expect(node.args.text('content')).to.equal('y');
    a.push([call(1, 'c1', 'write', '{"file_path":"x","content":"y"}'), settle('a2')]);
    expect(toolOf(a.publish(), 'c1').stage).to.equal('start');
  });

  it('a settle withdraws only its own attempt', () => {
    const { assembler: a } = assembler();
    a.push([toolDelta('a1', 0, 'c1', '{}', 'read'), toolDelta('a2', 0, 'c2', '{}', 'read')]);
    a.push(settle('a1'));
    const conversation = a.publish();
    expect([...conversation.tools.keys()]).to.deep.equal(['c2']);
  });

  it('a dispatched call survives its settle and is reordered by its durable record', () => {
    const { assembler: a } = assembler();
    a.push([
      toolDelta('a1', 1, 'c2', '{}', 'read'),
      toolDelta('a1', 0, 'c1', '{}', 'read'),
      message(1, 'a1', [
        { type: 'tool-use', callId: 'c1', name: 'read', argsText: '{}' },
        { type: 'tool-use', callId: 'c2', name: 'read', argsText: '{}' },
      ]),
      call(2, 'c1', 'read', '{}'),
      call(3, 'c2', 'read', '{}'),
    ]);
    expect(outline(a.publish()), 'live: in streaming order').to.deep.equal(['group:c2,c1']);
    a.push(settle('a1'));
    expect(outline(a.publish()), 'settled: in durable order').to.deep.equal(['group:c1,c2']);
  });

  it('stream events of a settled attempt are ignored, also after a reconnection', () => {
    const { assembler: a } = assembler();
    a.push([toolDelta('a1', 0, 'c1', '{}', 'read'), settle('a1')]);
    const before = a.publish();
    a.push([toolDelta('a1', 0, 'c1', '{}', 'read'), textDelta('a1', 1, 'late')]);
    expect(a.publish()).to.equal(before);
    a.reconnect();
    a.push(toolDelta('a1', 0, 'c1', '{}', 'read'));
    expect(a.publish().items).to.deep.equal([]);
  });
});

describe('withdrawal: reconnect() and the replay of the live attempt', () => {
  it('a replay pushed before the next publish keeps the same ToolNode, reader and AssistantNode', () => {
    const { assembler: a, errors } = assembler();
    a.push(attempt);
    const before = a.publish();
    const tool = toolOf(before, 'c1');
    expect(tool.args.text('file_path')).to.equal('src/a.ts');
    expect(tool.args.stringLength('content', { step: 1 })).to.equal(1);
    a.reconnect();
    a.push(attempt);
    const after = a.publish();
    expect(toolOf(after, 'c1'), 'same node').to.equal(tool);
    expect(toolOf(after, 'c1').args, 'same reader').to.equal(tool.args);
    expect(assistants(after)[0]).to.equal(assistants(before)[0]);
    expect(after, 'nothing changed: the same Conversation').to.equal(before);

    a.push(toolDelta('a1', 1, 'c1', 'yz'));
    const grown = toolOf(a.publish(), 'c1');
    expect(grown.args, 'the replayed reader goes on growing').to.equal(tool.args);
    expect(grown.args.text('content')).to.equal('xyz');
    expect(errors).to.deep.equal([]);
  });

  it('a replay cut into other fragments keeps the node and reader too', () => {
    const { assembler: a } = assembler();
    a.push(attempt);
    const tool = toolOf(a.publish(), 'c1');
    tool.args.text('file_path');
    a.reconnect();
    a.push([
      textDelta('a1', 0, 'Let me write it.'),
      toolDelta('a1', 1, 'c1', '{', 'write'),
      toolDelta('a1', 1, 'c1', '"file_path":"src/a.ts","content":"x'),
    ]);
    expect(toolOf(a.publish(), 'c1')).to.equal(tool);
  });

  it('a replay that runs ahead keeps the reader; the node changes only if a read answer did', () => {
    const { assembler: a } = assembler();
    a.push(attempt);
    const tool = toolOf(a.publish(), 'c1');
    expect(tool.args.text('file_path')).to.equal('src/a.ts');
    a.reconnect();
    a.push([...attempt, toolDelta('a1', 1, 'c1', 'yz')]);
    const ahead = toolOf(a.publish(), 'c1');
    expect(ahead, 'only content grew, and nobody read content').to.equal(tool);
    expect(ahead.args.text('content')).to.equal('xyz');

    a.reconnect();
    a.push([...attempt, toolDelta('a1', 1, 'c1', 'yz!')]);
    const changed = toolOf(a.publish(), 'c1');
    expect(changed, 'content was read and grew').to.not.equal(tool);
    expect(changed.args).to.equal(tool.args);
    expect(changed.args.text('content')).to.equal('xyz!');
  });

  it('a publish between reconnect() and the replay drops the node, and the replay opens a new node with a new reader', () => {
    const { assembler: a } = assembler();
    a.push(attempt);
    const tool = toolOf(a.publish(), 'c1');
    tool.args.text('file_path');
    a.reconnect();
    const between = a.publish();
    expect(between.tools.has('c1'), 'withdrawn: nothing left to show').to.equal(false);
    expect(between.items).to.deep.equal([]);
    a.push(attempt);
    const replayed = toolOf(a.publish(), 'c1');
    expect(replayed).to.not.equal(tool);
    expect(replayed.args).to.not.equal(tool.args);
    expect(replayed).to.include({ callId: 'c1', name: 'write', stage: 'preparing' });
    expect(replayed.args.text('file_path')).to.equal('src/a.ts');
  });

  it('a replay whose text differs from what was held gives a new reader with the replayed text', () => {
    const { assembler: a } = assembler();
    a.push(attempt);
    const tool = toolOf(a.publish(), 'c1');
    tool.args.text('file_path');
    a.reconnect();
    a.push(toolDelta('a1', 1, 'c1', '{"file_path":"src/b.ts"', 'write'));
    const replayed = toolOf(a.publish(), 'c1');
    expect(replayed.args).to.not.equal(tool.args);
    expect(replayed.args.text('file_path')).to.equal('src/b.ts');
  });

  it('a call dispatched before the reconnection keeps its node; its replayed deltas change nothing', () => {
    const argsText = '{"file_path":"src/a.ts","content":"x"}';
    const { assembler: a } = assembler();
    a.push([
      ...attempt,
      toolDelta('a1', 1, 'c1', '"}'),
      blockEnd('a1', 1, argsText, 'c1'),
      message(1, 'a1', [
        { type: 'text', text: 'Let me write it.' },
        { type: 'tool-use', callId: 'c1', name: 'write', argsText },
      ]),
      call(2, 'c1', 'write', argsText),
      toolDelta('a1', 2, 'c2', '{"command":"ls"', 'bash'),
    ]);
    const before = a.publish();
    const tool = toolOf(before, 'c1');
    expect(tool.stage).to.equal('start');
    tool.args.text('content');
    a.reconnect();
    a.push([
      ...attempt,
      toolDelta('a1', 1, 'c1', '"}'),
      blockEnd('a1', 1, argsText, 'c1'),
      toolDelta('a1', 2, 'c2', '{"command":"ls"', 'bash'),
    ]);
    const after = a.publish();
    expect(toolOf(after, 'c1')).to.equal(tool);
    expect(outline(after)).to.deep.equal(['assistant:a1', 'group:c1,c2']);
    a.push([call(3, 'c2', 'bash', '{"command":"ls"}'), settle('a1'), result(4, 'c1', 'ok')]);
    const settled = a.publish();
    expect(toolOf(settled, 'c1').args).to.equal(tool.args);
    expect(toolOf(settled, 'c2').stage).to.equal('start');
  });

  it('reconnect() with nothing live changes nothing', () => {
    const { assembler: a } = assembler();
    a.push([call(1, 'c1', 'read', '{}'), result(2, 'c1', 'x')]);
    const before = a.publish();
    a.reconnect();
    expect(a.publish()).to.equal(before);
  });
});
