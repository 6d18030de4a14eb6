import { Observable, type TeardownLogic } from 'rxjs';
import type { CallfoldEvent, TextDeltaEvent, ToolCallDeltaEvent } from './types.js';

/**
 * Where a direct event source writes: an rxjs Subscriber is one (`continuation` and `chunk`
 * then do what `next` does and nothing), and so is `assemble()`'s folding sink.
 *
 * Invariants a source keeps, so that a sink may rely on them:
 * 1. `chunk()` comes before the events of each provider chunk: they arrived together.
 * 2. `continuation(event)` carries a `stream/tool-call-delta` or `stream/text-delta` that
 *    continues the block of the delta emitted before it in that block: same `type`,
 *    `attemptId`, `block` (and `callId`, optional call fields, `reasoning`), built by the
 *    source as a plain object literal; only its `args` or `text` (a string) is new. A sink
 *    that accepted that earlier delta may take it without validating it again.
 * 3. Nothing is written after `error` or `complete`, nor once `closed` is true.
 */
export interface EventSink {
  readonly closed: boolean;
  next(event: CallfoldEvent): void;
  continuation(event: TextDeltaEvent | ToolCallDeltaEvent): void;
  chunk(): void;
  error(error: unknown): void;
  complete(): void;
}

/** Starts a direct source into `sink`; returns what stops it. */
export type DirectStart = (sink: EventSink) => TeardownLogic;

const starts = new WeakMap<Observable<CallfoldEvent>, DirectStart>();

/**
 * An Observable of the events `start` writes, which `assemble()` can also start with a sink
 * of its own (`directStart`), folding each event as it is built: no Subscriber per event,
 * and no second validation of the deltas that continue a block already validated (see
 * `EventSink`). The adapters (`fromAnthropicMessages`, …) are made this way. Any operator
 * between the adapter and `assemble()` makes an ordinary Observable, folded the ordinary way.
 */
export function directEvents(start: DirectStart): Observable<CallfoldEvent> {
  const observable = new Observable<CallfoldEvent>((subscriber) =>
    start({
      get closed() {
        return subscriber.closed;
      },
      next: (event) => subscriber.next(event),
      continuation: (event) => subscriber.next(event),
      chunk: () => {},
      error: (error) => subscriber.error(error),
      complete: () => subscriber.complete(),
    }),
  );
  starts.set(observable, start);
  return observable;
}

/** How to start `source` directly, when it was made by `directEvents`. */
export function directStart(source: Observable<unknown>): DirectStart | undefined {
  return starts.get(source as Observable<CallfoldEvent>);
}
