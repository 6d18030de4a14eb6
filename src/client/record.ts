import { asyncScheduler, defer, map, type OperatorFunction, type SchedulerLike } from 'rxjs';
import type { CallfoldEvent } from '../events/types.js';
import { parseEvent } from '../events/validate.js';
import type { TranscriptEntry } from '../wire/transcript.js';

export interface RecordTranscriptOptions {
  /** The clock, read through `scheduler.now()`. Default: `asyncScheduler` (`Date.now`). */
  readonly scheduler?: SchedulerLike;
}

/**
 * Stamps each event with the time it passed, in milliseconds since the first event of the
 * subscription: the entries of a transcript, ready for `encodeTranscriptLine`.
 *
 * The first entry is at 0 and times never decrease (a clock that steps back repeats the
 * previous time). Each event is checked with `parseEvent`: an invalid one fails the stream
 * with an `EventError`, so that a recording can always be read back. The event itself is
 * passed on as is; its own `at` (the producer's clock) is kept.
 *
 * @example
 * ```ts
 * import { map } from 'rxjs';
 * import { encodeTranscriptLine, recordTranscript } from 'callfold';
 * events$.pipe(recordTranscript(), map(encodeTranscriptLine)).subscribe((line) => file.write(line));
 * ```
 */
export function recordTranscript(
  options: RecordTranscriptOptions = {},
): OperatorFunction<CallfoldEvent, TranscriptEntry> {
  const scheduler = options.scheduler ?? asyncScheduler;
  return (source) =>
    defer(() => {
      let start: number | undefined;
      let previous = 0;
      return source.pipe(
        map((event) => {
          parseEvent(event);
          const now = scheduler.now();
          start ??= now;
          previous = Math.max(previous, now - start);
          return { at: previous, event };
        }),
      );
    });
}
