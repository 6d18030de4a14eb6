/**
 * `ToolTimelineElement.prepare()`: the element's first render done once, out of sight, before
 * a response arrives. This file's page is cold when its first test runs (each element test
 * file has a page of its own), which the first test relies on: its order matters.
 */
import { expect } from '@open-wc/testing';
import { Subject, throwError } from 'rxjs';
import '../../elements/tool-timeline.js';
import { ToolTimelineElement } from '../../elements/classes.js';
import type { CallfoldEvent } from '../../src/events/types.js';
import { fromAISDKUIStream } from '../../src/providers/ai-sdk-ui-stream.js';
import { describe, it } from '../harness.js';
import { deepText } from './session.js';
import { until } from './until.js';

/** Counts the `<template>` elements created while `run` runs: Lit makes one per template it prepares. */
async function templatesCreated(run: () => Promise<unknown>): Promise<number> {
  const create = Document.prototype.createElement;
  let count = 0;
  Document.prototype.createElement = function (this: Document, tag: string, options?: unknown) {
    if (String(tag).toLowerCase() === 'template') count++;
    return create.call(this, tag, options as ElementCreationOptions);
  } as typeof create;
  try {
    await run();
  } finally {
    Document.prototype.createElement = create;
  }
  return count;
}

const delta = (args: string, name?: string): CallfoldEvent => ({
  type: 'stream/tool-call-delta',
  attemptId: 'a1',
  block: 1,
  callId: 'c1',
  args,
  ...(name === undefined ? {} : { name }),
});

describe('ToolTimelineElement.prepare()', () => {
  it("takes Lit's template preparation off the first render: none after it (negative control: on this cold page, prepare() itself prepared them)", async () => {
    const children = document.body.childElementCount;
    // Nothing the sample does reaches the page's listeners: no error, no toggle.
    const heard: string[] = [];
    const names = ['tool-timeline-error', 'tool-group-toggle', 'tool-row-toggle', 'tool-open-path'];
    const listen = (event: Event) => heard.push(event.type);
    for (const name of names) document.addEventListener(name, listen);
    const prepared = await templatesCreated(() => ToolTimelineElement.prepare());
    for (const name of names) document.removeEventListener(name, listen);
    expect(heard).to.deep.equal([]);
    expect(prepared, 'templates prepare() prepared on a cold page').to.be.greaterThan(5);
    // Nothing is left in the document.
    expect(document.body.childElementCount).to.equal(children);
    expect(document.querySelector('tool-timeline')).to.equal(null);

    // A streaming write, as a response's first chunk shows it: no template is prepared now.
    const timeline = document.createElement('tool-timeline') as ToolTimelineElement;
    timeline.expandGroups = true;
    const events = new Subject<CallfoldEvent>();
    const first = await templatesCreated(async () => {
      document.body.append(timeline);
      timeline.source = events;
      events.next(delta('{"file_path":"/src/app.ts","content":"let a', 'write'));
      await until(() => deepText(timeline).includes('app.ts'));
    });
    expect(first, 'templates the first render prepared').to.equal(0);
    timeline.remove();
  });

  it("returns the first call's promise to later calls", () => {
    expect(ToolTimelineElement.prepare()).to.equal(ToolTimelineElement.prepare());
  });

  it('shows the given sample too, through its adapter, and leaves nothing behind', async () => {
    class Sampled extends ToolTimelineElement {}
    customElements.define('sampled-timeline', Sampled);
    const sse = [
      { type: 'start', messageId: 'm1' },
      { type: 'tool-input-start', toolCallId: 't1', toolName: 'Write' },
      { type: 'tool-input-delta', toolCallId: 't1', inputTextDelta: '{"file_path":"/s.ts"}' },
      {
        type: 'tool-input-available',
        toolCallId: 't1',
        toolName: 'Write',
        input: { file_path: '/s.ts' },
      },
      { type: 'finish' },
    ]
      .map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`)
      .join('');
    let read = false;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        read = true;
        controller.enqueue(new TextEncoder().encode(sse));
        controller.close();
      },
    });
    const children = document.body.childElementCount;
    await Sampled.prepare(fromAISDKUIStream(new Response(body)));
    expect(read, 'the sample was read').to.equal(true);
    expect(document.body.childElementCount).to.equal(children);
    expect(document.querySelector('sampled-timeline')).to.equal(null);
  });

  it("rejects with a failed sample's error, and the page hears nothing of it", async () => {
    class Failing extends ToolTimelineElement {}
    customElements.define('failing-timeline', Failing);
    const heard: string[] = [];
    const listen = (event: Event) => heard.push(event.type);
    document.addEventListener('tool-timeline-error', listen);
    let error: unknown;
    try {
      await Failing.prepare(throwError(() => new Error('the sample failed')));
    } catch (e) {
      error = e;
    } finally {
      document.removeEventListener('tool-timeline-error', listen);
    }
    expect(String(error)).to.match(/the sample failed/);
    expect(heard).to.deep.equal([]);
    expect(document.querySelector('failing-timeline')).to.equal(null);
  });

  it('rejects with a TypeError for a class not registered as a custom element', async () => {
    class Unregistered extends ToolTimelineElement {}
    let error: unknown;
    await Unregistered.prepare().catch((e: unknown) => {
      error = e;
    });
    expect(error).to.be.instanceOf(TypeError);
    expect(String(error)).to.match(/Unregistered is not registered as a custom element/);
  });
});
