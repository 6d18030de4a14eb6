import type { GroupNode } from '../../src/index.js';
import type { TimelineItem } from './timeline-chunks.js';

/**
 * The height of `items` in em, roughly: what a chunk off screen takes before it ever
 * rendered (then the browser remembers its real size). `open` says whether a group shows its
 * rows.
 */
export function estimatedHeight(
  items: readonly TimelineItem[],
  open: (group: GroupNode) => boolean,
): number {
  let em = 0.75 * (items.length - 1);
  for (const item of items) {
    if (item.kind === 'assistant') {
      em +=
        (item.reasoning === '' ? 0 : 1.6) + Math.max(1, Math.ceil(item.text.length / 90)) * 1.55;
    } else if (item.kind === 'turn') {
      em += item.prompt ? 3 : 1;
    } else {
      em += 2.4 + (open(item) ? 0.5 + 2.2 * item.tools.length : 0);
    }
  }
  return Math.round(em * 10) / 10;
}
