/**
 * The Assembler knows no tool: a custom Definition publishes a node kind of its own, folded
 * beside the built-in ones by the default composition, and a NodeAssembler given other
 * Definitions and another compose step publishes what that step makes.
 *
 * This file is also a type test: it compiles without casts.
 */
import { expect } from 'chai';
import { from, lastValueFrom } from 'rxjs';
import type { Definition } from '../../src/assembler/definition.js';
import { NodeAssembler } from '../../src/assembler/node-assembler.js';
import { Assembler, defaultDefinitions } from '../../src/conversation/assembler.js';
import type { Conversation } from '../../src/conversation/conversation.js';
import type { CallfoldEvent } from '../../src/events/types.js';
import { assemble } from '../../src/rx/assemble.js';
import {
  call,
  outline as itemOutline,
  NOW,
  result,
  textDelta,
  toolDelta,
  turn,
} from '../assembler/support/events.js';
import { describe, it } from '../harness.js';

/** One note per turn: opened by `turn/start`, marked ended by `turn/end`. */
interface NoteNode {
  readonly kind: 'note';
  readonly id: string;
  readonly text: string;
}

interface NoteState {
  turnId: string;
  ended: boolean;
}

const noteDefinition: Definition<NoteState, NoteNode> = {
  name: 'note',
  match(event, emit) {
    if (event.type === 'turn/start') emit(event.turnId, 'start');
    else if (event.type === 'turn/end') emit(event.turnId, 'update');
  },
  start: (match) => ({ turnId: (match.event as { turnId: string }).turnId, ended: false }),
  update: (state, match) => {
    if (match.event.type === 'turn/end') state.ended = true;
    return state;
  },
  build: (state, previous) => {
    const text = `turn ${state.turnId} ${state.ended ? 'ended' : 'running'}`;
    return previous?.text === text
      ? previous
      : Object.freeze({ kind: 'note', id: state.turnId, text });
  },
};

/** The Conversation's items as short labels, in order; a note as `note:<text>`. */
const outline = (conversation: Conversation<NoteNode>): string[] =>
  itemOutline(conversation, (note) => `note:${note.text}`);

const session: CallfoldEvent[] = [
  turn('turn/start', 1, 't1'),
  textDelta('a1', 0, 'Reading.'),
  toolDelta('a1', 1, 'c1', '{"file_path":"a.md"}', 'Read'),
  call(2, 'c1', 'Read', '{"file_path":"a.md"}'),
  result(3, 'c1', 'text of a.md'),
  turn('turn/end', 4, 't1'),
  turn('turn/start', 5, 't2'),
  call(6, 'c2', 'Bash', '{"command":"ls"}'),
];

describe('a custom Definition with a node kind of its own', () => {
  it('publishes its note nodes as items in log order, beside assistant responses and tool groups', () => {
    const assembler = new Assembler<NoteNode>({
      definitions: [...defaultDefinitions, noteDefinition],
      now: () => NOW,
    });
    assembler.push(session);
    const conversation = assembler.publish();
    expect(outline(conversation)).to.deep.equal([
      'note:turn t1 ended',
      'assistant:a1',
      'group:c1',
      'note:turn t2 running',
      'group:c2',
    ]);
    expect([...conversation.tools.keys()]).to.deep.equal(['c1', 'c2']);
    expect(conversation.tools.get('c1')?.stage).to.equal('result');
  });

  it('a note ends a run of tools: the tools on either side are two groups, not one', () => {
    const assembler = new Assembler<NoteNode>({
      definitions: [...defaultDefinitions, noteDefinition],
      now: () => NOW,
    });
    assembler.push([
      call(1, 'c1', 'Read', '{}'),
      turn('turn/start', 2, 't1'),
      call(3, 'c2', 'Read', '{}'),
    ]);
    expect(outline(assembler.publish())).to.deep.equal([
      'group:c1',
      'note:turn t1 running',
      'group:c2',
    ]);
  });

  it('keeps an unchanged note node and the Conversation by reference across publications', () => {
    const assembler = new Assembler<NoteNode>({
      definitions: [...defaultDefinitions, noteDefinition],
      now: () => NOW,
    });
    assembler.push(turn('turn/start', 1, 't1'));
    const first = assembler.publish();
    assembler.push(call(2, 'c1', 'Read', '{}'));
    const second = assembler.publish();
    expect(second).not.to.equal(first);
    expect(second.items[0]).to.equal(first.items[0]);
    expect(assembler.publish()).to.equal(second);
  });

  it('the built-in composition alone shows no notes: without them c1 and c2 are one group', () => {
    const assembler = new Assembler({ now: () => NOW });
    assembler.push(session);
    const items = assembler.publish().items;
    expect(
      items.map((item) => (item.kind === 'group' ? item.tools.length : item.kind)),
    ).to.deep.equal(['assistant', 2]);
  });

  it('assemble<NoteNode>() folds the same notes through the pipeline', async () => {
    const conversation = await lastValueFrom(
      from(session).pipe(
        assemble<NoteNode>({
          definitions: [...defaultDefinitions, noteDefinition],
          now: () => NOW,
        }),
      ),
    );
    expect(outline(conversation)).to.deep.equal([
      'note:turn t1 ended',
      'assistant:a1',
      'group:c1',
      'note:turn t2 running',
      'group:c2',
    ]);
  });
});

describe('NodeAssembler: any Definitions, any compose step', () => {
  it('folds with the Definitions given and publishes what compose returns, calling it only when something changed', () => {
    const composed: (readonly NoteNode[])[] = [];
    const assembler = new NodeAssembler<NoteNode, string>({
      definitions: [noteDefinition],
      compose: (nodes) => {
        composed.push(nodes);
        return nodes.map((node) => node.text).join(' | ');
      },
      now: () => NOW,
    });
    assembler.push(session);
    expect(assembler.publish()).to.equal('turn t1 ended | turn t2 running');
    expect(assembler.publish()).to.equal('turn t1 ended | turn t2 running');
    expect(composed).to.have.length(1);
    assembler.push(turn('turn/end', 7, 't2'));
    expect(assembler.publish()).to.equal('turn t1 ended | turn t2 ended');
    expect(composed).to.have.length(2);
  });

  it('an empty publication still goes through compose once', () => {
    const assembler = new NodeAssembler<NoteNode, number>({
      definitions: [noteDefinition],
      compose: (nodes) => nodes.length,
    });
    expect(assembler.publish()).to.equal(0);
  });
});
