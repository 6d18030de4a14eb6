/**
 * `<tool-timeline>` driven by a recorded provider stream (the openai-chat-completions
 * parallel-write fixture) through the real adapter and `assemble()` ends in the same DOM as
 * one given the final Conversation folded by a separate Assembler; disconnecting it
 * mid-stream unsubscribes and cancels the provider stream.
 *
 * DOMs are compared as serialized strings: chai formatting live elements stalls.
 */
import { expect, fixture, html } from '@open-wc/testing';
import { LitElement } from 'lit';
import { Observable } from 'rxjs';
import '../../elements/tool-timeline.js';
import type { ToolTimelineElement } from '../../elements/classes.js';
import { Assembler } from '../../src/conversation/assembler.js';
import type { CallfoldEvent } from '../../src/events/types.js';
import { fromOpenAIChatCompletions } from '../../src/providers/openai-chat-completions.js';
import { describe, it } from '../harness.js';
import { fixedSession } from '../providers/support/cases.js';
import { bytePieces, collect, loadFixture } from '../providers/support/fixtures.js';
import { until } from './until.js';

/** Every Lit element in `root`'s tree, shadow trees included. */
function litElements(root: Element): LitElement[] {
  const found: LitElement[] = [];
  const visit = (node: Element) => {
    if (node instanceof LitElement) found.push(node);
    for (const child of node.shadowRoot?.children ?? []) visit(child);
    for (const child of node.children) visit(child);
  };
  visit(root);
  return found;
}

/** Awaits every Lit element's update until none is pending (new rows render in turn). */
async function settle(root: Element): Promise<void> {
  for (let round = 0; round < 20; round++) {
    const elements = litElements(root);
    const pending = await Promise.all(elements.map((element) => element.updateComplete));
    if (pending.every(Boolean) && litElements(root).length === elements.length) return;
  }
}

/** Tag, attributes, shadow tree and children as text; comments (lit's markers) left out. */
function serialize(node: Node, indent = ''): string {
  if (node.nodeType === Node.TEXT_NODE) {
    const text = (node.textContent ?? '').replace(/\s+/g, ' ').trim();
    return text === '' ? '' : `${indent}"${text}"\n`;
  }
  if (!(node instanceof Element)) return '';
  const attributes = [...node.attributes]
    .map((attribute) => `${attribute.name}="${attribute.value}"`)
    .sort()
    .join(' ');
  let out = `${indent}<${node.localName}${attributes === '' ? '' : ` ${attributes}`}>\n`;
  if (node.shadowRoot) {
    out += `${indent}  #shadow\n`;
    for (const child of node.shadowRoot.childNodes) out += serialize(child, `${indent}    `);
  }
  for (const child of node.childNodes) out += serialize(child, `${indent}  `);
  return out;
}

const now = () => 1_000;

describe('<tool-timeline> fed a provider fixture', () => {
  it('ends in the same DOM through .source as with the final .conversation', async () => {
    const { sse } = await loadFixture('openai-chat-completions');
    const { events, completed } = await collect(
      fromOpenAIChatCompletions(sse, { session: fixedSession() }),
    );
    expect(completed).to.equal(true);
    const calls = new Set(
      events.flatMap((event) => (event.type === 'stream/tool-call-delta' ? [event.callId] : [])),
    );
    expect(calls.size, 'parallel calls').to.be.greaterThan(1);

    let done = false;
    const source = new Observable<CallfoldEvent>((subscriber) =>
      fromOpenAIChatCompletions(bytePieces(sse, 7), { session: fixedSession() }).subscribe({
        next: (event) => subscriber.next(event),
        error: (error: unknown) => subscriber.error(error),
        complete: () => {
          done = true;
          subscriber.complete();
        },
      }),
    );
    const streamed = await fixture<ToolTimelineElement>(
      html`<tool-timeline expand-groups .assembleOptions=${{ now }} .source=${source}></tool-timeline>`,
    );
    await until(() => done, 'the adapter completes', { timeout: 20_000 });

    const assembler = new Assembler({ now });
    assembler.push(events);
    const conversation = assembler.publish();
    const folded = await fixture<ToolTimelineElement>(
      html`<tool-timeline expand-groups .conversation=${conversation}></tool-timeline>`,
    );

    // The last publication follows completion at once; then every element renders.
    await until(() => streamed.shown?.tools.size === conversation.tools.size, 'every call shown');
    await settle(streamed);
    await settle(folded);
    const expected = serialize(folded);
    expect(expected.split('<tool-row').length - 1, 'a row per call').to.equal(calls.size);
    expect(expected.includes('#shadow'), 'shadow trees serialized').to.equal(true);
    const actual = serialize(streamed);
    expect(actual === expected, `DOMs differ:\n${actual}\n---\n${expected}`).to.equal(true);
  });

  it('disconnecting mid-stream unsubscribes and cancels the provider stream', async () => {
    const { sse } = await loadFixture('openai-chat-completions');
    const pieces = bytePieces(sse, 11, 2048);
    let subscribers = 0;
    let subscriptions = 0;
    let pulled = 0;
    let pullsAfterCancel = 0;
    let cancelled = false;
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const source = new Observable<CallfoldEvent>((subscriber) => {
      subscribers++;
      subscriptions++;
      // A body that delivers one piece per task, then holds at half of them (the first calls
      // are named in the first few KiB): the stream is still open when the element goes, on
      // a fast machine as on a slow one.
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          if (cancelled) pullsAfterCancel++;
          await new Promise((resolve) => setTimeout(resolve, 0));
          if (pulled >= pieces.length / 2) await held;
          const piece = pieces[pulled++];
          if (piece) controller.enqueue(piece);
          else controller.close();
        },
        cancel() {
          cancelled = true;
        },
      });
      const inner = fromOpenAIChatCompletions(body, { session: fixedSession() }).subscribe(
        subscriber,
      );
      return () => {
        subscribers--;
        inner.unsubscribe();
      };
    });
    const el = await fixture<ToolTimelineElement>(
      html`<tool-timeline expand-groups .source=${source}></tool-timeline>`,
    );
    expect(subscribers).to.equal(1);
    await until(() => (el.shown?.tools.size ?? 0) > 0, 'a call shows', { timeout: 20_000 });
    expect(pulled < pieces.length, 'still streaming').to.equal(true);

    el.remove();
    expect(subscribers, 'unsubscribed once disconnected').to.equal(0);
    expect(subscriptions).to.equal(1);
    expect(el.subscribed).to.equal(false);
    await until(() => cancelled, 'the provider stream is cancelled');
    // A pull still waiting would go on once released: none may read after the cancel.
    release();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(pullsAfterCancel, 'nothing read after cancel').to.equal(0);
    expect(pulled < pieces.length, 'the rest left unread').to.equal(true);
  });
});
