import type { AdapterOptions, AdapterRun } from './adapter-run.js';
import type { ChunkKind, ChunkTarget } from './ag-ui-chunks.js';
import type { Known } from './ag-ui-snapshot.js';
import type { Attempt, Ending } from './attempt.js';
import { isRecord } from './read-chunk.js';

const none: unique symbol = Symbol('none');

/** A block of the live attempt, by its AG-UI id (a messageId or a toolCallId). */
export interface Ref {
  readonly attempt: Attempt;
  readonly key: string;
  open: boolean;
  readonly provider: boolean;
}

/** callfold's own fields of an event (`metadata.callfold`, written by `toAGUI`). */
export function callfoldMeta(event: Record<string, unknown>): Record<string, unknown> | undefined {
  const metadata = event.metadata;
  if (!isRecord(metadata) || !Object.hasOwn(metadata, 'callfold')) return undefined;
  const meta = metadata.callfold;
  return isRecord(meta) ? meta : undefined;
}

export function nonEmpty(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
}

/**
 * The model responses of an AG-UI stream: the live attempt, its blocks by AG-UI id, and
 * where one response ends and the next begins (see `fromAGUI`, rule 1). Messages and calls
 * start, stream and end here, whether explicit events or expanded chunks say so.
 *
 * 1. A block belongs to the live attempt unless it starts another response: another
 *    callfold attemptId (`metadata.callfold`), another AG-UI message id, or a reasoning
 *    message after text or calls. A response with a call still open is never split.
 * 2. A block's id reopened after its end is a new block (a call: a new call, whose callId
 *    the session makes unique).
 * 3. Records that must follow the live attempt's `tool/call`s (a result, an approval) are
 *    held until it ends normally, and dropped with it when it is cut.
 */
export class AGUIResponses implements ChunkTarget {
  readonly #run: AdapterRun;
  readonly #texts = new Map<string, Ref>();
  readonly #reasoning = new Map<string, Ref>();
  readonly #tools = new Map<string, Ref>();
  /** AG-UI message ids of the live attempt; the first names it. */
  #ids: string[] = [];
  /** The live attempt has a text or tool block (a reasoning message after it starts a new response). */
  #output = false;
  #held: (() => void)[] = [];
  readonly #attemptIds = new Set<string>();
  /** The callfold attemptId the live attempt was opened for (its own, unless that was taken). */
  #liveMeta: string | undefined;
  /** `AdapterOptions.attemptId`: the run's first attempt, when the stream names none. */
  readonly #firstAttemptId: string | undefined;
  /** What is already recorded, so that a snapshot adds only what is missing. */
  readonly known: Known = { messages: new Set<string>(), results: new Set<string>() };
  #keys = 0;
  /**
   * The hot path: the block the last `TOOL_CALL_ARGS` / `TEXT_MESSAGE_CONTENT` went to, by
   * its id; `none` (equal to no value an event can hold, a missing id included) when there is
   * none, so that one comparison decides.
   */
  lastToolId: unknown = none;
  lastTool: Ref | undefined;
  lastTextId: unknown = none;
  lastText: Ref | undefined;

  constructor(run: AdapterRun, options: AdapterOptions) {
    this.#run = run;
    this.#firstAttemptId = options.attemptId;
  }

  /** The live attempt's call the AG-UI id names, if it is one. */
  liveCall(toolCallId: string): Ref | undefined {
    const ref = this.#tools.get(toolCallId);
    return ref !== undefined && ref.attempt === this.#run.live ? ref : undefined;
  }

  /** Whether the live attempt was opened for callfold's attemptId `attemptId`. */
  isLive(attemptId: unknown): boolean {
    return this.#run.live !== undefined && attemptId === this.#liveMeta;
  }

  /** Runs `record` once the live attempt has ended normally. */
  hold(record: () => void): void {
    this.#held.push(record);
  }

  start(kind: ChunkKind, id: string, event: Record<string, unknown>): void {
    const map = this.#map(kind);
    // A text message of another role (user, system) is not the model's: its content finds no block.
    if (kind === 'text' && event.role !== undefined && event.role !== 'assistant') return;
    const meta = callfoldMeta(event);
    const messageId = kind === 'tool' ? event.parentMessageId : kind === 'text' ? id : undefined;
    const attempt = this.#attemptFor(
      meta?.attemptId,
      nonEmpty(messageId) ? messageId : undefined,
      kind === 'reasoning',
    );
    const ref = map.get(id);
    if (ref?.open && ref.attempt === attempt) return;
    const key = `${kind[0]}${this.#keys++}`;
    const executor = meta?.executor === 'provider';
    if (kind === 'tool') {
      attempt.tool(key, {
        id,
        name: event.toolCallName,
        ...(executor ? { executor: 'provider' as const } : {}),
        ...(meta?.input === 'text' ? { input: 'text' as const } : {}),
      });
    } else attempt.open(key, kind);
    if (kind !== 'reasoning') this.#output = true;
    map.set(id, { attempt, key, open: true, provider: executor });
  }

  content(kind: ChunkKind, id: string, delta: unknown): void {
    const ref = this.#map(kind).get(id);
    if (!ref?.open || ref.attempt !== this.#run.live) return;
    if (kind === 'tool') {
      this.lastToolId = id;
      this.lastTool = ref;
      ref.attempt.args(ref.key, delta);
    } else {
      if (kind === 'text') {
        this.lastTextId = id;
        this.lastText = ref;
      }
      ref.attempt.text(ref.key, delta, kind === 'reasoning');
    }
  }

  end(kind: ChunkKind, id: string, text?: unknown): void {
    const ref = this.#map(kind).get(id);
    if (!ref?.open) return;
    ref.open = false;
    if (id === this.lastToolId) this.lastToolId = none;
    if (id === this.lastTextId) this.lastTextId = none;
    if (ref.attempt === this.#run.live)
      ref.attempt.end(ref.key, typeof text === 'string' ? text : undefined);
  }

  #map(kind: ChunkKind): Map<string, Ref> {
    return kind === 'tool' ? this.#tools : kind === 'text' ? this.#texts : this.#reasoning;
  }

  /**
   * The attempt a new block belongs to: the live one, unless the block starts another model
   * response: another callfold attemptId, another AG-UI message id, or a reasoning message
   * after text or calls. A response with a call still open is never split.
   */
  #attemptFor(attemptId: unknown, messageId: string | undefined, reasoning: boolean): Attempt {
    const live = this.#run.live;
    if (live) {
      const split = nonEmpty(attemptId)
        ? attemptId !== this.#liveMeta
        : (messageId !== undefined && this.#ids.length > 0 && !this.#ids.includes(messageId)) ||
          (reasoning && this.#output);
      if (!split || live.hasOpenCall()) {
        if (messageId !== undefined && !this.#ids.includes(messageId)) this.#ids.push(messageId);
        live.messageId ??= messageId;
        return live;
      }
      this.finish();
    }
    const named = nonEmpty(attemptId) && !this.#attemptIds.has(attemptId) ? attemptId : undefined;
    const attempt = this.#run.attempt(named ?? this.#freshAttemptId());
    this.#attemptIds.add(attempt.attemptId);
    this.#liveMeta = nonEmpty(attemptId) ? attemptId : undefined;
    this.#ids = messageId === undefined ? [] : [messageId];
    this.#output = false;
    attempt.messageId ??= messageId;
    return attempt;
  }

  /**
   * A new attemptId none of this run's attempts has: the session's next one, unless a stream
   * that names its own attempts already took it (the Assembler ignores stream events of an
   * attemptId it saw settle).
   */
  #freshAttemptId(): string {
    if (this.#attemptIds.size === 0 && this.#firstAttemptId !== undefined) {
      return this.#firstAttemptId;
    }
    let attemptId = this.#run.session.nextAttemptId();
    for (let n = 2; this.#attemptIds.has(attemptId); n++) {
      attemptId = n < 8 ? this.#run.session.nextAttemptId() : `${attemptId}~${n}`;
    }
    return attemptId;
  }

  /** The live attempt ended normally: its records, then what waited for them. */
  finish(ending: Ending = {}): void {
    const live = this.#run.live;
    if (live) {
      for (const id of this.#ids) this.known.messages.add(id);
      if (live.messageId !== undefined) this.known.messages.add(live.messageId);
      this.#run.finishAttempt(ending);
    }
    this.#forget();
    const held = this.#held;
    this.#held = [];
    for (const record of held) record();
  }

  /** The live attempt was cut: it settles alone, and what waited for it is dropped. */
  abort(): void {
    this.#run.abort();
    this.#held = [];
    this.#forget();
  }

  #forget(): void {
    this.#texts.clear();
    this.#reasoning.clear();
    this.#tools.clear();
    this.#ids = [];
    this.lastToolId = none;
    this.lastTextId = none;
  }
}
