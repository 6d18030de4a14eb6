import { type CallfoldEvent, isDurableEvent, type StreamEvent } from '../events/types.js';
import { parseEvent } from '../events/validate.js';
import type { UnnumberedEvent } from './session-store.js';

/** Throws unless every event is a valid durable event once numbered (`EventError`, `TypeError`). */
export function checkDurableBatch(events: readonly UnnumberedEvent[]): void {
  for (const event of events) {
    parseEvent({ ...event, seq: 1 });
    if (!isDurableEvent(event as CallfoldEvent)) {
      throw new TypeError(`append takes durable events; ${event.type} goes to live()`);
    }
  }
}

/** Throws unless every event is a valid stream event. */
export function checkStreamBatch(events: readonly StreamEvent[]): void {
  for (const event of events) {
    parseEvent(event);
    if (isDurableEvent(event as CallfoldEvent)) {
      throw new TypeError(
        `live takes stream events; ${(event as CallfoldEvent).type} goes to append()`,
      );
    }
  }
}

/** The error `live` rejects with when events of already settled attempts were dropped. */
export function settledError(attemptIds: Iterable<string>): Error {
  return new Error(
    `live: attempt ${[...attemptIds].join(', ')} was already settled (by its producer or its lease); its events were dropped`,
  );
}
