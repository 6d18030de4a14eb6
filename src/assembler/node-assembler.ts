import { type CallfoldEvent, isStreamEvent, type SessionEvent } from '../events/types.js';
import { EventError, parseEvent } from '../events/validate.js';
import { appendAll } from '../internal/append-all.js';
import { DEV_MODE } from '../internal/dev-mode.js';
import { FrontList } from '../internal/front-list.js';
import { Context } from './context.js';
import type { Definition } from './definition.js';
import { compareMatches, type Emit, type Location, type Match, type Role } from './match.js';
import { Places } from './places.js';
import { assemblerProbe } from './probe.js';
import { Times } from './times.js';

/**
 * Folds `event` at the live end, stamped `at`, as `push` does once it has validated an event
 * and read its clock. For `assemble()`'s direct path (src/rx/direct-events.ts), which
 * validates what needs it and reads the clock once per provider chunk; not exported from the
 * package. `event` must be well-formed: nothing here checks it.
 */
export let pushChecked: <Node, Published>(
  assembler: NodeAssembler<Node, Published>,
  event: CallfoldEvent,
  at: number,
) => void;

/**
 * Compose steps of this package that read their `nodes` only through `length` and `at(i)`
 * (the groups Builder's `build`): a NodeAssembler hands them its own list of nodes, which
 * grows at the front without moving (`FrontList`), where any other compose step gets an
 * array (made again after each change at the front). Internal: not re-exported.
 */
export const composeTakesList = new WeakSet<object>();

/** How a NodeAssembler folds and what it publishes; `now` and `onError` as in `AssemblerOptions`. */
export interface NodeAssemblerOptions<Node, Published> {
  /**
   * The Definitions to fold with, in tie-break order (when two Contexts open on the same
   * event, the earlier Definition's node comes first).
   */
  readonly definitions: readonly Definition<unknown, Node>[];
  /**
   * Turns the nodes built, in log order, into the published value. Called at each
   * publication where something changed; one function per NodeAssembler, so it may keep
   * what it built last to share structure (as the groups Builder does). `nodes` is lent for
   * the call (copy what you keep). `changes`, when given, says how `nodes` differs from the
   * last call's list (see `NodeChanges`): a call streaming in a long session is one replaced
   * index, an older history page a few nodes at the front, so a compose can patch instead of
   * rebuilding.
   */
  readonly compose: (nodes: readonly Node[], changes?: NodeChanges) => Published;
  /**
   * The clock that stamps events without `at`, in ms since the Unix epoch. Default: Date.now.
   * `push` reads it at most once per task: events pushed in one synchronous burst (one
   * network chunk, one tick) share that time. `assemble()` over an adapter reads it at most
   * once per provider chunk instead (docs/decisions/0009-direct-adapter-fold.md).
   */
  readonly now?: () => number;
  /**
   * Called with an error a Definition threw while folding or building one Context; that
   * Context keeps its last good node and every other Context goes on. Default: console.warn.
   */
  readonly onError?: (error: unknown, definition: string, key: string) => void;
}

/**
 * How the nodes a NodeAssembler hands `compose` differ from the last call's: the first
 * `removed` nodes of the last list were replaced by the first `added` nodes of this one (an
 * older history page: Contexts opened before everything published, and those whose opening
 * moved among them); the last `dropped` nodes of the last list by the last `appended` nodes
 * of this one (a call or a response starting at the live end, an attempt settling: Contexts
 * opened after everything published, and those near the end whose opening moved); then the
 * nodes at the indexes `replaced` (each ≥ `added` and < length − `appended`) by new nodes of
 * the same Contexts. Every other node is the last list's, in the same order.
 */
export interface NodeChanges {
  readonly removed: number;
  readonly added: number;
  readonly dropped: number;
  readonly appended: number;
  readonly replaced: readonly number[];
}

/**
 * How far from the end of the order a Context whose opening moved is looked for (an attempt
 * settling moves its response and calls, the last Contexts opened); one farther away, or
 * moved before the Contexts in that stretch, makes the publication sort every Context.
 */
const TAIL_WINDOW = 64;

/**
 * Folds an agent session's events into nodes through the Definitions it is given, and
 * publishes what its `compose` step makes of them. It knows no tool: `Assembler` (in
 * `src/conversation/`) is the default composition, tool and assistant Definitions and the
 * groups Builder giving a Conversation.
 *
 * - `push` takes events at the live end; `prepend` an older page of durable events;
 *   `reconnect` withdraws every stream event held (the host then pushes the durable events it
 *   missed and a replay of the still-live attempt). `stream/settle` withdraws its attempt.
 * - Each event is matched by every Definition; the Assembler creates one frozen Match per
 *   event and role, shared by all who matched it, and keeps one Context (State and node) per
 *   Definition and key. A Match placed after everything a Context holds is folded at once;
 *   earlier events (an older page) or withdrawn ones make the Assembler re-select the start
 *   and replay only the Contexts they touch. A Context left without Matches is dropped at the
 *   next publication (so a replay pushed before then finds its published node again).
 * - Durable events are identified by `seq`: one already held is ignored, so pages may
 *   overlap, and equal durable events give equal final state whatever the paging.
 * - Stream events of an attempt that has settled are stale and ignored.
 * - Malformed input is rejected by `push`/`prepend` with an `EventError` naming the field,
 *   before anything of the batch is folded. A well-typed event never makes `publish` throw.
 *
 * Stream events are held until their attempt settles (a replay needs them); durable events
 * for the Assembler's life.
 */
export class NodeAssembler<Node, Published> {
  readonly #definitions: readonly Definition<unknown, Node>[];
  readonly #now: () => number;
  /** The clock's reading for the current task; cleared by a microtask. */
  #clock: number | undefined;
  readonly #clearClock = (): void => {
    this.#clock = undefined;
  };
  readonly #onError: NonNullable<NodeAssemblerOptions<Node, Published>['onError']>;
  readonly #contexts = new Map<Definition<unknown, Node>, Map<string, Context<unknown, Node>>>();
  /** Contexts to rebuild at the next publication (each once: see Context.dirty). */
  #dirty: Context<unknown, Node>[] = [];
  /** Contexts holding stream Matches, by attemptId. */
  readonly #live = new Map<string, Set<Context<unknown, Node>>>();
  readonly #settled = new Set<string>();
  readonly #places = new Places();
  readonly #times = new Times();
  /** The fold in progress, read by `#emit`: reused fields, so matching allocates nothing. */
  #foldDefinition: Definition<unknown, Node> | null = null;
  #foldContexts: Map<string, Context<unknown, Node>> | null = null;
  #foldEvent: CallfoldEvent | null = null;
  #foldLocation: Location = 0;
  #foldAttempt: string | undefined;
  #foldStart: Match | undefined;
  #foldUpdate: Match | undefined;
  readonly #replays: Context<unknown, Node>[] = [];
  readonly #emit: Emit = (key, role) => this.#attach(key, role);
  readonly #timeOf = (match: Match): number => this.#times.of(match);
  /**
   * Open Contexts in log order of their opening Match (then Definition), while `#orderValid`,
   * except those in `#front`. Kept in order without sorting as long as Contexts open at the
   * live end (pushed) or before everything published (`#front`, an older history page:
   * merged at the next publication); any other opening or move is a sort at the next one.
   */
  #order = new FrontList<Context<unknown, Node>>();
  #orderValid = true;
  /** Contexts opened, or moved, before `#frontLimit` since the last publication. */
  #front: Context<unknown, Node>[] = [];
  /** The opening of the first Context ordered at the last publication. */
  #frontLimit: Match | undefined;
  /** Contexts of `#order` whose opening moved, or who lost it, since the last publication. */
  #moved: Context<unknown, Node>[] = [];
  /** `#order.length` at the last publication: Contexts after it were pushed since. */
  #orderedAtPublish = 0;
  /** Numbers publications, for `Context.tail`. */
  #publication = 0;
  readonly #rank: Map<Definition<unknown, Node>, number>;
  readonly #compose: (nodes: readonly Node[], changes?: NodeChanges) => Published;
  /**
   * The nodes last composed. A Context's node is at index `slot − #nodeBase` while its
   * `slotEpoch` is `#epoch`: nodes added at the front take slots below the base, so that
   * no other Context is renumbered.
   */
  #nodes = new FrontList<Node>();
  /**
   * `#nodes` as an array, for a compose step that takes one (not `composeTakesList`): made
   * at a publication after a change at the front, kept in step while nodes are replaced.
   */
  #nodeArray: Node[] | undefined;
  /** Whether `#compose` reads its nodes as a `FrontList` (see `composeTakesList`). */
  readonly #composeTakesList: boolean;
  #nodeBase = 0;
  #epoch = 1;
  /** What `#compose` last returned; `#hasPublished` tells it from a first publication. */
  #published: Published | undefined;
  #hasPublished = false;

  constructor(options: NodeAssemblerOptions<Node, Published>) {
    // A copy, not the caller's array: for-of over a frozen array (defaultDefinitions) is not
    // optimized away by V8 and allocated per folded event (+5 MiB, 7.5 → 12.7 MiB, on the
    // fold benchmark's 512 KiB write; measured 2026-12-01).
    this.#definitions = [...options.definitions];
    this.#now = options.now ?? Date.now;
    this.#compose = options.compose;
    this.#composeTakesList = composeTakesList.has(options.compose);
    this.#onError =
      options.onError ??
      ((error, definition, key) => console.warn(`callfold: ${definition} "${key}":`, error));
    for (const definition of this.#definitions) this.#contexts.set(definition, new Map());
    this.#rank = new Map(this.#definitions.map((definition, i) => [definition, i]));
  }

  static {
    pushChecked = (assembler, event, at) => assembler.#receive(event, at);
  }

  /** Takes events at the live end, in order. Throws an EventError (folding nothing) on a malformed one. */
  push(events: CallfoldEvent | readonly CallfoldEvent[]): void {
    const at = this.#time();
    if (!isList(events)) {
      if (DEV_MODE) assemblerProbe.validated++;
      this.#receive(parseEvent(events), at);
      return;
    }
    for (const event of checked(events)) this.#receive(event, at);
  }

  /**
   * Takes an older page of durable events (ascending seq), placed before everything held.
   * Events already held are ignored. Throws an EventError on a malformed event or a stream event.
   */
  prepend(events: readonly SessionEvent[]): void {
    const page = checked(events);
    for (const event of page as readonly CallfoldEvent[]) {
      if (isStreamEvent(event)) {
        throw new EventError('type', `${event.type} event: history pages hold durable events only`);
      }
    }
    const at = this.#time();
    const bySeq = new Map<number, SessionEvent>();
    for (const event of page) if (!bySeq.has(event.seq)) bySeq.set(event.seq, event);
    for (const { seq, location } of this.#places.page([...bySeq.keys()])) {
      const event = bySeq.get(seq) as SessionEvent;
      this.#times.durable(event, at);
      this.#fold(event, location, undefined);
    }
  }

  /** Withdraws every stream event held, as after a lost connection; settled attempts stay settled. */
  reconnect(): void {
    for (const attemptId of [...this.#live.keys()]) this.#withdraw(attemptId);
    this.#times.withdrawAll();
  }

  /**
   * Builds the Contexts that changed since the last publication (a Tool node's build refreshes
   * its reader, so only observed answers count) and returns what `compose` makes of the
   * nodes in log order. Returns the last value, without calling `compose`, when nothing changed.
   */
  publish(): Published {
    if (
      this.#hasPublished &&
      this.#dirty.length === 0 &&
      this.#orderValid &&
      this.#front.length === 0 &&
      this.#moved.length === 0
    ) {
      return this.#published as Published;
    }
    const dirty = this.#dirty;
    this.#dirty = [];
    for (const context of dirty) {
      context.dirty = false;
      this.#build(context);
    }
    this.#publication++;
    let changes: NodeChanges | undefined;
    let merged: Merged<Node> | undefined;
    let tail: Tail<Node> | undefined;
    if (this.#moved.length > 0 && this.#front.length > 0) this.#orderValid = false;
    if (this.#orderValid && this.#moved.length > 0) tail = this.#repairTail();
    else if (this.#orderValid) tail = this.#appendedTail();
    if (this.#moved.length > 0) {
      for (const context of this.#moved) context.moved = false;
      this.#moved = [];
    }
    if (!this.#orderValid) {
      this.#sortOrder();
    } else {
      if (this.#front.length > 0) merged = this.#mergeFront();
      if (this.#hasPublished) changes = this.#changes(dirty, merged, tail);
    }
    if (merged) for (const context of merged.prefix) context.front = false;
    const published =
      changes !== undefined
        ? this.#compose(this.#nodeList(), changes)
        : this.#compose(this.#relist());
    this.#frontLimit = this.#order.length > 0 ? this.#order.at(0).opened : undefined;
    this.#orderedAtPublish = this.#order.length;
    this.#published = published;
    this.#hasPublished = true;
    return published;
  }

  /**
   * Puts the Contexts of `#front` in `#order`: sorted with the first ordered ones down to the
   * last that moved (usually a few), before the rest, which keeps its place.
   */
  #mergeFront(): Merged<Node> {
    const front = this.#front;
    this.#front = [];
    const order = this.#order;
    let moved = 0;
    for (const context of front) if (context.ordered) moved++;
    let removed = 0;
    while (moved > 0) if (order.at(removed++).front) moved--;
    const old: Context<unknown, Node>[] = [];
    for (let i = 0; i < removed; i++) old.push(order.at(i));
    const prefix = front;
    for (const context of old) {
      if (context.front) continue;
      context.front = true;
      prefix.push(context);
    }
    if (DEV_MODE) assemblerProbe.ordered += prefix.length;
    prefix.sort(this.#compareOpened);
    for (const context of prefix) context.ordered = true;
    order.replaceFront(removed, prefix);
    return { prefix, old };
  }

  /**
   * Applies the changes since the last publication to `#nodes` and returns them; undefined
   * (nothing written) when a Context after the front gained or lost its node (the list is
   * then rebuilt).
   */
  #changes(
    dirty: readonly Context<unknown, Node>[],
    merged: Merged<Node> | undefined,
    tail: Tail<Node> | undefined,
  ): NodeChanges | undefined {
    // A page at the front and a changed end in one publication: listed afresh (rare).
    if (merged && tail) return undefined;
    const epoch = this.#epoch;
    const base = this.#nodeBase;
    const nodes = this.#nodes;
    let removed = 0;
    const added: Node[] = [];
    if (merged) {
      for (const context of merged.old) if (context.slotEpoch === epoch) removed++;
      for (const context of merged.prefix) if (context.node !== undefined) added.push(context.node);
    }
    // The end: the old nodes of the tail's Contexts must be the last of the list.
    let dropped = 0;
    const appended: Node[] = tail ? [] : NO_NODES;
    if (tail) {
      let first = Number.POSITIVE_INFINITY;
      for (const context of tail.old) {
        if (context.slotEpoch !== epoch) continue;
        dropped++;
        first = Math.min(first, context.slot - base);
      }
      if (dropped > 0 && first !== nodes.length - dropped) return undefined;
      for (const context of tail.contexts)
        if (context.node !== undefined) appended.push(context.node);
    }
    const at: number[] = [];
    const by: Node[] = [];
    for (const context of dirty) {
      if (context.front || context.tail === this.#publication) continue;
      const had = context.slotEpoch === epoch;
      if (had !== (context.node !== undefined)) return undefined;
      if (had && nodes.at(context.slot - base) !== context.node) {
        at.push(context.slot - base);
        by.push(context.node as Node);
      }
    }
    const shift = added.length - removed;
    const array = this.#nodeArray;
    const replaced = at.map((i, k) => {
      nodes.set(i, by[k] as Node);
      if (array) array[i] = by[k] as Node;
      return i + shift;
    });
    if (merged) {
      nodes.replaceFront(removed, added);
      if (removed > 0 || added.length > 0) this.#nodeArray = undefined;
      const start = base - shift;
      let slot = start;
      for (const context of merged.prefix) {
        if (context.node === undefined) {
          context.slotEpoch = 0;
        } else {
          context.slot = slot++;
          context.slotEpoch = epoch;
        }
      }
      this.#nodeBase = start;
    }
    if (tail) {
      const kept = nodes.length - dropped;
      nodes.truncate(kept);
      for (const context of tail.old) if (context.slotEpoch === epoch) context.slotEpoch = 0;
      let slot = base + kept;
      for (const context of tail.contexts) {
        if (context.node === undefined) continue;
        nodes.push(context.node);
        context.slot = slot++;
        context.slotEpoch = epoch;
      }
      if (array) {
        array.length = kept;
        appendAll(array, appended);
      }
    }
    return {
      removed,
      added: added.length,
      dropped,
      appended: appended.length,
      replaced,
    };
  }

  /**
   * The Contexts pushed to `#order` since the last publication (usually none, or the few
   * of a call or response that started), as the tail to list at the end.
   */
  #appendedTail(): Tail<Node> | undefined {
    const order = this.#order;
    const from = this.#orderedAtPublish;
    if (from >= order.length) return undefined;
    const contexts: Context<unknown, Node>[] = [];
    for (let i = from; i < order.length; i++) {
      const context = order.at(i);
      context.tail = this.#publication;
      contexts.push(context);
    }
    return { old: [], contexts };
  }

  /**
   * Puts back in order the Contexts of `#moved`, when each is among the last `TAIL_WINDOW`
   * of `#order` and stays after the Context before that stretch: the stretch from the first
   * moved one to the end is sorted (and those left without an opening leave it), and
   * returned as the tail to list at the end. Otherwise `#orderValid` is cleared (a full sort).
   */
  #repairTail(): Tail<Node> | undefined {
    const order = this.#order;
    const length = order.length;
    let pending = this.#moved.length;
    let from = length;
    for (let i = length - 1; i >= 0 && length - i <= TAIL_WINDOW && pending > 0; i--) {
      if (order.at(i).moved) {
        pending--;
        from = i;
      }
    }
    if (pending > 0) {
      this.#orderValid = false;
      return undefined;
    }
    from = Math.min(from, this.#orderedAtPublish);
    const old: Context<unknown, Node>[] = [];
    const contexts: Context<unknown, Node>[] = [];
    for (let i = from; i < length; i++) {
      const context = order.at(i);
      context.tail = this.#publication;
      if (i < this.#orderedAtPublish) old.push(context);
      if (context.opened === undefined || context.matches.length === 0) {
        context.ordered = false;
        continue;
      }
      contexts.push(context);
    }
    if (DEV_MODE) assemblerProbe.ordered += contexts.length;
    contexts.sort(this.#compareOpened);
    const before = from > 0 ? order.at(from - 1) : undefined;
    const first = contexts[0];
    if (before !== undefined && first !== undefined && this.#compareOpened(before, first) >= 0) {
      this.#orderValid = false;
      return undefined;
    }
    order.truncate(from);
    for (const context of contexts) order.push(context);
    return { old, contexts };
  }

  /** Lists every ordered Context's node afresh (a new epoch of slots). */
  #relist(): Node[] {
    const epoch = ++this.#epoch;
    const nodes: Node[] = [];
    const order = this.#order;
    if (DEV_MODE) assemblerProbe.listed += order.length;
    for (let i = 0; i < order.length; i++) {
      const context = order.at(i);
      if (context.node === undefined) continue;
      context.slot = nodes.length;
      context.slotEpoch = epoch;
      nodes.push(context.node);
    }
    this.#nodes = new FrontList(nodes.slice());
    this.#nodeArray = nodes;
    this.#nodeBase = 0;
    return nodes;
  }

  /** The nodes for `#compose` after `#changes`: the list itself, or an array of it. */
  #nodeList(): Node[] {
    if (this.#composeTakesList) return this.#nodes as unknown as Node[];
    this.#nodeArray ??= this.#nodes.toArray();
    return this.#nodeArray;
  }

  readonly #compareOpened = (a: Context<unknown, Node>, b: Context<unknown, Node>): number =>
    compareMatches(a.opened as Match, b.opened as Match) ||
    (this.#rank.get(a.definition) as number) - (this.#rank.get(b.definition) as number);

  #time(): number {
    if (this.#clock === undefined) {
      this.#clock = this.#now();
      if (DEV_MODE) assemblerProbe.clockTasks++;
      queueMicrotask(this.#clearClock);
    }
    return this.#clock;
  }

  #receive(event: CallfoldEvent, at: number): void {
    if (DEV_MODE) assemblerProbe.received++;
    if (event.type === 'stream/settle') {
      this.#settled.add(event.attemptId);
      this.#withdraw(event.attemptId);
    } else if (isStreamEvent(event)) {
      if (this.#settled.has(event.attemptId)) return;
      const location = this.#places.live();
      this.#times.live(location, at, event.attemptId);
      this.#fold(event, location, event.attemptId);
    } else {
      const location = this.#places.durable(event.seq);
      if (location === undefined) return;
      this.#times.durable(event, at);
      this.#fold(event, location, undefined);
    }
  }

  /** `attemptId`: a stream event's, undefined for a durable event. */
  #fold(event: CallfoldEvent, location: Location, attemptId: string | undefined): void {
    this.#foldEvent = event;
    this.#foldAttempt = attemptId;
    this.#foldLocation = location;
    this.#foldStart = undefined;
    this.#foldUpdate = undefined;
    for (const definition of this.#definitions) {
      this.#foldDefinition = definition;
      this.#foldContexts = this.#contexts.get(definition) as Map<string, Context<unknown, Node>>;
      try {
        definition.match(event, this.#emit);
      } catch (error) {
        this.#onError(error, definition.name, '');
      }
    }
    this.#foldDefinition = null;
    this.#foldEvent = null;
    const replays = this.#replays;
    while (replays.length > 0) this.#replay(replays.pop() as Context<unknown, Node>);
  }

  /** Takes one Match reported by the Definition being matched (see `#fold`). */
  #attach(key: string, role: Role): void {
    const definition = this.#foldDefinition;
    const event = this.#foldEvent;
    if (!definition || !event) throw new Error('callfold: emit() called outside match()');
    const location = this.#foldLocation;
    // One Match per event and role, made on first need and shared by every Definition.
    const match =
      role === 'start'
        ? (this.#foldStart ??= { event, role, location })
        : (this.#foldUpdate ??= { event, role, location });
    const contexts = this.#foldContexts as Map<string, Context<unknown, Node>>;
    let context = contexts.get(key);
    if (!context) {
      context = new Context(definition, key);
      contexts.set(key, context);
    }
    const wasOpen = context.opened;
    try {
      if (!context.take(match, this.#times.of(match))) this.#replays.push(context);
    } catch (error) {
      this.#onError(error, definition.name, key);
    }
    if (wasOpen === undefined && context.opened !== undefined) this.#place(context);
    const attemptId = this.#foldAttempt;
    if (attemptId !== undefined && context.liveAttempt !== attemptId) {
      this.#liveSet(attemptId).add(context);
      context.liveAttempt = attemptId;
    }
    this.#markDirty(context);
  }

  #markDirty(context: Context<unknown, Node>): void {
    if (context.dirty) return;
    context.dirty = true;
    this.#dirty.push(context);
  }

  #liveSet(attemptId: string): Set<Context<unknown, Node>> {
    let set = this.#live.get(attemptId);
    if (!set) {
      set = new Set();
      this.#live.set(attemptId, set);
    }
    return set;
  }

  /** Keeps `#order` for a Context whose opening Match is new (see `#order`). */
  #place(context: Context<unknown, Node>): void {
    if (!this.#orderValid) return;
    const opened = context.opened as Match;
    const limit = this.#frontLimit;
    if (limit !== undefined && compareMatches(opened, limit) < 0) {
      if (!context.front) {
        context.front = true;
        this.#front.push(context);
      }
      return;
    }
    if (context.ordered && !context.front) {
      this.#markMoved(context);
      return;
    }
    const last = this.#order.last();
    if (
      !context.ordered &&
      !context.front &&
      (last === undefined ||
        (!last.front && (last.moved || this.#compareOpened(last, context) < 0)))
    ) {
      context.ordered = true;
      context.placed = this.#publication;
      this.#order.push(context);
    } else {
      this.#orderValid = false;
    }
  }

  /** Records that an ordered Context's opening moved or went (see `#repairTail`). */
  #markMoved(context: Context<unknown, Node>): void {
    if (context.moved) return;
    context.moved = true;
    this.#moved.push(context);
  }

  #replay(context: Context<unknown, Node>): void {
    const opened = context.opened;
    try {
      context.replay(this.#timeOf);
    } catch (error) {
      this.#onError(error, context.definition.name, context.key);
    }
    if (context.opened !== opened) {
      if (context.opened !== undefined) this.#place(context);
      else if (context.ordered && !context.front) this.#markMoved(context);
      else this.#orderValid = false;
    }
    this.#markDirty(context);
  }

  #withdraw(attemptId: string): void {
    this.#times.withdraw(attemptId);
    const contexts = this.#live.get(attemptId);
    if (!contexts) return;
    this.#live.delete(attemptId);
    for (const context of contexts) {
      context.matches = context.matches.filter(
        (match) => !(isStreamEvent(match.event) && match.event.attemptId === attemptId),
      );
      context.liveAttempt = undefined;
      this.#replay(context);
    }
  }

  #build(context: Context<unknown, Node>): void {
    if (context.matches.length === 0) {
      const contexts = this.#contexts.get(context.definition);
      if (contexts?.get(context.key) === context) contexts.delete(context.key);
      context.node = undefined;
      if (context.ordered && !context.front) this.#markMoved(context);
      // One never placed (it never opened: a block end alone) leaves the order as it is.
      else if (context.ordered || context.front) this.#orderValid = false;
      return;
    }
    const had = context.node !== undefined;
    if (context.state === undefined) {
      context.node = undefined;
    } else {
      try {
        context.node = context.definition.build(context.state, context.node);
      } catch (error) {
        this.#onError(error, context.definition.name, context.key);
      }
    }
    // A node that appears or goes once its Context was listed (a call named after its first
    // delta, a response whose text follows its first call) is listed again from there by the
    // tail repair, as a Context that moved. (One placed since the last publication is in the
    // appended tail already; with a page at the front too, the list is made afresh: `#changes`.)
    if (
      had !== (context.node !== undefined) &&
      context.ordered &&
      !context.front &&
      context.placed !== this.#publication &&
      this.#front.length === 0
    ) {
      this.#markMoved(context);
    }
  }

  #sortOrder(): void {
    for (const context of this.#front) context.front = false;
    this.#front = [];
    const order: Context<unknown, Node>[] = [];
    for (const contexts of this.#contexts.values()) {
      for (const context of contexts.values()) {
        context.ordered = context.opened !== undefined;
        if (context.ordered) order.push(context);
      }
    }
    if (DEV_MODE) assemblerProbe.ordered += order.length;
    order.sort(this.#compareOpened);
    this.#order = new FrontList(order);
    this.#orderValid = true;
  }
}

/** `#changes`'s nodes appended when nothing is (never written). */
const NO_NODES: never[] = [];

/**
 * The end of `#order` listed afresh by a publication: `old`, the Contexts of that stretch
 * at the last publication, and `contexts`, those there now, in order.
 */
interface Tail<Node> {
  readonly old: readonly Context<unknown, Node>[];
  readonly contexts: readonly Context<unknown, Node>[];
}

/** What `#mergeFront` put in order: the Contexts now first, and the ordered ones they replaced. */
interface Merged<Node> {
  readonly prefix: readonly Context<unknown, Node>[];
  readonly old: readonly Context<unknown, Node>[];
}

function isList(
  events: CallfoldEvent | readonly CallfoldEvent[],
): events is readonly CallfoldEvent[] {
  try {
    return Array.isArray(events);
  } catch {
    // A revoked Proxy: not a list; parseEvent reports it as an EventError.
    return false;
  }
}

/**
 * Validates a whole batch before any of it is folded, and copies it: a list that cannot be
 * read (an exotic object, a Proxy whose traps throw) is an EventError, and the copy cannot
 * change between validation and folding.
 */
function checked<E extends CallfoldEvent>(events: readonly E[]): readonly E[] {
  let copy: E[];
  try {
    copy = Array.from(events);
  } catch (cause) {
    throw new EventError('', 'events: the list could not be read', { cause });
  }
  if (DEV_MODE) assemblerProbe.validated += copy.length;
  for (const event of copy) parseEvent(event);
  return copy;
}
