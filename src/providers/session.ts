import type {
  SessionEvent,
  SettleEvent,
  ToolCallEvent,
  ToolExecutor,
  ToolInput,
  ToolResultEvent,
  ToolUseBlock,
  TurnEvent,
} from '../events/types.js';
import { parseEvent } from '../events/validate.js';

/** A durable event before the session numbers it: everything but `seq` and `at`. */
export type UnnumberedEvent = SessionEvent extends infer E
  ? E extends SessionEvent
    ? Omit<E, 'seq' | 'at'>
    : never
  : never;

export interface SessionOptions {
  /**
   * Durable events saved from an earlier run of this session, in ascending `seq`. They are
   * kept (so `history()` and `page()` return them) and numbering continues after the last.
   */
  readonly history?: readonly SessionEvent[];
  /** Stamps `at` on each numbered event, in ms since the Unix epoch. Default: `Date.now`. */
  readonly now?: () => number;
  /** Makes a fresh attemptId for each adapter run. Default: unique ids made from time and randomness. */
  readonly attemptId?: () => string;
}

/** The optional fields of a call's real-world shape, as a `tool/call` carries them. */
export interface CallShape {
  readonly input?: ToolInput;
  readonly executor?: ToolExecutor;
  readonly providerCallId?: string;
}

let attempts = 0;
/** Unique across sessions and page loads: an Assembler ignores stream events of an attemptId it saw settle. */
function uniqueAttemptId(): string {
  attempts = (attempts + 1) % 0x100000;
  const random = Math.floor(Math.random() * 0x100000000).toString(36);
  return `att_${Date.now().toString(36)}${random}${attempts.toString(36)}`;
}

/**
 * One agent session's durable log: it numbers durable events, makes attemptIds, and keeps
 * what it numbered so the host can save it and serve history pages.
 *
 * Invariants:
 * 1. `seq` is strictly increasing across everything this session numbers, whichever
 *    adapter run or host call produced it, and continues after `options.history`.
 * 2. Every numbered event is validated (`parseEvent`) before it is kept: an invalid one
 *    throws an `EventError` and takes no number.
 * 3. `history()` and `page()` return the kept events in ascending `seq`, the same objects
 *    that were returned when they were numbered. Stream events are never kept.
 * 4. Call ids are unique in the session: `claimCallId` gives an adapter the provider's id
 *    unless the session already holds it (in its history, in any event it numbered, or
 *    claimed by an earlier response), and remembers which callId each provider id got last,
 *    so a provider that reuses ids (`call_1` in every response) never merges two calls.
 *
 * Pass one Session to every adapter run of a conversation (`{ session }`), and report the
 * host's tool results through it so they are numbered in the same sequence:
 *
 * @example
 * ```ts
 * const session = createSession();
 * fromAnthropicMessages(stream, { session }).subscribe((event) => assembler.push(event));
 * // later, when the host has run a tool:
 * assembler.push(session.result(callId, { stdout: 'ok' }));
 * await save(session.history());
 * ```
 */
export class Session {
  readonly #events: SessionEvent[];
  readonly #now: () => number;
  readonly #attemptId: () => string;
  /** Every callId this session holds or gave out. */
  readonly #callIds = new Set<string>();
  /** The callId each provider id got last. */
  readonly #byProvider = new Map<string, string>();
  /** Each call's approval state, from its approval events. */
  readonly #approvals = new Map<string, 'requested' | 'approved' | 'denied'>();
  #seq: number;

  constructor(options: SessionOptions = {}) {
    this.#events = [...(options.history ?? [])];
    let last = Number.NEGATIVE_INFINITY;
    for (const event of this.#events) {
      parseEvent(event);
      if (!(event.seq > last))
        throw new RangeError('session history: seq must be strictly increasing');
      last = event.seq;
      this.#note(event);
    }
    this.#seq = this.#events.length > 0 ? Math.floor(last) : 0;
    this.#now = options.now ?? Date.now;
    this.#attemptId = options.attemptId ?? uniqueAttemptId;
  }

  /** The last `seq` given (or restored); 0 for a new session. */
  get lastSeq(): number {
    return this.#seq;
  }

  /** A fresh attemptId, for one model response. */
  nextAttemptId(): string {
    return this.#attemptId();
  }

  /** Numbers, stamps, validates and keeps a durable event; returns it. */
  record<E extends UnnumberedEvent>(event: E): E & { seq: number; at: number } {
    const numbered = { ...event, seq: this.#seq + 1, at: this.#now() };
    parseEvent(numbered);
    this.#seq += 1;
    this.#events.push(numbered as unknown as SessionEvent);
    this.#note(numbered as unknown as SessionEvent);
    return numbered;
  }

  /**
   * A numbered `tool/call`: for hosts that dispatch calls themselves (`dispatch: 'host'`).
   * `shape` carries the call's `input`, `executor` and `providerCallId`; a host that
   * dispatches from a message's tool-use block can use `callOf(block)` instead.
   */
  call(
    callId: string,
    name: string,
    args: string | Record<string, unknown>,
    shape: CallShape = {},
  ): ToolCallEvent {
    return this.record({ type: 'tool/call', callId, name, args, ...shape });
  }

  /** The numbered `tool/call` that dispatches a message's tool-use block as it was streamed. */
  callOf(block: ToolUseBlock): ToolCallEvent {
    const shape: { -readonly [K in keyof CallShape]: CallShape[K] } = {};
    if (block.input !== undefined) shape.input = block.input;
    if (block.executor !== undefined) shape.executor = block.executor;
    if (block.providerCallId !== undefined) shape.providerCallId = block.providerCallId;
    return this.call(block.callId, block.name, block.argsText, shape);
  }

  /**
   * A callId for a call the provider names `providerId` (undefined: it gave none): the
   * provider's id when the session does not hold it yet, else `fallback` (made unique with a
   * `~n` suffix if it must be). The id is then held.
   */
  claimCallId(providerId: string | undefined, fallback: string): string {
    let callId = providerId !== undefined && !this.#callIds.has(providerId) ? providerId : fallback;
    for (let n = 2; this.#callIds.has(callId); n++) callId = `${fallback}~${n}`;
    this.#callIds.add(callId);
    if (providerId !== undefined) this.#byProvider.set(providerId, callId);
    return callId;
  }

  /** The callId the provider's id `providerId` got last in this session, if any. */
  callIdOf(providerId: string): string | undefined {
    return this.#byProvider.get(providerId);
  }

  /** Call `callId`'s approval state in this session (undefined: none was asked for). */
  approvalOf(callId: string): 'requested' | 'approved' | 'denied' | undefined {
    return this.#approvals.get(callId);
  }

  /** Holds the ids a durable event uses. */
  #note(event: SessionEvent): void {
    switch (event.type) {
      case 'tool/call':
        this.#callIds.add(event.callId);
        this.#byProvider.set(event.providerCallId ?? event.callId, event.callId);
        break;
      case 'assistant/message':
        for (const block of event.blocks) {
          if (block.type !== 'tool-use') continue;
          this.#callIds.add(block.callId);
          this.#byProvider.set(block.providerCallId ?? block.callId, block.callId);
        }
        break;
      case 'tool/result':
        this.#callIds.add(event.callId);
        break;
      case 'tool/approval-request':
        this.#approvals.set(event.callId, 'requested');
        break;
      case 'tool/approval':
        this.#approvals.set(event.callId, event.approved ? 'approved' : 'denied');
        break;
      default:
        break;
    }
  }

  /** A numbered `tool/result` for the host's output of call `callId`. */
  result(callId: string, output: unknown, isError?: boolean): ToolResultEvent {
    return this.record(
      isError === undefined
        ? { type: 'tool/result', callId, output }
        : { type: 'tool/result', callId, output, isError },
    );
  }

  /**
   * A numbered `turn/start` or `turn/end`. `prompt`, the user's message as plain text, goes
   * on a `turn/start` (a `<tool-timeline>` shows it in the turn's separator); a `turn/end`
   * ignores it.
   */
  turn(type: TurnEvent['type'], turnId: string, prompt?: string): TurnEvent {
    return this.record(
      type === 'turn/start' && prompt !== undefined ? { type, turnId, prompt } : { type, turnId },
    );
  }

  /**
   * The `stream/settle` of attempt `attemptId`. Not durable and not kept: with
   * `dispatch: 'host'` the host emits it after its `tool/call` records.
   */
  settle(attemptId: string): SettleEvent {
    const event: SettleEvent = { type: 'stream/settle', attemptId };
    parseEvent(event);
    return event;
  }

  /** Every durable event kept, in ascending `seq` (a copy of the list). */
  history(): SessionEvent[] {
    return this.#events.slice();
  }

  /**
   * One history page: the last `limit` kept events whose `seq` is below `before` (all of
   * them when `before` is absent), in ascending `seq`. Page backwards by passing the first
   * `seq` of the previous page as `before`; an empty page means there is nothing older.
   */
  page(options: { before?: number; limit: number }): SessionEvent[] {
    const { before, limit } = options;
    if (!(limit >= 0)) throw new RangeError(`session page: limit must be >= 0, got ${limit}`);
    let end = this.#events.length;
    if (before !== undefined) {
      let low = 0;
      while (low < end) {
        const mid = (low + end) >>> 1;
        if ((this.#events[mid] as SessionEvent).seq < before) low = mid + 1;
        else end = mid;
      }
    }
    return this.#events.slice(Math.max(0, end - Math.floor(limit)), end);
  }
}

/** A new Session; see `Session`. */
export function createSession(options: SessionOptions = {}): Session {
  return new Session(options);
}
