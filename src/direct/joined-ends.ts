import type { BlockEndEvent, CallfoldEvent } from '../events/types.js';

/**
 * The block ends that `assemble()`'s direct path vouches for: their `text` is exactly the
 * text of the deltas of their block that it folded, joined in order (`EventSink`, invariant
 * 3). The Tool Definition then seals the streamed reader without comparing the text fragment
 * by fragment, which would flatten it into one new string
 * (docs/decisions/0010-one-copy-of-streamed-text.md). Internal: an event is vouched for only
 * by the direct path, never by its producer, so nothing outside the package can claim it.
 */
const joined = new WeakSet<BlockEndEvent>();

export function vouchJoined(event: BlockEndEvent): void {
  joined.add(event);
}

/** Whether the direct path vouched that `event`'s text is its block's deltas joined. */
export function isJoined(event: CallfoldEvent): boolean {
  return event.type === 'stream/block-end' && joined.has(event);
}
