import {
  type CallfoldEvent,
  isDurableEvent,
  type SessionEvent,
  type StreamEvent,
} from '../events/types.js';
import { appendAll } from '../internal/append-all.js';
import type { SessionStore, UnnumberedEvent } from './session-store.js';

/**
 * Writes a mixed list of events into a store, in order: each run of durable events is one
 * `append` (renumbered by the store: the events' own `seq` and `at` are dropped), each run
 * of stream events one `live` call. Resolves with the durable events as the store numbered
 * them; rejects with the first store error (the runs before it are written, none after).
 *
 * This is how `recordAttempt` writes what an adapter emitted; a host that receives events
 * some other way (say, posted by a browser) writes them with it too.
 *
 * @example
 * ```ts
 * import { appendRuns, memoryStore } from 'callfold/server';
 * const numbered = await appendRuns(store, 'session-42', events);
 * ```
 */
export async function appendRuns(
  store: SessionStore,
  sessionId: string,
  events: readonly CallfoldEvent[],
): Promise<readonly SessionEvent[]> {
  const numbered: SessionEvent[] = [];
  let start = 0;
  while (start < events.length) {
    const durable = isDurableEvent(events[start] as CallfoldEvent);
    let end = start + 1;
    while (end < events.length && isDurableEvent(events[end] as CallfoldEvent) === durable) end++;
    const run = events.slice(start, end);
    if (durable) appendAll(numbered, await store.append(sessionId, run.map(unnumbered)));
    else await store.live(sessionId, run as StreamEvent[]);
    start = end;
  }
  return numbered;
}

/** A durable event as a store takes it: without the `seq` and `at` it will assign. */
function unnumbered(event: CallfoldEvent): UnnumberedEvent {
  const { seq: _seq, at: _at, ...rest } = event as CallfoldEvent & { seq?: number; at?: number };
  return rest as UnnumberedEvent;
}
