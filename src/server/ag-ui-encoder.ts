import type { CallfoldEvent } from '../events/types.js';
import { isDurableEvent } from '../events/types.js';
import type { AGUIEvent } from '../providers/ag-ui-event.js';
import { AGUIWriter } from '../providers/ag-ui-writer.js';

const utf8 = new TextEncoder();

/**
 * One follower's AG-UI encoder for `sessionHandler(…, { protocol: 'ag-ui' })`: each batch
 * of callfold events, through that follower's own `AGUIWriter` (the translation depends on
 * what the follower was sent before), as `@ag-ui/encoder` frames them:
 * `data: ${JSON.stringify(event)}\n\n`. The last frame a durable event produced also carries
 * `id: <seq>` (AG-UI clients read only `data:` lines), so an `EventSource`-style client can
 * resume with `Last-Event-ID`.
 */
export function agUIEncoder(threadId: string): (events: readonly CallfoldEvent[]) => Uint8Array {
  const writer = new AGUIWriter({ threadId });
  const out: AGUIEvent[] = [];
  return (events) => {
    let text = '';
    for (const event of events) {
      writer.write(event, out);
      for (let i = 0; i < out.length; i++) {
        const id = i === out.length - 1 && isDurableEvent(event) ? `id: ${event.seq}\n` : '';
        text += `${id}data: ${JSON.stringify(out[i])}\n\n`;
      }
      out.length = 0;
    }
    return utf8.encode(text);
  };
}
