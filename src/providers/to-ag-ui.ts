import { Observable, type OperatorFunction } from 'rxjs';
import type { CallfoldEvent } from '../events/types.js';
import type { AGUIEvent } from './ag-ui-event.js';
import { AGUIWriter, type ToAGUIOptions } from './ag-ui-writer.js';

export type { ToAGUIOptions };

/**
 * Turns a callfold session's events into AG-UI events, so that any AG-UI client
 * (`@ag-ui/client`'s `HttpAgent`, CopilotKit) can follow a callfold session. Feed it one
 * session's events in order (live, or a history followed by the live end); encode each
 * output as `data: ${JSON.stringify(event)}\n\n` (or serve a store with
 * `sessionHandler(store, { protocol: 'ag-ui' })`).
 *
 * 1. Turns are runs: `turn/start` → `RUN_STARTED` (`runId`: the turnId; a `prompt` as the
 *    run's `input`, one user message), `turn/end` → `RUN_FINISHED`. Events outside a turn
 *    go into a run opened for them, marked `metadata.callfold.synthetic` (as is the
 *    `RUN_FINISHED` that closes a run the session did not end), which `fromAGUI` reads as
 *    no turn. Open messages and calls are ended before any `RUN_FINISHED`.
 * 2. A live attempt streams: its text and reasoning blocks as `TEXT_MESSAGE_*` and
 *    `REASONING_MESSAGE_*` (the first text message's id is the attemptId, the next ones
 *    `${attemptId}:${block}`), its calls as `TOOL_CALL_START` (`toolCallId`: the callId,
 *    `parentMessageId`: the attemptId; a call whose name has not arrived yet waits for it),
 *    `TOOL_CALL_ARGS` per non-empty fragment and `TOOL_CALL_END` at its block end.
 * 3. An `assistant/message` whose attempt was not seen streaming (history) is written whole:
 *    each block as a start, one content event and an end (the text message's id is the
 *    messageId). Either way it is followed by a `CUSTOM` `callfold.message` (stopReason,
 *    `truncated` when a call was cut); a `stream/settle` without a message by
 *    `callfold.settle` (the attempt is withdrawn). `tool/call` writes nothing for a call
 *    already written; a call no message carried is written whole.
 * 4. `tool/result` → `TOOL_CALL_RESULT` (`content`: the output when it is a string, else its
 *    JSON text with `metadata.callfold.json`; `isError` as `metadata.callfold.isError`).
 *    Approvals → `CUSTOM` `callfold.approval-request` / `callfold.approval`.
 * 5. Every event is a valid `@ag-ui/core` event (its schemas accept it) and the sequence
 *    passes `@ag-ui/client`'s `verifyEvents`, as long as one attempt streams at a time.
 *    callfold's own fields travel in `metadata.callfold` and `CUSTOM` events only; other
 *    clients ignore them. `fromAGUI` reads the output back into the same Conversation.
 * 6. When the source completes, open messages and calls end and an open run finishes.
 *
 * @example
 * ```ts
 * fromAnthropicMessages(stream, { session })
 *   .pipe(toAGUI({ threadId }))
 *   .subscribe((event) => response.write(`data: ${JSON.stringify(event)}\n\n`));
 * ```
 */
export function toAGUI(options: ToAGUIOptions = {}): OperatorFunction<CallfoldEvent, AGUIEvent> {
  return (source) =>
    new Observable<AGUIEvent>((subscriber) => {
      const writer = new AGUIWriter(options);
      const out: AGUIEvent[] = [];
      const flush = () => {
        for (let i = 0; i < out.length; i++) subscriber.next(out[i] as AGUIEvent);
        out.length = 0;
      };
      return source.subscribe({
        next(event) {
          writer.write(event, out);
          flush();
        },
        error(error: unknown) {
          subscriber.error(error);
        },
        complete() {
          writer.end(out);
          flush();
          subscriber.complete();
        },
      });
    });
}
