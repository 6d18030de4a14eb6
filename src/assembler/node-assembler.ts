import { type CallfoldEvent, isStreamEvent, type SessionEvent } from '../events/types.js';
import { EventError, parseEvent } from '../events/validate.js';
import { DEV_MODE } from '../internal/dev-mode.js';
import { checkedEvents, isEventList } from './checked-events.js';
import { Context } from './context.js';
import { ContextOrder } from './context-order.js';
import type { Definition } from './definition.js';
import type { Emit, Location, Match, Role } from './match.js';
import type {
  ComposeList,
  NodeAssemblerListOptions,
  NodeAssemblerOptions,
} from './node-assembler-options.js';
import { NodeListing } from './node-listing.js';
import { Places } from './places.js';
import { assemblerProbe } from './probe.js';
import { Times } from './times.js';

/**
 * Folds an agent session's events into nodes through the Definitions it is given, and
 * publishes what its compose step makes of them. It knows no tool: `Assembler` (in
 * `src/conversation/`) is the default composition, tool and assistant Definitions and the
 * groups Builder giving a Conversation. This is the contract of both:
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
 * - The nodes are published in log order of the Match that opened each Context (then
 *   Definition order), kept by `ContextOrder` and listed by `NodeListing` without a sort
 *   or a copy per publication in the common cases (live end, an older page, a settle).
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
  readonly #rank: Map<Definition<unknown, Node>, number>;
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
  readonly #order: ContextOrder<Node>;
  readonly #listing: NodeListing<Node>;
  /** One of the two is set (see `NodeAssemblerListOptions`). */
  readonly #compose: NodeAssemblerOptions<Node, Published>['compose'] | undefined;
  readonly #composeList: ComposeList<Node, Published> | undefined;
  /** What the compose step last returned; `#hasPublished` tells it from a first publication. */
  #published: Published | undefined;
  #hasPublished = false;

  /** Throws a TypeError when `options` has neither a `compose` nor a `composeList` function. */
  constructor(
    options: NodeAssemblerOptions<Node, Published> | NodeAssemblerListOptions<Node, Published>,
  ) {
    // A copy, not the caller's array: for-of over a frozen array (defaultDefinitions) is not
    // optimized away by V8 and allocated per folded event (+5 MiB, 7.5 → 12.7 MiB, on the
    // fold benchmark's 512 KiB write; measured 2026-12-01).
    this.#definitions = [...options.definitions];
    this.#now = options.now ?? Date.now;
    if ('composeList' in options) {
      this.#compose = undefined;
      this.#composeList = options.composeList;
    } else {
      this.#compose = options.compose;
      this.#composeList = undefined;
    }
    if (typeof (this.#compose ?? this.#composeList) !== 'function') {
      throw new TypeError('callfold: NodeAssembler needs a compose or a composeList function');
    }
    this.#onError =
      options.onError ??
      ((error, definition, key) => console.warn(`callfold: ${definition} "${key}":`, error));
    for (const definition of this.#definitions) this.#contexts.set(definition, new Map());
    this.#rank = new Map(this.#definitions.map((definition, i) => [definition, i]));
    const contexts = this.#contexts;
    this.#order = new ContextOrder(function* () {
      for (const byKey of contexts.values()) yield* byKey.values();
    });
    this.#listing = new NodeListing(this.#order);
  }

  /** Takes events at the live end, in order. Throws an EventError (folding nothing) on a malformed one. */
  push(events: CallfoldEvent | readonly CallfoldEvent[]): void {
    const at = this.#time();
    if (!isEventList(events)) {
      if (DEV_MODE) assemblerProbe.validated++;
      this.#receive(parseEvent(events), at);
      return;
    }
    for (const event of checkedEvents(events)) this.#receive(event, at);
  }

  /**
   * Takes an older page of durable events (ascending seq), placed before everything held.
   * Events already held are ignored. Throws an EventError on a malformed event or a stream event.
   */
  prepend(events: readonly SessionEvent[]): void {
    const page = checkedEvents(events);
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
   * its reader, so only observed answers count) and returns what the compose step makes of
   * the nodes in log order. Returns the last value, without composing, when nothing changed.
   */
  publish(): Published {
    if (this.#hasPublished && this.#dirty.length === 0 && !this.#order.changed) {
      return this.#published as Published;
    }
    const dirty = this.#dirty;
    this.#dirty = [];
    for (const context of dirty) {
      context.dirty = false;
      this.#build(context);
    }
    const listing = this.#listing;
    const changes = listing.publish(dirty);
    const compose = this.#compose;
    const published =
      compose !== undefined
        ? compose(listing.array(), changes)
        : (this.#composeList as ComposeList<Node, Published>)(
            changes !== undefined ? listing.nodes : listing.array(),
            changes,
          );
    this.#published = published;
    this.#hasPublished = true;
    return published;
  }

  /**
   * Folds `event` at the live end, stamped `at`, as `push` does once it has validated an
   * event and read its clock: for a subclass that validates events and reads the clock
   * itself (`assemble()`'s direct path, src/rx/direct-fold.ts). `event` must be well-formed:
   * nothing here checks it.
   */
  protected pushChecked(event: CallfoldEvent, at: number): void {
    this.#receive(event, at);
  }

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
      context = new Context(definition, key, this.#rank.get(definition) as number);
      contexts.set(key, context);
    }
    const wasOpen = context.opened;
    try {
      if (!context.take(match, this.#times.of(match))) this.#replays.push(context);
    } catch (error) {
      this.#onError(error, definition.name, key);
    }
    if (wasOpen === undefined && context.opened !== undefined) this.#order.opened(context);
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

  #replay(context: Context<unknown, Node>): void {
    const opened = context.opened;
    try {
      context.replay(this.#timeOf);
    } catch (error) {
      this.#onError(error, context.definition.name, context.key);
    }
    if (context.opened !== opened) this.#order.reopened(context);
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
      this.#order.emptied(context);
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
    if (had !== (context.node !== undefined)) this.#order.nodeChanged(context);
  }
}
