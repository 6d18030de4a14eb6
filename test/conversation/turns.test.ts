/**
 * Turns (docs/decisions/0007-turn-separator.md): `turnDefinition` folds `turn/start` (with the
 * user's optional `prompt`) and `turn/end` into a `TurnNode` item placed where the turn
 * starts; `definitionsWithTurns` is the default composition plus turns. The default
 * composition alone still publishes no turn items (DESIGN's Conversation is unchanged).
 */
import { expect } from 'chai';
import { from, lastValueFrom, toArray } from 'rxjs';
import { Assembler } from '../../src/conversation/assembler.js';
import type { Conversation } from '../../src/conversation/conversation.js';
import { definitionsWithTurns } from '../../src/conversation/turns.js';
import type { TurnNode } from '../../src/definitions/turn-definition.js';
import type { CallfoldEvent, TurnStartEvent } from '../../src/events/types.js';
import { EventError, parseEvent } from '../../src/events/validate.js';
import { createSession } from '../../src/providers/session.js';
import { assemble } from '../../src/rx/assemble.js';
import {
  call,
  outline as itemOutline,
  NOW,
  result,
  textDelta,
  turn,
} from '../assembler/support/events.js';
import { describe, it } from '../harness.js';

const start = (seq: number, turnId: string, prompt?: string): TurnStartEvent =>
  prompt === undefined
    ? { type: 'turn/start', seq, turnId }
    : { type: 'turn/start', seq, turnId, prompt };

/** The Conversation's items as short labels, in order; a turn as `turn:<id>:<stage>:<prompt>`. */
const outline = (conversation: Conversation<TurnNode>): string[] =>
  itemOutline(conversation, (item) => `turn:${item.id}:${item.stage}:${item.prompt ?? '-'}`);

const session: CallfoldEvent[] = [
  start(1, 't1', 'Read a.md'),
  textDelta('a1', 0, 'Reading.'),
  call(2, 'c1', 'Read', '{"file_path":"a.md"}'),
  result(3, 'c1', 'text of a.md'),
  turn('turn/end', 4, 't1'),
  start(5, 't2', 'Now <b>list</b> the files'),
  call(6, 'c2', 'Bash', '{"command":"ls"}'),
];

function withTurns(): Assembler<TurnNode> {
  return new Assembler<TurnNode>({ definitions: definitionsWithTurns, now: () => NOW });
}

describe('turns: turnDefinition and definitionsWithTurns', () => {
  it("places a turn node where each turn starts, with the user's prompt as given", () => {
    const assembler = withTurns();
    assembler.push(session);
    const conversation = assembler.publish();
    expect(outline(conversation)).to.deep.equal([
      'turn:t1:ended:Read a.md',
      'assistant:a1',
      'group:c1',
      'turn:t2:running:Now <b>list</b> the files',
      'group:c2',
    ]);
    const first = conversation.items[0] as TurnNode;
    expect(Object.isFrozen(first)).to.be.true;
    expect(first.startedAt).to.equal(NOW);
  });

  it('a turn node splits a run of tools: without turns (negative control) c1 and c2 are one group', () => {
    const events = [call(1, 'c1', 'Read', '{}'), start(2, 't1'), call(3, 'c2', 'Read', '{}')];
    const assembler = withTurns();
    assembler.push(events);
    expect(outline(assembler.publish())).to.deep.equal([
      'group:c1',
      'turn:t1:running:-',
      'group:c2',
    ]);
    const plain = new Assembler({ now: () => NOW });
    plain.push(events);
    expect(outline(plain.publish())).to.deep.equal(['group:c1,c2']);
  });

  it('the default composition publishes no turn items: the Conversation of DESIGN is unchanged', () => {
    const assembler = new Assembler({ now: () => NOW });
    assembler.push(session);
    expect(outline(assembler.publish())).to.deep.equal(['assistant:a1', 'group:c1,c2']);
  });

  it('keeps an unchanged turn node by reference, and replaces it when the turn ends', () => {
    const assembler = withTurns();
    assembler.push([start(1, 't1', 'Go')]);
    const before = assembler.publish().items[0];
    assembler.push([call(2, 'c1', 'Read', '{}')]);
    expect(assembler.publish().items[0]).to.equal(before);
    assembler.push([turn('turn/end', 3, 't1')]);
    const after = assembler.publish().items[0] as TurnNode;
    expect(after).to.not.equal(before);
    expect(after.stage).to.equal('ended');
    expect(after.prompt).to.equal('Go');
  });

  it('a turn whose start is outside the loaded window has no node until an older page brings it', () => {
    const assembler = withTurns();
    assembler.push([call(2, 'c1', 'Read', '{}'), turn('turn/end', 3, 't1')]);
    expect(outline(assembler.publish())).to.deep.equal(['group:c1']);
    assembler.prepend([start(1, 't1', 'Earlier prompt')]);
    expect(outline(assembler.publish())).to.deep.equal([
      'turn:t1:ended:Earlier prompt',
      'group:c1',
    ]);
  });

  it('a repeated start of the same turn brings a prompt late; an empty prompt stays empty text', () => {
    const assembler = withTurns();
    assembler.push([start(1, 't1'), start(2, 't1', 'Late prompt'), start(3, 't2', '')]);
    expect(outline(assembler.publish())).to.deep.equal([
      'turn:t1:running:Late prompt',
      'turn:t2:running:',
    ]);
  });

  it('assemble<TurnNode>() with definitionsWithTurns folds the same turns through the pipeline', async () => {
    const published = await lastValueFrom(
      from([session]).pipe(
        assemble<TurnNode>({ definitions: definitionsWithTurns, now: () => NOW }),
        toArray(),
      ),
    );
    expect(outline(published.at(-1) as Conversation<TurnNode>)[0]).to.equal(
      'turn:t1:ended:Read a.md',
    );
  });

  it('Session.turn puts the prompt on turn/start only', () => {
    const recorder = createSession();
    expect(recorder.turn('turn/start', 't1', 'Hi')).to.include({
      type: 'turn/start',
      prompt: 'Hi',
    });
    expect(recorder.turn('turn/end', 't1', 'Hi')).to.not.have.property('prompt');
    expect(recorder.turn('turn/start', 't2')).to.not.have.property('prompt');
  });

  it('parseEvent accepts a string prompt and rejects any other value, naming the field', () => {
    expect(parseEvent({ type: 'turn/start', seq: 1, turnId: 't', prompt: 'Hi' })).to.be.ok;
    expect(parseEvent({ type: 'turn/start', seq: 1, turnId: 't', prompt: '' })).to.be.ok;
    for (const prompt of [42, null, { text: 'Hi' }, ['Hi']]) {
      let error: unknown;
      try {
        parseEvent({ type: 'turn/start', seq: 1, turnId: 't', prompt });
      } catch (caught) {
        error = caught;
      }
      expect(error).to.be.instanceOf(EventError);
      expect((error as EventError).field).to.equal('prompt');
    }
  });
});
