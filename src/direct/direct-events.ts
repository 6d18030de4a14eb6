import { Observable, type TeardownLogic } from 'rxjs';
import type {
  BlockEndEvent,
  CallfoldEvent,
  TextDeltaEvent,
  ToolCallDeltaEvent,
} from '../events/types.js';

/**
 * A block a direct source streams: the fixed fields of its deltas, and its text since the
 * last cut. The source appends each fragment to the text before it writes the continuation
 * that carries it (see `EventSink`), so a sink may take the text of many continuations at
 * once, with one `cut()`, instead of holding each fragment a second time.
 */
export interface StreamedBlock {
  /**
   * The block's delta carrying `fragment`: a fresh plain literal whose fields but `args` (or
   * `text`) are the same at every call.
   */
  delta(fragment: string): TextDeltaEvent | ToolCallDeltaEvent;
  /** The text appended since the last cut, as one string the block keeps too (never copy it). */
  cut(): string;
  /**
   * The text appended since the last cut, as the strings the block keeps it in (none when
   * there is none): the same text as `cut()`, joined, and a cut all the same, but never
   * copied into one new string (see `TextBuffer.pieces`).
   */
  pieces(): readonly string[];
  /**
   * Set by a sink that holds a run of this block (it clears it when it cuts the run): while
   * it is set, the source appends each fragment and writes no continuation for it. The
   * fragments are continuations all the same, taken by the sink's next cut (see `EventSink`).
   */
  held: boolean;
}

/**
 * Where a direct event source writes: an rxjs Subscriber is one (`continuation`, `joinedEnd`
 * and `chunk` then do what `next` does, with the event built, and nothing), and so is
 * `assemble()`'s folding sink.
 *
 * Invariants a source keeps, so that a sink may rely on them:
 * 1. `chunk()` comes before the events of each provider chunk: they arrived together.
 * 2. `continuation(block, fragment)` is the event `block.delta(fragment)`, `fragment` a
 *    non-empty string. The source appended `fragment` to the block's text just before, and
 *    appends to it nothing else while the block streams: the text since the block's last
 *    cut (`cut()` or `pieces()`) is exactly the fragments of the continuations written
 *    since. The source cuts the block itself when it writes text of that block with `next`
 *    (a call's first delta), so that text is never taken twice. A sink that takes a
 *    continuation's text by cutting must cut for every continuation of that block it folds.
 *    While a sink has set `block.held`, the source writes no continuation of that block:
 *    it only appends the fragments, which the sink takes with its next cut.
 * 3. `joinedEnd(event)` is a `stream/block-end` whose `text` is exactly the text of every
 *    delta the source wrote for that block (through `next` and `continuation`), joined in
 *    order: a sink that folded all of them may trust that without comparing.
 * 4. Nothing is written after `error` or `complete`, nor once `closed` is true.
 */
export interface EventSink {
  readonly closed: boolean;
  next(event: CallfoldEvent): void;
  continuation(block: StreamedBlock, fragment: string): void;
  joinedEnd(event: BlockEndEvent): void;
  chunk(): void;
  error(error: unknown): void;
  complete(): void;
}

/** Starts a direct source into `sink`; returns what stops it. */
export type DirectStart = (sink: EventSink) => TeardownLogic;

/**
 * An Observable of the events its `start` writes, which `assemble()` can also start with a
 * sink of its own, folding each event as it is built: no Subscriber per event, no event
 * object per continuing delta, and no second validation of the deltas that continue a block
 * already validated (see `EventSink`). Made by `directEvents`. An operator between it and
 * `assemble()` makes an ordinary Observable (rxjs's `lift` does not keep the class), folded
 * the ordinary way.
 */
export class DirectEvents extends Observable<CallfoldEvent> {
  /** Starts the source into a sink of the caller's. */
  readonly start: DirectStart;

  constructor(start: DirectStart) {
    super((subscriber) =>
      start({
        get closed() {
          return subscriber.closed;
        },
        next: (event) => subscriber.next(event),
        continuation: (block, fragment) => subscriber.next(block.delta(fragment)),
        joinedEnd: (event) => subscriber.next(event),
        chunk: () => {},
        error: (error) => subscriber.error(error),
        complete: () => subscriber.complete(),
      }),
    );
    this.start = start;
  }
}

/**
 * An Observable of the events `start` writes, which `assemble()` folds directly (see
 * `DirectEvents`). The adapters (`fromAnthropicMessages`, …) are made this way.
 */
export function directEvents(start: DirectStart): DirectEvents {
  return new DirectEvents(start);
}
