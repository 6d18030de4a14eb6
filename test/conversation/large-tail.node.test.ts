/**
 * A publication at the live end of a very long run never throws for well-typed events: the
 * tail paths copy a group's tools and the nodes appended one by one, as a spread of ~150,000
 * arguments overflows V8's stack. Node only (the limit is the runtime's stack size; each case
 * builds 200,000 nodes, about a second).
 */
import { expect } from 'chai';
import { PartialArguments } from '../../src/arguments/partial-arguments.js';
import type { Definition } from '../../src/assembler/definition.js';
import { NodeAssembler } from '../../src/assembler/node-assembler.js';
import type { ToolNode } from '../../src/definitions/tool-definition.js';
import type { TurnStartEvent } from '../../src/events/types.js';
import { Builder } from '../../src/groups/builder.js';
import { describe, it } from '../harness.js';

const N = 200_000;

function tool(i: number): ToolNode {
  return Object.freeze({
    kind: 'tool',
    callId: `c${i}`,
    name: 'Read',
    stage: 'start',
    args: PartialArguments.empty,
    argsRaw: '{}',
    call: Object.freeze({ name: 'Read', argsRaw: '{}' }),
    result: null,
  });
}

describe('publication at the end of a very long run', () => {
  // Failed before: the tail patch spread the run into a call and threw RangeError.
  it('a call appended after a run of 200,000 tools is grouped with it', () => {
    const nodes = Array.from({ length: N }, (_, i) => tool(i));
    const builder = new Builder();
    builder.build(nodes);
    const grouping = builder.build([...nodes, tool(N)], {
      removed: 0,
      added: 0,
      dropped: 0,
      appended: 1,
      replaced: [],
    });
    expect(grouping.items.length).to.equal(1);
    expect(grouping.tools.size).to.equal(N + 1);
  });

  // Failed before: appending them spread them into a call and threw RangeError.
  it('a NodeAssembler whose compose step takes arrays publishes 200,000 nodes pushed at once after a first publication', () => {
    type Mark = { readonly kind: 'mark'; readonly id: string };
    const marks: Definition<string, Mark> = {
      name: 'mark',
      match(event, emit) {
        if (event.type === 'turn/start') emit(event.turnId, 'start');
      },
      start: (match) => (match.event as TurnStartEvent).turnId,
      update: (state) => state,
      build: (state, previous) => previous ?? Object.freeze({ kind: 'mark', id: state }),
    };
    const assembler = new NodeAssembler<Mark, readonly Mark[]>({
      definitions: [marks],
      compose: (nodes) => nodes.slice(),
      now: () => 0,
    });
    assembler.push({ type: 'turn/start', seq: 0, turnId: 'first' });
    assembler.publish();
    const events: TurnStartEvent[] = [];
    for (let i = 1; i <= N; i++) events.push({ type: 'turn/start', seq: i, turnId: `t${i}` });
    assembler.push(events);
    const published = assembler.publish();
    expect(published.length).to.equal(N + 1);
    expect(published[N]?.id).to.equal(`t${N}`);
  });
});
