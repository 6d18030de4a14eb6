/**
 * A NodeAssembler's two compose steps: `compose` is given an array, `composeList` the
 * NodeAssembler's own list (a `ReadList`); both see the same nodes with the same changes,
 * through history pages, a streaming call and its settle.
 */
import { expect } from 'chai';
import { NodeAssembler } from '../../src/assembler/node-assembler.js';
import type { ListChanges, ReadList } from '../../src/assembler/node-assembler-options.js';
import { defaultDefinitions } from '../../src/conversation/assembler.js';
import type { ConversationNode } from '../../src/conversation/conversation.js';
import type { CallfoldEvent, SessionEvent } from '../../src/events/types.js';
import { describe, it } from '../harness.js';
import { call, message, NOW, result, settle, settledLog, toolDelta } from './support/events.js';

type Node = ConversationNode<never>;

interface Call {
  readonly nodes: readonly Node[];
  readonly changes: ListChanges | undefined;
  readonly array: boolean;
}

function read(nodes: ReadList<Node>): Node[] {
  const copy: Node[] = [];
  for (let i = 0; i < nodes.length; i++) copy.push(nodes.at(i) as Node);
  return copy;
}

/** Feeds a session to `assembler` step by step, publishing after each. */
function run(assembler: NodeAssembler<Node, number>): void {
  const log = settledLog(60);
  const older = log.slice(0, 90);
  const newer = log.slice(90);
  assembler.push(newer);
  assembler.publish();
  for (let end = older.length; end > 0; end -= 30) {
    assembler.prepend(older.slice(Math.max(0, end - 30), end) as SessionEvent[]);
    assembler.publish();
  }
  let seq = 1000;
  const live: CallfoldEvent[] = [
    toolDelta('live', 0, 'w1', '{"file_path":"/a.md",', 'Write'),
    toolDelta('live', 0, 'w1', '"content":"hello'),
    toolDelta('live', 1, 'w2', '{"command":"ls"}', 'Bash'),
  ];
  for (const event of live) {
    assembler.push(event);
    assembler.publish();
  }
  assembler.push([
    message(seq++, 'live', [
      {
        type: 'tool-use',
        callId: 'w1',
        name: 'Write',
        argsText: '{"file_path":"/a.md","content":"hello"}',
      },
      { type: 'tool-use', callId: 'w2', name: 'Bash', argsText: '{"command":"ls"}' },
    ]),
    call(seq++, 'w1', 'Write', '{"file_path":"/a.md","content":"hello"}'),
    call(seq++, 'w2', 'Bash', '{"command":"ls"}'),
    settle('live'),
  ]);
  assembler.publish();
  assembler.push(result(seq++, 'w1', 'ok'));
  assembler.publish();
}

describe('NodeAssembler compose and composeList', () => {
  it('compose gets an array and composeList the list itself, with the same nodes and changes at every publication', () => {
    const arrays: Call[] = [];
    const lists: Call[] = [];
    const options = { definitions: defaultDefinitions, now: () => NOW };
    run(
      new NodeAssembler<Node, number>({
        ...options,
        compose: (nodes, changes) =>
          arrays.push({ nodes: [...nodes], changes, array: Array.isArray(nodes) }),
      }),
    );
    run(
      new NodeAssembler<Node, number>({
        ...options,
        composeList: (nodes, changes) =>
          lists.push({ nodes: read(nodes), changes, array: Array.isArray(nodes) }),
      }),
    );
    expect(arrays.length).to.be.above(8);
    expect(arrays.every((c) => c.array)).to.equal(true);
    expect(lists.map((c) => c.nodes)).to.deep.equal(arrays.map((c) => c.nodes));
    expect(lists.map((c) => c.changes)).to.deep.equal(arrays.map((c) => c.changes));
    // Patched publications lend the list itself: no array is copied for them.
    const patched = lists.filter((c) => c.changes !== undefined);
    expect(patched.length).to.be.above(4);
    expect(patched.some((c) => c.changes?.added)).to.equal(true);
    expect(patched.every((c) => !c.array)).to.equal(true);
  });

  it('a NodeAssembler without a compose step is a TypeError when made, not when it publishes', () => {
    const options = { definitions: defaultDefinitions } as unknown as ConstructorParameters<
      typeof NodeAssembler<Node, number>
    >[0];
    expect(() => new NodeAssembler<Node, number>(options)).to.throw(
      TypeError,
      'needs a compose or a composeList function',
    );
  });
});
