import type { CallfoldEvent } from '../events/types.js';
import { EventError, parseEvent } from '../events/validate.js';
import { DEV_MODE } from '../internal/dev-mode.js';
import { assemblerProbe } from './probe.js';

/** Whether `push` was given a list of events rather than one event. */
export function isEventList(
  events: CallfoldEvent | readonly CallfoldEvent[],
): events is readonly CallfoldEvent[] {
  try {
    return Array.isArray(events);
  } catch {
    // A revoked Proxy: not a list; parseEvent reports it as an EventError.
    return false;
  }
}

/**
 * Validates a whole batch before any of it is folded, and copies it: a list that cannot be
 * read (an exotic object, a Proxy whose traps throw) is an EventError, and the copy cannot
 * change between validation and folding.
 */
export function checkedEvents<E extends CallfoldEvent>(events: readonly E[]): readonly E[] {
  let copy: E[];
  try {
    copy = Array.from(events);
  } catch (cause) {
    throw new EventError('', 'events: the list could not be read', { cause });
  }
  if (DEV_MODE) assemblerProbe.validated += copy.length;
  for (const event of copy) parseEvent(event);
  return copy;
}
