/**
 * `bench:peers --browser`, callfold's page: `<tool-timeline>` given `fromAISDKUIStream` over
 * the response of one POST to the stream server (the element folds the events itself).
 */
import '../../elements/tool-timeline.js';
import { tap } from 'rxjs';
import type { ToolTimelineElement } from '../../elements/classes.js';
import { fromAISDKUIStream } from '../../src/providers/ai-sdk-ui-stream.js';
import { probe } from './peers-probe.js';

window.peersRun = async (url) => {
  const timeline = document.createElement('tool-timeline') as ToolTimelineElement;
  timeline.setAttribute('expand-groups', '');
  document.body.append(timeline);
  const root = () => timeline.shadowRoot;
  const recorder = probe(
    url,
    () => /write/i.test(deepText(root())),
    () => deepText(root()),
  );
  const response = await fetch(url, { method: 'POST', body: '{}' });
  await new Promise<void>((resolve, reject) => {
    timeline.source = fromAISDKUIStream(response).pipe(tap({ complete: resolve, error: reject }));
  });
  await timeline.updateComplete;
  return recorder.done();
};

/** The text of a shadow tree and every shadow tree inside it. */
function deepText(root: ShadowRoot | null | undefined): string {
  if (!root) return '';
  let text = '';
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.nodeType === Node.TEXT_NODE) text += node.textContent;
    else text += deepText((node as Element).shadowRoot);
  }
  return text;
}
