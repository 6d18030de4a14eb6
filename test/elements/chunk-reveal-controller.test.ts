/**
 * `ChunkRevealController` on a small Lit host of its own (not `<tool-timeline>`): the items
 * of a real Assembler's Conversation cut into chunks; the ends render at once, the rest near
 * the viewport or in idle time. Idle time is driven by hand (the `whenIdle` option), so no
 * verdict waits for the browser to be idle; rendered work is counted, never timed.
 */
import { expect } from '@open-wc/testing';
import { html, LitElement } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import {
  ChunkRevealController,
  type ChunkRevealOptions,
  chunkRevealDefaults,
} from '../../elements/internal/chunk-reveal-controller.js';
import { itemKey, type TimelineItem } from '../../elements/internal/timeline-chunks.js';
import { describe, it } from '../harness.js';
import { settled } from './settled-history.js';
import { until } from './until.js';

/** Renders `items` through a ChunkRevealController: one tall paragraph per item. */
class RevealHost extends LitElement {
  static override properties = { items: { attribute: false } };
  declare items: readonly TimelineItem[];
  readonly reveal: ChunkRevealController;

  constructor(options: Partial<ChunkRevealOptions> = {}) {
    super();
    this.items = [];
    this.reveal = new ChunkRevealController(this, options);
  }

  protected override willUpdate(): void {
    this.reveal.update(this.items);
  }

  protected override render(): unknown {
    return repeat(
      this.reveal.chunks.sections,
      (section) => section.key,
      (section) =>
        repeat(
          section.items,
          (chunk) => chunk.key,
          (chunk) =>
            chunk.rendered
              ? html`<div class="chunk">${repeat(chunk.items, itemKey, (item) => html`<p class="item" style="block-size: 3em">${item.id}</p>`)}</div>`
              : this.reveal.placeholder(chunk, `${chunk.items.length * 3}em`),
        ),
    );
  }
}
customElements.define('reveal-host', RevealHost);

/** Idle periods the test runs by hand: `run(ms)` gives the pending one `ms` of idle time. */
function manualIdle() {
  const pending: ((timeRemaining: number) => void)[] = [];
  const idle = {
    scheduled: 0,
    cancelled: 0,
    get pending() {
      return pending.length;
    },
    whenIdle: (run: (timeRemaining: number) => void) => {
      idle.scheduled++;
      pending.push(run);
      return () => {
        idle.cancelled++;
        pending.splice(pending.indexOf(run), 1);
      };
    },
    run(timeRemaining: number) {
      const run = pending.shift();
      if (!run) throw new Error('no idle period pending');
      run(timeRemaining);
    },
  };
  return idle;
}

const items = settled(1_500).conversation.items;

async function mount(options: Partial<ChunkRevealOptions>): Promise<RevealHost> {
  for (const old of document.querySelectorAll('reveal-host')) old.remove();
  window.scrollTo(0, 0);
  const host = new RevealHost(options);
  host.items = items;
  document.body.append(host);
  await host.updateComplete;
  return host;
}

const renderedItems = (host: RevealHost) => host.renderRoot.querySelectorAll('.item').length;
const waitingBoxes = (host: RevealHost) =>
  [...host.renderRoot.querySelectorAll<HTMLElement>('.chunk[data-waiting]')].map(
    (box) => box.dataset.waiting,
  );
/** Indexes of the rendered chunks. */
const renderedChunks = (host: RevealHost) =>
  host.reveal.chunks.chunks.flatMap((chunk, i) => (chunk.rendered ? [i] : []));

describe('ChunkRevealController: the first render', () => {
  it('renders only the first and last eagerChunks chunks before any intersection or idle period', async () => {
    const idle = manualIdle();
    const host = await mount({ whenIdle: idle.whenIdle });
    const { chunkSize, eagerChunks } = chunkRevealDefaults;
    const chunks = host.reveal.chunks.chunks.length;
    expect(items.length).to.be.above(20 * chunkSize);
    expect(renderedItems(host)).to.be.within(1, 2 * eagerChunks * chunkSize);
    expect(renderedChunks(host)).to.deep.equal([0, 1, chunks - 2, chunks - 1]);
    expect(waitingBoxes(host).length).to.equal(chunks - 4);
    expect(idle.pending, 'an idle period is pending while chunks wait').to.equal(1);
    host.remove();
  });

  it('(negative control) with reveal off (eagerChunks: Infinity) every item renders at once', async () => {
    const host = await mount({ eagerChunks: Number.POSITIVE_INFINITY });
    expect(renderedItems(host)).to.equal(items.length);
    expect(waitingBoxes(host)).to.deep.equal([]);
    host.remove();
  });

  it("a waiting chunk's placeholder is as tall as the height it was given", async () => {
    const idle = manualIdle();
    const host = await mount({ whenIdle: idle.whenIdle });
    const box = host.renderRoot.querySelector<HTMLElement>('.chunk[data-waiting]');
    const em = Number.parseFloat(getComputedStyle(host).fontSize);
    expect(box?.getBoundingClientRect().height).to.be.closeTo(32 * 3 * em, 1);
    host.remove();
  });
});

describe('ChunkRevealController: near the viewport', () => {
  it('a waiting chunk renders once scrolled into view and stays rendered (not before)', async () => {
    const host = await mount({ fillWhenIdle: false });
    const waiting = waitingBoxes(host);
    const key = waiting[Math.floor(waiting.length / 2)] as string;
    const stillWaiting = () => waitingBoxes(host).includes(key);
    for (let i = 0; i < 5; i++) await new Promise((resolve) => requestAnimationFrame(resolve));
    expect(stillWaiting(), 'a chunk far below the viewport waits').to.be.true;
    host.renderRoot.querySelector(`.chunk[data-waiting="${key}"]`)?.scrollIntoView();
    await until(() => !stillWaiting(), 'the chunk in view renders', { timeout: 10_000 });
    window.scrollTo(0, 0);
    for (let i = 0; i < 3; i++) await new Promise((resolve) => requestAnimationFrame(resolve));
    expect(stillWaiting(), 'scrolled away, it stays rendered').to.be.false;
    expect(waitingBoxes(host).length, 'chunks far from it still wait').to.be.above(0);
    host.remove();
  });
});

describe('ChunkRevealController: idle time', () => {
  it('each idle period renders the newest waiting chunks, one per idleChunkMs, at most idleChunks', async () => {
    const idle = manualIdle();
    const host = await mount({ whenIdle: idle.whenIdle, idleChunks: 3, idleChunkMs: 10 });
    const last = host.reveal.chunks.chunks.length - 1;
    const waitingBefore = host.reveal.chunks.waiting;
    idle.run(5);
    await host.updateComplete;
    expect(renderedChunks(host).slice(-3)).to.deep.equal([last - 2, last - 1, last]);
    expect(host.reveal.chunks.waiting).to.equal(waitingBefore - 1);
    expect(idle.pending, 'the next idle period is asked for').to.equal(1);
    idle.run(25);
    await host.updateComplete;
    expect(host.reveal.chunks.waiting).to.equal(waitingBefore - 3);
    expect(renderedChunks(host).slice(-5)).to.deep.equal([
      last - 4,
      last - 3,
      last - 2,
      last - 1,
      last,
    ]);
    idle.run(1_000);
    await host.updateComplete;
    expect(host.reveal.chunks.waiting, 'never more than idleChunks').to.equal(waitingBefore - 6);
    while (idle.pending > 0) {
      idle.run(50);
      await host.updateComplete;
    }
    expect(host.reveal.chunks.waiting).to.equal(0);
    expect(renderedItems(host)).to.equal(items.length);
    host.remove();
  });

  it('with fillWhenIdle off, no idle period is asked for', async () => {
    const idle = manualIdle();
    const host = await mount({ whenIdle: idle.whenIdle, fillWhenIdle: false });
    expect(host.reveal.chunks.waiting).to.be.above(0);
    expect(idle.scheduled).to.equal(0);
    host.remove();
  });

  it('disconnecting cancels the pending idle period; reconnecting asks for one again', async () => {
    const idle = manualIdle();
    const host = await mount({ whenIdle: idle.whenIdle });
    expect(idle.pending).to.equal(1);
    host.remove();
    expect(idle.cancelled).to.equal(1);
    expect(idle.pending).to.equal(0);
    document.body.append(host);
    await host.updateComplete;
    expect(idle.pending).to.equal(1);
    host.remove();
  });
});

describe('ChunkRevealController: options', () => {
  it('fills unset options from chunkRevealDefaults', async () => {
    const host = new RevealHost({ chunkSize: 8 });
    expect(host.reveal.options).to.deep.equal({ ...chunkRevealDefaults, chunkSize: 8 });
  });

  it('throws a RangeError for a count out of range', () => {
    for (const options of [
      { chunkSize: 0 },
      { sectionSize: Number.NaN },
      { eagerChunks: -1 },
      { idleChunks: 0 },
      { idleChunkMs: 0 },
    ]) {
      expect(() => new RevealHost(options), JSON.stringify(options)).to.throw(RangeError);
    }
  });
});
