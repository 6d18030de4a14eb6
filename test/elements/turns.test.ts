/**
 * The turn separator of `<tool-timeline>` (docs/decisions/0007-turn-separator.md): where a
 * `turn/start` is, a rule and the user's `prompt` as a level-2 heading, rendered as text;
 * themeable through `tool-timeline::part(turn)`, `::part(turn-rule)` and
 * `::part(turn-prompt)`; replaceable with `renderTurn`.
 */
import { expect, fixture, html } from '@open-wc/testing';
import { of, Subject } from 'rxjs';
import '../../elements/tool-timeline.js';
import type { ToolTimelineElement } from '../../elements/classes.js';
import { Assembler } from '../../src/conversation/assembler.js';
import { definitionsWithTurns } from '../../src/conversation/turns.js';
import type { TurnNode } from '../../src/definitions/turn-definition.js';
import type { CallfoldEvent } from '../../src/events/types.js';
import type { AssembleInput } from '../../src/rx/assembler-command.js';
import { describe, it } from '../harness.js';
import { until } from './until.js';

const HOSTILE = 'Fix <img src=x onerror="window.__turnXss=1"> & <b>bold</b>';

const events: CallfoldEvent[] = [
  { type: 'turn/start', seq: 1, turnId: 't1', prompt: 'Read the README' },
  { type: 'tool/call', seq: 2, callId: 'c1', name: 'Read', args: { file_path: 'README.md' } },
  { type: 'tool/result', seq: 3, callId: 'c1', output: '# callfold' },
  { type: 'turn/end', seq: 4, turnId: 't1' },
  { type: 'turn/start', seq: 5, turnId: 't2', prompt: HOSTILE },
  { type: 'tool/call', seq: 6, callId: 'c2', name: 'Read', args: { file_path: 'a.ts' } },
  { type: 'turn/start', seq: 7, turnId: 't3' },
];

function all(timeline: ToolTimelineElement, selector: string): HTMLElement[] {
  return [...(timeline.shadowRoot?.querySelectorAll<HTMLElement>(selector) ?? [])];
}

/** The timeline's items, in order, by their part: "turn", "group", "assistant". */
function order(timeline: ToolTimelineElement): string[] {
  const list = timeline.shadowRoot?.querySelector('[part="timeline"]');
  // Document order, whatever wraps the items (the timeline renders them in chunks).
  const items = list?.querySelectorAll('[part="turn"], [part="group"], [part="assistant"]') ?? [];
  return [...items].map((child) => child.getAttribute('part') ?? '?');
}

async function fromSource(input: AssembleInput[]): Promise<ToolTimelineElement> {
  const el = await fixture<ToolTimelineElement>(
    html`<tool-timeline .source=${of(...input)}></tool-timeline>`,
  );
  await until(() => all(el, '[part="turn"]').length > 0, 'turns render');
  return el;
}

function adopt(css: string): () => void {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(css);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  return () => {
    document.adoptedStyleSheets = document.adoptedStyleSheets.filter((s) => s !== sheet);
  };
}

describe('<tool-timeline> turn separators', () => {
  it("a source's turn/start draws a separator before its turn, the prompt as a level-2 heading", async () => {
    const el = await fromSource([events]);
    expect(order(el)).to.deep.equal(['turn', 'group', 'turn', 'group', 'turn']);
    const headings = all(el, '[part="turn-prompt"]');
    expect(headings.map((h) => h.textContent)).to.deep.equal(['Read the README', HOSTILE]);
    for (const heading of headings) {
      expect(heading.getAttribute('role')).to.equal('heading');
      expect(heading.getAttribute('aria-level')).to.equal('2');
    }
    // A turn without a prompt is a rule alone; every turn has its rule (an <hr>: a separator).
    expect(all(el, '[part="turn-rule"]').map((hr) => hr.localName)).to.deep.equal([
      'hr',
      'hr',
      'hr',
    ]);
    expect(all(el, '[part="turn"]')[2]?.querySelector('[part="turn-prompt"]')).to.be.null;
    // The first item's rule is hidden (nothing above it to separate); the others show.
    const rules = all(el, '[part="turn-rule"]').map((hr) => getComputedStyle(hr).display);
    expect(rules).to.deep.equal(['none', 'block', 'block']);
    await expect(el).to.be.accessible();
  });

  it('the prompt is text, never HTML: markup shows as typed and nothing runs', async () => {
    const el = await fromSource([events]);
    const prompt = all(el, '[part="turn-prompt"]')[1] as HTMLElement;
    expect(prompt.textContent).to.equal(HOSTILE);
    expect(prompt.querySelector('img, b')).to.be.null;
    expect(prompt.children.length).to.equal(0);
    expect((window as { __turnXss?: number }).__turnXss).to.be.undefined;
  });

  it('negative control: a conversation folded without turns shows no separator, one group', async () => {
    const plain = new Assembler();
    plain.push(events);
    const el = await fixture<ToolTimelineElement>(
      html`<tool-timeline .conversation=${plain.publish()}></tool-timeline>`,
    );
    expect(order(el)).to.deep.equal(['group']);
    expect(all(el, '[part="turn"]')).to.have.length(0);

    const withTurns = new Assembler<TurnNode>({ definitions: definitionsWithTurns });
    withTurns.push(events);
    el.conversation = withTurns.publish();
    await el.updateComplete;
    expect(order(el)).to.deep.equal(['turn', 'group', 'turn', 'group', 'turn']);
  });

  it('assembleOptions.definitions given without turnDefinition folds no turns', async () => {
    const subject = new Subject<AssembleInput>();
    const el = await fixture<ToolTimelineElement>(
      html`<tool-timeline .source=${subject}></tool-timeline>`,
    );
    el.assembleOptions = { definitions: definitionsWithTurns.slice(0, 2) };
    subject.next(events);
    await until(() => order(el).length > 0, 'items render');
    expect(order(el)).to.deep.equal(['group']);
  });

  it('a turn keeps its element as the turn goes on and ends', async () => {
    const subject = new Subject<AssembleInput>();
    const el = await fixture<ToolTimelineElement>(
      html`<tool-timeline .source=${subject}></tool-timeline>`,
    );
    subject.next(events.slice(0, 2));
    await until(() => all(el, '[part="turn"]').length === 1);
    const turn = all(el, '[part="turn"]')[0] as HTMLElement;
    expect(turn.dataset.stage).to.equal('running');
    subject.next(events.slice(2, 4));
    await until(() => turn.dataset.stage === 'ended', 'the same element shows the end');
    expect(all(el, '[part="turn"]')[0]).to.equal(turn);
  });

  it('a long prompt is cut with "…" (the DOM holds no more than the preview)', async () => {
    const long = 'x'.repeat(50_000);
    const el = await fromSource([[{ type: 'turn/start', seq: 1, turnId: 't1', prompt: long }]]);
    const text = all(el, '[part="turn-prompt"]')[0]?.textContent ?? '';
    expect(text.length).to.be.below(long.length);
    expect(text.endsWith('…')).to.be.true;
    expect(long.startsWith(text.slice(0, -1))).to.be.true;
  });

  it('document rules reach the separator through tool-timeline::part(turn|turn-rule|turn-prompt)', async () => {
    const el = await fromSource([events]);
    const prompt = all(el, '[part="turn-prompt"]')[0] as HTMLElement;
    const rule = all(el, '[part="turn-rule"]')[1] as HTMLElement;
    const turn = all(el, '[part="turn"]')[0] as HTMLElement;
    const before = getComputedStyle(prompt).color;
    const remove = adopt(`
      tool-timeline::part(turn-prompt) { color: rgb(1, 2, 3); }
      tool-timeline::part(turn-rule) { border-top-color: rgb(4, 5, 6); }
      tool-timeline::part(turn) { padding-top: 7px; }
    `);
    try {
      expect(getComputedStyle(prompt).color).to.equal('rgb(1, 2, 3)');
      expect(getComputedStyle(rule).borderTopColor).to.equal('rgb(4, 5, 6)');
      expect(getComputedStyle(turn).paddingTop).to.equal('7px');
    } finally {
      remove();
    }
    expect(getComputedStyle(prompt).color, 'the rule is what changed it').to.equal(before);
  });

  it("renderTurn draws turns the embedder's way; undefined falls back to the built-in separator", async () => {
    const el = await fixture<ToolTimelineElement>(
      html`<tool-timeline
        .renderTurn=${(turn: TurnNode) =>
          turn.id === 't1' ? html`<h3 class="mine">${turn.prompt} (${turn.stage})</h3>` : undefined}
        .source=${of(events)}
      ></tool-timeline>`,
    );
    await until(() => all(el, '.mine').length === 1, 'the custom turn renders');
    expect(all(el, '.mine')[0]?.textContent).to.equal('Read the README (ended)');
    expect(all(el, '[part="turn"]')).to.have.length(2);
  });
});
