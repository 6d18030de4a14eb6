/**
 * The order of open Contexts and the list of their nodes, driven directly: Contexts are made
 * by hand (an opening Match at a chosen place, a node), no event is folded. Each publication
 * is checked against a sort of every open Context, and its `ListChanges` replayed on the last
 * list must give the new one. Work is counted (`assemblerProbe.ordered`, `.listed`), never
 * timed.
 */
import { expect } from 'chai';
import { ContextOrder, Ordered } from '../../src/assembler/context-order.js';
import type { Location, Match } from '../../src/assembler/match.js';
import { NodeListing } from '../../src/assembler/node-listing.js';
import { assemblerProbe } from '../../src/assembler/probe.js';
import type { CallfoldEvent } from '../../src/events/types.js';
import type { ListChanges } from '../../src/internal/list-changes.js';
import { describe, it } from '../harness.js';
import { prng } from '../support/prng.js';

const EVENT: CallfoldEvent = { type: 'stream/text-delta', attemptId: 'a', block: 0, text: '' };

/** A Context as the listing sees it: an opening, Matches, a node; `next` is what its next build gives. */
class Entry extends Ordered<string> {
  readonly name: string;
  readonly rank: number;
  opened: Match | undefined = undefined;
  matches: Match[] = [];
  node: string | undefined = undefined;
  next: string | undefined;
  dirty = false;

  constructor(name: string, rank: number, node: string | undefined) {
    super();
    this.name = name;
    this.rank = rank;
    this.next = node;
  }
}

function start(location: Location): Match {
  return { event: EVENT, role: 'start', location };
}

/**
 * What a NodeAssembler does around its listing, without Definitions: it reports openings
 * and moves as they happen, builds the dirty Contexts at a publication, then lists.
 */
class Fold {
  readonly all = new Set<Entry>();
  readonly order = new ContextOrder<string>(() => this.all);
  readonly listing = new NodeListing(this.order);
  #dirty: Entry[] = [];
  #count = 0;
  last: readonly string[] = [];

  /** A new Context opened at `location`, whose first build gives `node` (its name by default). */
  open(location: Location, options: { rank?: number; node?: string | null } = {}): Entry {
    const name = `c${this.#count++}`;
    const node = options.node === null ? undefined : (options.node ?? name);
    const entry = new Entry(name, options.rank ?? 0, node);
    this.all.add(entry);
    entry.opened = start(location);
    entry.matches = [entry.opened];
    this.order.opened(entry);
    this.#touch(entry);
    return entry;
  }

  /** Its opening moves to `location` (a replay: a withdrawn start, an earlier one paged in). */
  move(entry: Entry, location: Location): void {
    entry.opened = start(location);
    entry.matches = [entry.opened];
    this.order.reopened(entry);
    this.#touch(entry);
  }

  /** It loses its opening but keeps an update (a result whose call was withdrawn). */
  close(entry: Entry): void {
    entry.opened = undefined;
    entry.matches = [{ event: EVENT, role: 'update', location: 0 }];
    entry.next = undefined;
    this.order.reopened(entry);
    this.#touch(entry);
  }

  /** A closed one opens again at `location`. */
  reopen(entry: Entry, location: Location): void {
    entry.opened = start(location);
    entry.matches = [entry.opened];
    entry.next = entry.name;
    this.order.opened(entry);
    this.#touch(entry);
  }

  /** It loses every Match: dropped at the next publication. */
  drop(entry: Entry): void {
    entry.opened = undefined;
    entry.matches = [];
    this.order.reopened(entry);
    this.#touch(entry);
  }

  /** Its next build gives `node` (a new node, one appearing, or none). */
  build(entry: Entry, node: string | undefined): void {
    entry.next = node;
    this.#touch(entry);
  }

  /** Builds, lists, checks against a sort and against the last list, and returns the changes. */
  publish(): ListChanges | undefined {
    const dirty = this.#dirty;
    this.#dirty = [];
    for (const entry of dirty) {
      entry.dirty = false;
      if (entry.matches.length === 0) {
        this.all.delete(entry);
        entry.node = undefined;
        this.order.emptied(entry);
        continue;
      }
      const had = entry.node !== undefined;
      entry.node = entry.next;
      if (had !== (entry.node !== undefined)) this.order.nodeChanged(entry);
    }
    const changes = this.listing.publish(dirty);
    const nodes = read(this.listing.nodes);
    expect(nodes, 'the list').to.deep.equal(this.sorted());
    expect(read(this.listing.array()), 'the array').to.deep.equal(nodes);
    if (changes !== undefined) expect(replay(this.last, changes, nodes)).to.deep.equal(nodes);
    this.last = nodes;
    return changes;
  }

  /** The oracle: every open Context's node, sorted by opening, then rank. */
  sorted(): string[] {
    return [...this.all]
      .filter((entry) => entry.opened !== undefined && entry.node !== undefined)
      .sort(
        (a, b) => (a.opened as Match).location - (b.opened as Match).location || a.rank - b.rank,
      )
      .map((entry) => entry.node as string);
  }

  #touch(entry: Entry): void {
    if (entry.dirty) return;
    entry.dirty = true;
    this.#dirty.push(entry);
  }
}

function read(list: { readonly length: number; at(index: number): string | undefined }): string[] {
  const nodes: string[] = [];
  for (let i = 0; i < list.length; i++) nodes.push(list.at(i) as string);
  return nodes;
}

/** `last` with `changes` applied, taking the new nodes they name from `next`. */
function replay(last: readonly string[], changes: ListChanges, next: readonly string[]): string[] {
  const { removed, added, replaced } = changes;
  const dropped = changes.dropped ?? 0;
  const appended = changes.appended ?? 0;
  expect(removed + dropped, 'removed and dropped').to.be.at.most(last.length);
  let list = [...next.slice(0, added), ...last.slice(removed)];
  list = [...list.slice(0, list.length - dropped), ...next.slice(next.length - appended)];
  expect(list.length, 'length after the front and the end').to.equal(next.length);
  for (const i of replaced) {
    expect(i, 'a replaced index').to.be.within(added, next.length - appended - 1);
    expect(list[i], `node ${i} is new`).to.not.equal(next[i]);
    list[i] = next[i] as string;
  }
  return list;
}

/** `ordered` and `listed` counted during `body`. */
function work(body: () => void): { ordered: number; listed: number } {
  const ordered = assemblerProbe.ordered;
  const listed = assemblerProbe.listed;
  body();
  return { ordered: assemblerProbe.ordered - ordered, listed: assemblerProbe.listed - listed };
}

/** A fold of `count` Contexts opened at places 1…count, published. */
function session(count: number): { fold: Fold; entries: Entry[] } {
  const fold = new Fold();
  const entries: Entry[] = [];
  for (let i = 1; i <= count; i++) entries.push(fold.open(i));
  fold.publish();
  return { fold, entries };
}

describe('NodeListing and ContextOrder, without folding', () => {
  it('lists the first publication afresh, in order of opening then rank', () => {
    const fold = new Fold();
    fold.open(2, { rank: 1, node: 'tool' });
    fold.open(2, { rank: 0, node: 'text' });
    fold.open(1);
    expect(fold.publish()).to.equal(undefined);
    expect(fold.last).to.deep.equal(['c2', 'text', 'tool']);
  });

  it('Contexts opened at the live end are appended, with no sort and no relisting', () => {
    const { fold } = session(300);
    let changes: ListChanges | undefined;
    const cost = work(() => {
      fold.open(301);
      fold.open(302);
      changes = fold.publish();
    });
    expect(changes).to.deep.equal({ removed: 0, added: 0, dropped: 0, appended: 2, replaced: [] });
    expect(cost).to.deep.equal({ ordered: 0, listed: 0 });
  });

  it('a new node of a listed Context is one replaced index', () => {
    const { fold, entries } = session(10);
    fold.build(entries[4] as Entry, 'c4 v2');
    expect(fold.publish()).to.deep.equal({
      removed: 0,
      added: 0,
      dropped: 0,
      appended: 0,
      replaced: [4],
    });
  });

  it('the order reports a change for a moved opening, not for one appended (its Context is dirty)', () => {
    const { fold, entries } = session(5);
    expect(fold.order.changed).to.equal(false);
    fold.open(6);
    expect(fold.order.changed).to.equal(false);
    fold.move(entries[2] as Entry, 7);
    expect(fold.order.changed).to.equal(true);
    fold.publish();
    expect(fold.order.changed).to.equal(false);
  });

  it('the tail repair re-sorts only the stretch from the first opening that moved near the end', () => {
    const { fold, entries } = session(500);
    let changes: ListChanges | undefined;
    // An attempt settles: its response and call (the last two Contexts) reopen on the
    // durable events, after a turn that opened meanwhile.
    const cost = work(() => {
      fold.open(501);
      fold.move(entries[498] as Entry, 503);
      fold.move(entries[499] as Entry, 502);
      changes = fold.publish();
    });
    expect(changes).to.deep.equal({ removed: 0, added: 0, dropped: 2, appended: 3, replaced: [] });
    expect(fold.last.slice(-3)).to.deep.equal(['c500', 'c499', 'c498']);
    expect(cost.listed, 'nodes relisted').to.equal(0);
    expect(cost.ordered, 'Contexts sorted').to.equal(3);
  });

  it('the tail repair takes in the Contexts appended before the one that moved', () => {
    const { fold } = session(300);
    let changes: ListChanges | undefined;
    const cost = work(() => {
      fold.open(301);
      const call = fold.open(302);
      fold.move(call, 304);
      fold.open(303);
      changes = fold.publish();
    });
    expect(changes).to.deep.equal({ removed: 0, added: 0, dropped: 0, appended: 3, replaced: [] });
    expect(fold.last.slice(-3)).to.deep.equal(['c300', 'c302', 'c301']);
    expect(cost.listed, 'nodes relisted').to.equal(0);
  });

  it('negative control for the tail repair: an opening moved beyond the tail window sorts and relists everything', () => {
    const { fold, entries } = session(500);
    let changes: ListChanges | undefined;
    const cost = work(() => {
      fold.move(entries[400] as Entry, 501);
      changes = fold.publish();
    });
    expect(changes).to.equal(undefined);
    expect(cost).to.deep.equal({ ordered: 500, listed: 500 });
  });

  it('an opening moved before the Context preceding the stretch sorts everything', () => {
    const { fold, entries } = session(100);
    let changes: ListChanges | undefined;
    const cost = work(() => {
      fold.move(entries[99] as Entry, 50.5);
      changes = fold.publish();
    });
    expect(changes).to.equal(undefined);
    expect(cost.listed).to.equal(100);
    expect(fold.last[50]).to.equal('c99');
  });

  it('a Context that lost its Matches at the end is dropped by the tail repair', () => {
    const { fold, entries } = session(50);
    fold.drop(entries[49] as Entry);
    expect(fold.publish()).to.deep.equal({
      removed: 0,
      added: 0,
      dropped: 1,
      appended: 0,
      replaced: [],
    });
    expect(fold.last.length).to.equal(49);
  });

  it('a node that appears after its Context was listed is listed by the tail repair', () => {
    const fold = new Fold();
    for (let i = 1; i <= 20; i++) fold.open(i);
    // A call whose name comes after its first delta: open, listed without a node.
    const call = fold.open(21, { node: null });
    fold.open(22);
    fold.publish();
    expect(fold.last).to.not.include('c20');
    fold.build(call, 'c20');
    let changes: ListChanges | undefined;
    const cost = work(() => {
      changes = fold.publish();
    });
    expect(changes).to.deep.equal({ removed: 0, added: 0, dropped: 1, appended: 2, replaced: [] });
    expect(cost.listed).to.equal(0);
  });

  it('an older page opens Contexts at the front: merged without relisting the rest', () => {
    const { fold } = session(300);
    let changes: ListChanges | undefined;
    const cost = work(() => {
      fold.open(-2);
      fold.open(-1);
      fold.open(0.5);
      changes = fold.publish();
    });
    expect(changes).to.deep.equal({ removed: 0, added: 3, dropped: 0, appended: 0, replaced: [] });
    expect(fold.last.slice(0, 4)).to.deep.equal(['c300', 'c301', 'c302', 'c0']);
    expect(cost).to.deep.equal({ ordered: 3, listed: 0 });
  });

  it('a page that moves the first Contexts re-sorts them with the page', () => {
    const { fold, entries } = session(300);
    fold.open(-1);
    fold.move(entries[1] as Entry, -2);
    const changes = fold.publish();
    expect(changes).to.deep.equal({ removed: 2, added: 3, dropped: 0, appended: 0, replaced: [] });
    expect(fold.last.slice(0, 4)).to.deep.equal(['c1', 'c300', 'c0', 'c2']);
  });

  it('a page and a moved end in one publication are listed afresh', () => {
    const { fold, entries } = session(30);
    fold.open(-1);
    fold.move(entries[29] as Entry, 31);
    expect(fold.publish()).to.equal(undefined);
  });

  it('for any sequence of openings, moves, closings, drops and builds, each list is the sorted one and its changes replay it', () => {
    for (let seed = 1; seed <= 150; seed++) {
      const random = prng(seed);
      const fold = new Fold();
      const live: Entry[] = [];
      const closed: Entry[] = [];
      let top = 0;
      let bottom = 0;
      const pick = (list: Entry[], near: boolean): Entry | undefined => {
        if (list.length === 0) return undefined;
        const span = near ? Math.min(list.length, 6) : list.length;
        return list[list.length - 1 - Math.floor(random() * span)];
      };
      const remove = (list: Entry[], entry: Entry) => list.splice(list.indexOf(entry), 1);
      for (let step = 0; step < 120; step++) {
        const r = random();
        const near = random() < 0.8;
        if (r < 0.35) {
          const entry = fold.open(++top, {
            rank: Math.floor(random() * 2),
            ...(random() < 0.2 && { node: null }),
          });
          live.push(entry);
        } else if (r < 0.42) {
          live.unshift(fold.open(--bottom));
        } else if (r < 0.55) {
          const entry = pick(live, near);
          if (entry) fold.move(entry, near ? ++top : bottom + random() * (top - bottom));
        } else if (r < 0.62) {
          const entry = pick(live, near);
          if (entry) {
            remove(live, entry);
            fold.drop(entry);
          }
        } else if (r < 0.68) {
          const entry = pick(live, near);
          if (entry) {
            remove(live, entry);
            closed.push(entry);
            fold.close(entry);
          }
        } else if (r < 0.72) {
          const entry = closed.pop();
          if (entry) {
            live.push(entry);
            fold.reopen(entry, ++top);
          }
        } else if (r < 0.85) {
          const entry = pick(live, near);
          if (entry) {
            const node = random() < 0.15 ? undefined : `${entry.name} ${step}`;
            fold.build(entry, node);
          }
        } else {
          try {
            fold.publish();
          } catch (error) {
            throw new Error(`seed ${seed}, step ${step}: ${(error as Error).message}`);
          }
        }
      }
      fold.publish();
    }
  });
});
