/**
 * `bench:peers --browser`, callfold's page: `<tool-timeline>` given `fromAISDKUIStream` over
 * the response of one POST to the stream server (the element folds the events itself). The
 * adapter is given as an application gives it, not wrapped in an operator (`tap`): a wrapped
 * adapter is no longer one `assemble()` folds directly (see `DirectEvents`). The end is seen
 * at an animation frame: the element no longer holds a subscription. With `?prepare` in the
 * page's URL, the page calls `ToolTimelineElement.prepare()` when it loads, with a small
 * sample through the page's adapter, as the element's documentation advises, and a run starts
 * once that is done.
 */
import '../../elements/tool-timeline.js';
import { ToolTimelineElement } from '../../elements/classes.js';
import { fromAISDKUIStream } from '../../src/providers/ai-sdk-ui-stream.js';
import { uiMessageChunks, uiMessageSSE, writeScenario } from '../peers/streams.js';
import { probe } from './peers-probe.js';

// The sample: the same wire the server streams, for a 1 KiB write.
const prepared = new URLSearchParams(location.search).has('prepare')
  ? ToolTimelineElement.prepare(
      fromAISDKUIStream(new Response(uiMessageSSE(uiMessageChunks(writeScenario(1))).join(''))),
    )
  : Promise.resolve();

window.peersRun = async (url) => {
  await prepared;
  const timeline = document.createElement('tool-timeline') as ToolTimelineElement;
  timeline.setAttribute('expand-groups', '');
  document.body.append(timeline);
  const root = () => timeline.shadowRoot;
  const recorder = probe(
    url,
    () => /write/i.test(deepText(root())),
    () => deepText(root()),
  );
  timeline.addController({
    hostUpdate: () => {
      if ((timeline.shown?.items.length ?? 0) > 0) recorder.rendering();
    },
  });
  const response = await fetch(url, { method: 'POST', body: '{}' });
  timeline.source = fromAISDKUIStream(response);
  await new Promise<void>((resolve) => {
    const ended = () => (timeline.subscribed ? requestAnimationFrame(ended) : resolve());
    requestAnimationFrame(ended);
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
