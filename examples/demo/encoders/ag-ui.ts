import type { CallfoldEvent } from '../../../src/events/types.js';
import type { AGUIEvent } from '../../../src/providers/ag-ui-event.js';
import { AGUIWriter } from '../../../src/providers/ag-ui-writer.js';
import type { ScriptAttempt } from '../session-script.js';
import { sseMessage, type TimedChunk } from './timed-chunk.js';

/**
 * A recorded response as an AG-UI agent backend streams it with `@ag-ui/encoder`
 * (`data: {event}` per event, no event names), written by the same writer as `toAGUI()`:
 * one run per response, marked as standing for no turn (`metadata.callfold.synthetic`: the
 * host records the session's turns), `TEXT_MESSAGE_*` / `REASONING_MESSAGE_*` /
 * `TOOL_CALL_START` / `_ARGS` / `_END` at the recorded times, a provider-run call's result
 * as `TOOL_CALL_RESULT` at its time, then the `callfold.message` custom event (its stop
 * reason: a cut call stays incomplete) and `RUN_FINISHED`. A cut response stops before its
 * end: no `RUN_FINISHED`, so the adapter settles it alone.
 *
 * AG-UI carries every call shape of the recording: free-form input and provider-run calls
 * travel in `metadata.callfold`.
 */
export function encodeAGUI(attempt: ScriptAttempt): TimedChunk[] {
  const writer = new AGUIWriter({ threadId: 'demo' });
  const out: TimedChunk[] = [];
  const events: AGUIEvent[] = [];
  const send = (at: number) => {
    for (const event of events) out.push({ at, data: sseMessage(event) });
    events.length = 0;
  };
  const timed: { at: number; event: CallfoldEvent }[] = [...attempt.stream, ...attempt.records];
  // Stable: a record at the time of a stream event comes after it.
  timed.sort((a, b) => a.at - b.at);
  for (const { at, event } of timed) {
    writer.write(event, events);
    send(at);
  }
  if (attempt.finished) {
    writer.end(events);
    send(attempt.end);
  }
  return out;
}
