/**
 * Theming by `::part` reaches rows nested in a timeline: `<tool-group>` re-exports its rows'
 * parts and `<tool-timeline>` its groups' (`exportparts`), under the names the guide's
 * theming table documents (docs/guide/rendering.md). Its own theming sample is applied to the
 * document.
 */
import { expect, fixture, html } from '@open-wc/testing';
import '../../elements/tool-timeline.js';
import type {
  ToolGroupElement,
  ToolRowElement,
  ToolTimelineElement,
} from '../../elements/classes.js';
import {
  groupParts,
  outerGroupPart,
  outerRowPart,
  rowParts,
} from '../../elements/internal/parts.js';
import { describe, it } from '../harness.js';
import { Session } from './session.js';

/** A timeline with one expanded group: a read with a path, a bash with a description. */
async function nestedTimeline(): Promise<{
  timeline: ToolTimelineElement;
  rows: ToolRowElement[];
}> {
  const session = new Session()
    .call('c1', 'Read', { file_path: 'src/app.ts' })
    .result('c1', 'export {}')
    .call('c2', 'Bash', { description: 'Run the tests', command: 'npm test' })
    .result('c2', { stdout: 'ok', exitCode: 0 });
  const timeline = await fixture<ToolTimelineElement>(
    html`<tool-timeline expand-groups .conversation=${session.publish()}></tool-timeline>`,
  );
  const group = timeline.shadowRoot?.querySelector('tool-group') as ToolGroupElement;
  await group.updateComplete;
  const rows = [...(group.shadowRoot?.querySelectorAll('tool-row') ?? [])];
  for (const row of rows) {
    row.expanded = true;
    await row.updateComplete;
  }
  return { timeline, rows };
}

/** The guide's ```css block marked `<!-- tested: chromium -->` (served by the test runner). */
async function guideThemingSample(): Promise<string> {
  const page = await (await fetch('/docs/guide/rendering.md')).text();
  const match = /<!-- tested: chromium -->\n```css\n([\s\S]*?)\n```/.exec(page);
  if (!match?.[1])
    throw new Error('docs/guide/rendering.md: no css block marked <!-- tested: chromium -->');
  return match[1];
}

function adopt(css: string): () => void {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(css);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  return () => {
    document.adoptedStyleSheets = document.adoptedStyleSheets.filter((s) => s !== sheet);
  };
}

const partIn = (root: Element, name: string): Element =>
  root.shadowRoot?.querySelector(`[part~="${name}"]`) as Element;

describe('parts through <tool-timeline> (exportparts)', () => {
  it("the guide's theming sample styles rows and group headers nested in a timeline", async () => {
    const { timeline, rows } = await nestedTimeline();
    const [read, bash] = rows;
    const group = timeline.shadowRoot?.querySelector('tool-group') as ToolGroupElement;
    const path = partIn(read!, 'path');
    const header = partIn(group, 'header');
    const summary = partIn(bash!, 'summary');
    expect(getComputedStyle(path).textDecorationStyle).to.not.equal('dotted');
    const remove = adopt(await guideThemingSample());
    try {
      expect(getComputedStyle(path).textDecorationStyle).to.equal('dotted');
      expect(getComputedStyle(header).fontWeight).to.equal('600');
      expect(getComputedStyle(summary).fontStyle).to.equal('italic');
    } finally {
      remove();
    }
  });

  it('negative control: a document rule on tool-row::part(path) does not reach a nested row', async () => {
    const { rows } = await nestedTimeline();
    const path = partIn(rows[0]!, 'path');
    const remove = adopt('tool-row::part(path) { text-decoration: underline dotted; }');
    try {
      expect(getComputedStyle(path).textDecorationStyle).to.not.equal('dotted');
    } finally {
      remove();
    }
  });

  it('every part a nested row or its group renders is reachable from the document under its documented name', async () => {
    const { timeline, rows } = await nestedTimeline();
    const group = timeline.shadowRoot?.querySelector('tool-group') as ToolGroupElement;
    const seen = (root: Element) =>
      [...(root.shadowRoot?.querySelectorAll('[part]') ?? [])].flatMap((node) =>
        (node.getAttribute('part') ?? '').split(/\s+/).filter(Boolean),
      );
    const rowSeen = new Set(rows.flatMap(seen));
    const groupSeen = new Set(seen(group));
    // A part added to the row or the group must be added to parts.ts, which re-exports it.
    expect([...rowSeen].filter((p) => !(rowParts as readonly string[]).includes(p))).to.deep.equal(
      [],
    );
    expect(
      [...groupSeen].filter((p) => !(groupParts as readonly string[]).includes(p)),
    ).to.deep.equal([]);
    // Each seen part, styled through the timeline under its outer name, is reached.
    const outer: [Element, string][] = [
      ...rows.flatMap((row) =>
        seen(row).map((p): [Element, string] => [partIn(row, p), outerRowPart(p)]),
      ),
      ...[...groupSeen].map((p): [Element, string] => [partIn(group, p), outerGroupPart(p)]),
    ];
    expect(outer.length).to.be.greaterThan(15);
    for (const [node, name] of outer) {
      const remove = adopt(`tool-timeline::part(${name}) { outline: 3px solid rgb(1, 2, 3); }`);
      try {
        expect(getComputedStyle(node).outlineColor, name).to.equal('rgb(1, 2, 3)');
      } finally {
        remove();
      }
    }
  });
});
