import { asyncScheduler, Observable, type SchedulerLike } from 'rxjs';
import type { CallfoldEvent } from '../events/types.js';
import type { TranscriptEntry } from '../wire/transcript.js';

export interface ReplayTranscriptOptions {
  /**
   * How much faster than recorded: an entry at `at` is emitted `at / speed` ms after
   * subscription. `0` or `Infinity` emit everything synchronously, in order. Default 1.
   */
  readonly speed?: number;
  /** Where the delays are scheduled. Default: `asyncScheduler` (timers). */
  readonly scheduler?: SchedulerLike;
}

/**
 * The longest delay a timer takes: 2³¹−1 ms (24.8 days). A longer one overflows (browsers and
 * Node fire it at once, every millisecond), so a later entry is reached by chained timers.
 */
const MAX_DELAY = 2 ** 31 - 1;

function delay(ms: number): number {
  return Math.min(MAX_DELAY, Math.max(0, ms));
}

/**
 * Emits the events of transcript entries at their recorded times, scaled by `speed`.
 *
 * 1. Times count from subscription, each entry at `at / speed` ms: delays do not accumulate
 *    drift, and a late timer catches up by emitting every entry that is due at once.
 * 2. Entries due at the same time are emitted in one scheduled task, in order (so that
 *    `assemble()` publishes them once). An entry whose `at` is below its predecessor's is
 *    emitted right after it.
 * 3. The entries are iterated lazily, once per subscription; unsubscribing cancels the
 *    pending timer and returns the iterator.
 * 4. A delay longer than a timer takes (2³¹−1 ms, 24.8 days) is waited in chained timers of
 *    at most that length, never handed to a timer whole (it would overflow and fire at once).
 *
 * @example
 * ```ts
 * import { assemble, decodeTranscript, replayTranscript } from 'callfold';
 * replayTranscript(decodeTranscript(jsonl), { speed: 4 }).pipe(assemble()).subscribe(render);
 * ```
 */
export function replayTranscript(
  entries: Iterable<TranscriptEntry>,
  options: ReplayTranscriptOptions = {},
): Observable<CallfoldEvent> {
  const speed = options.speed ?? 1;
  if (!(speed >= 0)) throw new RangeError(`replayTranscript: speed must be ≥ 0 (got ${speed})`);
  const scheduler = options.scheduler ?? asyncScheduler;
  const immediate = speed === 0 || speed === Number.POSITIVE_INFINITY;
  return new Observable<CallfoldEvent>((subscriber) => {
    const iterator = entries[Symbol.iterator]();
    let open = true;
    /** The next entry; undefined once the stream is over (completed, or failed by the iterator). */
    const pull = (): TranscriptEntry | undefined => {
      let result: IteratorResult<TranscriptEntry>;
      try {
        result = iterator.next();
      } catch (error) {
        open = false;
        subscriber.error(error);
        return undefined;
      }
      if (!result.done) return result.value;
      open = false;
      subscriber.complete();
      return undefined;
    };
    const close = () => {
      if (open) {
        open = false;
        iterator.return?.();
      }
    };
    let entry = pull();
    if (immediate || entry === undefined) {
      while (entry && !subscriber.closed) {
        subscriber.next(entry.event);
        entry = pull();
      }
      return close;
    }
    const start = scheduler.now();
    // Due times are absolute, so that rescheduling adds no drift and no rounding.
    const dueAt = (next: TranscriptEntry) => start + next.at / speed;
    const task = scheduler.schedule(
      function () {
        while (entry && dueAt(entry) <= scheduler.now()) {
          subscriber.next(entry.event);
          if (subscriber.closed) return;
          entry = pull();
        }
        if (entry) this.schedule(undefined, delay(dueAt(entry) - scheduler.now()));
      },
      delay(entry.at / speed),
    );
    return () => {
      task.unsubscribe();
      close();
    };
  });
}
