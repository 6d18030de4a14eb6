import { expect } from 'chai';
import fc from 'fast-check';
import {
  distinctUntilChanged,
  map,
  type Observable,
  type OperatorFunction,
  Subject,
  VirtualTimeScheduler,
} from 'rxjs';
import type { Conversation } from '../../src/conversation/conversation.js';
import type { CallfoldEvent } from '../../src/events/types.js';
import type { GroupNode } from '../../src/groups/builder.js';
import { assemble } from '../../src/rx/assemble.js';
import { selectActiveTools } from '../../src/rx/select-active-tools.js';
import { selectGroups } from '../../src/rx/select-groups.js';
import { selectTool } from '../../src/rx/select-tool.js';
import { describe, it } from '../harness.js';
import { call, delta, result, text, ticks } from './session.js';

const now = () => 1000;

/** The Conversations `assemble()` emits for a session, one tick per virtual frame. */
function conversations(session: readonly (readonly CallfoldEvent[])[]): Conversation[] {
  const scheduler = new VirtualTimeScheduler();
  const input = new Subject<readonly CallfoldEvent[]>();
  const out: Conversation[] = [];
  input.pipe(assemble({ now, scheduler })).subscribe((c) => out.push(c));
  for (const [i, events] of session.entries()) scheduler.schedule(() => input.next(events), i + 1);
  scheduler.flush();
  return out;
}

function collect<T>(values: readonly Conversation[], operator: OperatorFunction<Conversation, T>) {
  const out: T[] = [];
  const source = new Subject<Conversation>();
  (source.pipe(operator) as Observable<T>).subscribe((v) => out.push(v));
  for (const value of values) source.next(value);
  return out;
}

/** Drops each value equal to the one before under `same`. */
function dedupe<T>(values: readonly T[], same: (a: T, b: T) => boolean): T[] {
  const out: T[] = [];
  for (const value of values) {
    const last = out[out.length - 1];
    if (out.length === 0 || !same(last as T, value)) out.push(value);
  }
  return out;
}

const sameElements = <T>(a: readonly T[], b: readonly T[]) =>
  a.length === b.length && a.every((x, i) => x === b[i]);
const groupsOf = (c: Conversation) => c.items.filter((i): i is GroupNode => i.kind === 'group');
const activeOf = (c: Conversation) =>
  groupsOf(c).flatMap((g) => g.tools.filter((t) => t.stage !== 'result'));

describe('selectTool', () => {
  it('emits the node of a callId each time it is replaced, and only then', () => {
    fc.assert(
      fc.property(ticks, fc.constantFrom('c0', 'c1', 'c2'), (session, callId) => {
        const all = conversations(session);
        const selected = collect(all, selectTool(callId));
        const expected = dedupe(
          all.map((c) => c.tools.get(callId)),
          (a, b) => a === b,
        );
        expect(selected).to.have.length(expected.length);
        for (const [i, node] of selected.entries()) expect(node).to.equal(expected[i]);
      }),
    );
  });

  it('emits undefined while the call is unknown, then nothing while other nodes change', () => {
    const all = conversations([
      [text('Hi')],
      [delta('c1', '{"file_path":"a.ts"}', 'Read')],
      [text(' there')],
      [call(1, 'c1', '{"file_path":"a.ts"}')],
      [result(2, 'c1')],
    ]);
    expect(all).to.have.length(5);
    const stages = collect(all, selectTool('c1')).map((node) => node?.stage);
    expect(stages).to.deep.equal([undefined, 'preparing', 'start', 'result']);
  });
});

describe('selectGroups', () => {
  it('emits the groups when a group object changes, the same array otherwise', () => {
    fc.assert(
      fc.property(ticks, (session) => {
        const all = conversations(session);
        const selected = collect(all, selectGroups());
        const expected = dedupe(all.map(groupsOf), sameElements);
        expect(selected).to.have.length(expected.length);
        selected.forEach((groups, i) => {
          expect(sameElements(groups, expected[i] as GroupNode[])).to.equal(true);
          expect(Object.isFrozen(groups)).to.equal(true);
        });
      }),
    );
  });

  it('stays quiet while only assistant text changes (a naive selector would not)', () => {
    const all = conversations([
      [delta('c1', '{}', 'Read'), text('a', 'a2')],
      [text('b', 'a2')],
      [text('c', 'a2')],
    ]);
    expect(all).to.have.length(3);
    expect(collect(all, selectGroups())).to.have.length(1);
    const naive = collect(all, (source: Observable<Conversation>) =>
      source.pipe(map(groupsOf), distinctUntilChanged()),
    );
    expect(naive, 'negative control').to.have.length(3);
  });

  it('memoizes per subscription', () => {
    const all = conversations([[delta('c1', '{}', 'Read')]]);
    const [a] = collect(all, selectGroups());
    const [b] = collect(all, selectGroups());
    expect(a).not.to.equal(b);
    expect(sameElements(a ?? [], b ?? [])).to.equal(true);
  });
});

describe('selectActiveTools', () => {
  it('emits the calls without a result when one of them changes, and only then', () => {
    fc.assert(
      fc.property(ticks, (session) => {
        const all = conversations(session);
        const selected = collect(all, selectActiveTools());
        const expected = dedupe(all.map(activeOf), sameElements);
        expect(selected).to.have.length(expected.length);
        selected.forEach((tools, i) => {
          expect(sameElements(tools, expected[i] ?? [])).to.equal(true);
          expect(tools.every((t) => t.stage !== 'result')).to.equal(true);
        });
      }),
    );
  });

  it('drops a call once its result arrives and ignores finished calls', () => {
    const all = conversations([
      [call(1, 'c1'), result(2, 'c1')],
      [delta('c2', '{}', 'Bash')],
      [call(3, 'c2', '{}')],
      [result(4, 'c1')],
      [result(5, 'c2')],
    ]);
    const active = collect(all, selectActiveTools()).map((tools) =>
      tools.map((t) => `${t.callId}:${t.stage}`),
    );
    expect(active).to.deep.equal([[], ['c2:preparing'], ['c2:start'], []]);
  });
});
