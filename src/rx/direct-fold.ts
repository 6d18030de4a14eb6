import { type NodeAssembler, pushChecked } from '../assembler/node-assembler.js';
import { assemblerProbe } from '../assembler/probe.js';
import type { CallfoldEvent, TextDeltaEvent, ToolCallDeltaEvent } from '../events/types.js';
import { parseEvent } from '../events/validate.js';
import { DEV_MODE } from '../internal/dev-mode.js';
import { TextBuffer } from '../internal/text-buffer.js';

type Delta = TextDeltaEvent | ToolCallDeltaEvent;

/**
 * How `assemble()` folds the events of a direct source (an adapter: see `directEvents`) into
 * its Assembler, between two publications (docs/decisions/0009-direct-adapter-fold.md):
 *
 * 1. Every event is validated (`parseEvent`) before it is folded, except a continuation
 *    (`EventSink.continuation`) of the block of the last delta validated: the source built
 *    it with that delta's fields, and only its string `args` or `text` is new.
 * 2. The clock is read at most once per provider chunk, when the chunk first folds
 *    something: the events of one chunk arrived together and share that time.
 * 3. Consecutive continuations of one block are held as one run and folded as one delta
 *    whose `args` (or `text`) is their fragments joined, stamped with the time of the
 *    first: before any other event is folded, and before every publication (`drain`). A
 *    reader may join fragments received between two reads anyway; only the number of
 *    deltas the Definitions see differs, never an answer, a node or a time.
 */
export class DirectFold<Node, Published> {
  readonly #assembler: NodeAssembler<Node, Published>;
  readonly #now: () => number;
  #at = 0;
  /** A chunk arrived since the clock was read. */
  #stale = true;
  /** The last delta validated: what a continuation must continue. */
  #accepted: Delta | undefined;
  /** The first continuation of the run held, and every fragment of the run. */
  #run: Delta | undefined;
  #runAt = 0;
  /** The run's fragments after its first. */
  #more: TextBuffer | undefined;

  constructor(assembler: NodeAssembler<Node, Published>, now: () => number) {
    this.#assembler = assembler;
    this.#now = now;
  }

  /** A provider chunk begins. */
  chunk(): void {
    this.#stale = true;
  }

  /** Validates and folds `event`. Throws an EventError, folding nothing of it, when it is malformed. */
  event(event: CallfoldEvent): void {
    this.drain();
    const delta = event.type === 'stream/tool-call-delta' || event.type === 'stream/text-delta';
    if (delta) this.#accepted = undefined;
    if (DEV_MODE) assemblerProbe.validated++;
    parseEvent(event);
    pushChecked(this.#assembler, event, this.#time());
    if (delta) this.#accepted = event;
  }

  /** Folds a continuation (see `EventSink`): joins the run it continues, else starts one. */
  continuation(event: Delta): void {
    const run = this.#run;
    if (run !== undefined && continues(run, event)) {
      if (this.#more === undefined) this.#more = new TextBuffer();
      this.#more.push(fragmentOf(event));
      return;
    }
    this.drain();
    if (!continues(this.#accepted, event)) {
      this.event(event);
      return;
    }
    if (fragmentOf(event) === '') {
      // Nothing to join; a run starts with text, so that its time is its first text's.
      pushChecked(this.#assembler, event, this.#time());
      return;
    }
    this.#run = event;
    this.#runAt = this.#time();
  }

  /** Folds the run held, if any. */
  drain(): void {
    const run = this.#run;
    if (run === undefined) return;
    this.#run = undefined;
    const more = this.#more;
    this.#more = undefined;
    let event: Delta = run;
    if (more !== undefined) {
      const joined = fragmentOf(run) + more.text();
      event =
        run.type === 'stream/text-delta' ? { ...run, text: joined } : { ...run, args: joined };
    }
    pushChecked(this.#assembler, event, this.#runAt);
  }

  #time(): number {
    if (this.#stale) {
      this.#stale = false;
      this.#at = this.#now();
    }
    return this.#at;
  }
}

/**
 * Whether `event` continues the block of `previous`: the same kind of delta of the same
 * attempt, block (and call). Its other fields are then `previous`'s by the source's
 * construction (`EventSink`); its new `args` or `text` must be a string.
 */
function continues(previous: Delta | undefined, event: Delta): boolean {
  if (
    previous === undefined ||
    previous.type !== event.type ||
    previous.attemptId !== event.attemptId ||
    previous.block !== event.block
  ) {
    return false;
  }
  return event.type === 'stream/text-delta'
    ? typeof event.text === 'string'
    : typeof event.args === 'string' && (previous as ToolCallDeltaEvent).callId === event.callId;
}

function fragmentOf(event: Delta): string {
  return event.type === 'stream/text-delta' ? event.text : event.args;
}
