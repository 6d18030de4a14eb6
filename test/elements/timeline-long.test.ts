/**
 * `<tool-timeline>` in a long session (issue 15, goal 4): items render in chunks; a long
 * conversation renders its first and last chunks at once and the rest near the viewport or
 * in idle time; a publication while one call streams re-renders only the chunk that changed.
 * Work is counted (group elements, item keys read, Lit updates), never timed; each property
 * has a negative control, a subclass that passes options turning the mechanism off.
 */
import { expect, fixture } from '@open-wc/testing';
import { LitElement } from 'lit';
import { html as staticHtml, unsafeStatic } from 'lit/static-html.js';
import '../../elements/tool-timeline.js';
import { ToolTimelineElement } from '../../elements/classes.js';
import { chunkRevealDefaults } from '../../elements/internal/chunk-reveal-controller.js';
import type { Chunk } from '../../elements/internal/timeline-chunks.js';
import type { Conversation } from '../../src/conversation/conversation.js';
import { liveWriteBatches } from '../assembler/support/events.js';
import { describe, it } from '../harness.js';
import { settled } from './settled-history.js';
import { until } from './until.js';

/** Every chunk renders at once (negative control of the waiting chunks). */
class EagerTimeline extends ToolTimelineElement {
  constructor() {
    super({ eagerChunks: Number.POSITIVE_INFINITY });
  }
}
/** One chunk holds every item: the whole list re-renders at each publication (negative control). */
class OneChunkTimeline extends ToolTimelineElement {
  constructor() {
    super({ chunkSize: Number.POSITIVE_INFINITY });
  }
}
/** Waiting chunks render only near the viewport, never in idle time. */
class ViewportTimeline extends ToolTimelineElement {
  constructor() {
    super({ fillWhenIdle: false });
  }
}
/** Counts the chunk templates it runs (the chunks its template walks). */
class CountingTimeline extends ToolTimelineElement {
  chunkTemplates = 0;
  protected override renderChunk(chunk: Chunk): unknown {
    this.chunkTemplates++;
    return super.renderChunk(chunk);
  }
}
/** One section holds every chunk: the template walks every chunk at each publication (negative control). */
class OneSectionTimeline extends CountingTimeline {
  constructor() {
    super({ sectionSize: Number.POSITIVE_INFINITY });
  }
}
customElements.define('counting-timeline', CountingTimeline);
customElements.define('one-section-timeline', OneSectionTimeline);
customElements.define('eager-timeline', EagerTimeline);
customElements.define('viewport-timeline', ViewportTimeline);
customElements.define('one-chunk-timeline', OneChunkTimeline);

const groupsIn = (conversation: Conversation) =>
  conversation.items.filter((item) => item.kind === 'group').length;

function groupElements(timeline: ToolTimelineElement): HTMLElement[] {
  return [...(timeline.shadowRoot?.querySelectorAll<HTMLElement>('tool-group') ?? [])];
}

async function render(tag: string, conversation: Conversation, expanded = false) {
  const name = unsafeStatic(tag);
  return fixture<ToolTimelineElement>(
    staticHtml`<${name} ?expand-groups=${expanded} .conversation=${conversation}></${name}>`,
  );
}

describe('<tool-timeline> with a long conversation: first render', () => {
  it('renders the first and last two chunks at once, every other group later (near the viewport or idle)', async () => {
    const { conversation } = settled(1_500);
    const groups = groupsIn(conversation);
    const el = await render('tool-timeline', conversation);
    const first = groupElements(el).length;
    // Four chunks of 32 items, about half of them groups.
    expect(first).to.be.within(1, 64);
    expect(groups).to.be.above(400);
    await until(() => groupElements(el).length === groups, 'every group renders', {
      timeout: 60_000,
      interval: 100,
    });
    const ids = groupElements(el).map(
      (group) => (group as unknown as { group: { id: string } }).group.id,
    );
    const expected = conversation.items
      .filter((item) => item.kind === 'group')
      .map((item) => item.id);
    expect(ids).to.deep.equal(expected);
  });

  it('(negative control) with every chunk eager, every group renders at once', async () => {
    const { conversation } = settled(1_500);
    const el = await render('eager-timeline', conversation);
    expect(groupElements(el).length).to.equal(groupsIn(conversation));
  });

  it('a waiting chunk renders when scrolled into view (negative control: not before)', async () => {
    const { conversation } = settled(1_500);
    const el = await render('viewport-timeline', conversation);
    const waiting = [
      ...(el.shadowRoot?.querySelectorAll<HTMLElement>('.chunk[data-waiting]') ?? []),
    ];
    const key = waiting[Math.floor(waiting.length / 2)]?.dataset.waiting as string;
    const stillWaiting = () =>
      el.shadowRoot?.querySelector(`.chunk[data-waiting="${key}"]`) instanceof HTMLElement;
    for (let i = 0; i < 5; i++) await new Promise((resolve) => requestAnimationFrame(resolve));
    expect(stillWaiting(), 'a chunk far below the viewport waits').to.be.true;
    el.shadowRoot?.querySelector(`.chunk[data-waiting="${key}"]`)?.scrollIntoView();
    await until(() => !stillWaiting(), 'the chunk in view renders', { timeout: 10_000 });
    expect(el.shadowRoot?.querySelectorAll('.chunk[data-waiting]').length).to.be.above(0);
    window.scrollTo(0, 0);
  });

  it('is accessible while chunks wait and once every chunk rendered', async () => {
    const { conversation } = settled(300);
    const el = await render('tool-timeline', conversation);
    expect(el.shadowRoot?.querySelectorAll('.chunk[data-waiting]').length).to.be.above(0);
    await expect(el).to.be.accessible();
    await until(() => groupElements(el).length === groupsIn(conversation), 'all render', {
      timeout: 30_000,
    });
    await expect(el).to.be.accessible();
  });
});

/** Items wrapped in Proxies (one per item object) that count reads of `id`. */
function counting(
  conversation: Conversation,
  cache: WeakMap<object, object>,
  reads: { id: number },
) {
  const items = conversation.items.map((item) => {
    let proxy = cache.get(item);
    if (!proxy) {
      proxy = new Proxy(item, {
        get(target, property, receiver) {
          if (property === 'id') reads.id++;
          return Reflect.get(target, property, receiver);
        },
      });
      cache.set(item, proxy);
    }
    return proxy;
  }) as unknown as Conversation['items'];
  return { ...conversation, items } as Conversation;
}

/** Lit updates by tag while `run` runs (LitElement.prototype.update wrapped, then restored). */
async function countUpdates<T>(
  run: () => Promise<T>,
): Promise<{ result: T; byTag: Map<string, number> }> {
  const prototype = LitElement.prototype as unknown as {
    update(this: LitElement, c: unknown): void;
  };
  const update = prototype.update;
  const byTag = new Map<string, number>();
  prototype.update = function (this: LitElement, changed: unknown) {
    byTag.set(this.localName, (byTag.get(this.localName) ?? 0) + 1);
    update.call(this, changed);
  };
  try {
    return { result: await run(), byTag };
  } finally {
    prototype.update = update;
  }
}

/**
 * Streams a 4 KiB write below 1,500 settled calls into `tag` (groups expanded); item `id`
 * reads per publication that changed the conversation.
 */
async function streamBelow(tag: string) {
  const { assembler, conversation } = settled(1_500);
  const cache = new WeakMap<object, object>();
  const reads = { id: 0 };
  const el = await render(tag, counting(conversation, cache, reads), true);
  const text = JSON.stringify({ file_path: '/src/live.ts', content: 'x'.repeat(4096) });
  const perPublication: number[] = [];
  const rows = new Set<Element>();
  let last = conversation;
  const { byTag } = await countUpdates(async () => {
    for (const batch of liveWriteBatches(text, 256)) {
      assembler.push(batch);
      const before = reads.id;
      const published = assembler.publish();
      // Only publications that changed something (a row shows the size per KiB).
      if (published === last) continue;
      last = published;
      el.conversation = counting(published, cache, reads);
      await el.updateComplete;
      perPublication.push(reads.id - before);
      const groups = groupElements(el);
      const row = groups[groups.length - 1]?.shadowRoot?.querySelector('tool-row');
      if (row) rows.add(row);
    }
  });
  return { perPublication, publications: perPublication.length, byTag, rows };
}

describe('<tool-timeline> with a long conversation: a call streams below it', () => {
  it('each publication reads the keys of one chunk at most, updates one group and one row, and the live row keeps its element', async () => {
    const { perPublication, publications, byTag, rows } = await streamBelow('tool-timeline');
    expect(Math.max(...perPublication)).to.be.at.most(2 * chunkRevealDefaults.chunkSize);
    expect(byTag.get('tool-group') ?? 0).to.be.at.most(publications);
    expect(byTag.get('tool-row') ?? 0).to.be.at.most(publications);
    expect(rows.size).to.equal(1);
  });

  it('(negative control) with one chunk for every item, each publication reads every item', async () => {
    const { perPublication } = await streamBelow('one-chunk-timeline');
    expect(Math.min(...perPublication)).to.be.at.least(1_500 / 2);
  });
});

/**
 * Streams an 8 KiB write below 10,000 settled calls into `tag` (a CountingTimeline, groups
 * expanded, the Conversation as the Assembler publishes it): chunk templates run per
 * publication that changed the conversation.
 */
async function chunkTemplatesBelow(tag: string) {
  const { assembler, conversation } = settled(10_000);
  const el = (await render(tag, conversation, true)) as CountingTimeline;
  const text = JSON.stringify({ file_path: '/src/live.ts', content: 'x'.repeat(8192) });
  const perPublication: number[] = [];
  let last = conversation;
  for (const batch of liveWriteBatches(text, 256)) {
    assembler.push(batch);
    const published = assembler.publish();
    if (published === last) continue;
    last = published;
    const before = el.chunkTemplates;
    el.conversation = published;
    await el.updateComplete;
    perPublication.push(el.chunkTemplates - before);
    // The rows render (and read the size of the write, which changes the live node per KiB).
    await new Promise((resolve) => requestAnimationFrame(resolve));
  }
  const chunks = Math.ceil(conversation.items.length / chunkRevealDefaults.chunkSize);
  return { perPublication, chunks };
}

describe('<tool-timeline> with 10,000 calls: a call streams below it', () => {
  it("each publication runs the templates of one section's chunks at most, not of every chunk", async () => {
    const { perPublication, chunks } = await chunkTemplatesBelow('counting-timeline');
    expect(chunks).to.be.above(150);
    expect(perPublication.length).to.be.at.least(8);
    expect(Math.max(...perPublication)).to.be.at.most(chunkRevealDefaults.sectionSize + 1);
  });

  it("(negative control) with one section for every chunk, each publication runs every chunk's template", async () => {
    const { perPublication, chunks } = await chunkTemplatesBelow('one-section-timeline');
    expect(Math.min(...perPublication)).to.be.at.least(chunks);
  });
});

/**
 * Scrolls a row button near the end of a 1,500-call timeline (groups expanded) to the middle
 * of the viewport right after the first render, while chunks above still wait, then samples
 * its position on screen every frame until every chunk rendered: the largest move, in px.
 */
async function buttonMoveWhileFilling(anchoring: boolean): Promise<number> {
  const { conversation } = settled(1_500);
  const el = await render('tool-timeline', conversation, true);
  const groups = groupElements(el);
  const row = groups[groups.length - 3]?.shadowRoot?.querySelector('tool-row');
  const button = row?.shadowRoot?.querySelector<HTMLElement>('[part~="toggle"]');
  if (!button) throw new Error('no row button');
  const root = document.documentElement;
  root.style.overflowAnchor = anchoring ? '' : 'none';
  try {
    button.scrollIntoView({ block: 'center' });
    const waiting = () => el.shadowRoot?.querySelectorAll('.chunk[data-waiting]').length ?? 0;
    expect(waiting(), 'chunks above still wait').to.be.above(0);
    const top = button.getBoundingClientRect().top;
    let moved = 0;
    for (let frames = 0; waiting() > 0 && frames < 3_000; frames++) {
      await new Promise((resolve) => requestAnimationFrame(resolve));
      moved = Math.max(moved, Math.abs(button.getBoundingClientRect().top - top));
    }
    expect(waiting(), 'every chunk rendered').to.equal(0);
    return moved;
  } finally {
    root.style.overflowAnchor = '';
    window.scrollTo(0, 0);
  }
}

describe('<tool-timeline> with a long conversation: chunks filling above the reader', () => {
  it('a row button near the end stays where it is on screen while the chunks above render (scroll anchoring)', async () => {
    expect(await buttonMoveWhileFilling(true), 'px moved').to.be.below(1);
  });

  it('(negative control) without scroll anchoring the same fill moves the button: the chunks above do change height', async () => {
    expect(await buttonMoveWhileFilling(false), 'px moved').to.be.above(10);
  });
});
