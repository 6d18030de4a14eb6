/**
 * Preparing rows while arguments stream (DESIGN: Elements; seeds: incremental argument
 * scanning): the path once it closes, the decoded size per KiB, the description prefix, and
 * a row that reads at that granularity so the node is republished only when it would change.
 */
import { expect, fixture, html } from '@open-wc/testing';
import '../../elements/tool-group.js';
import type { ToolGroupElement, ToolRowElement } from '../../elements/classes.js';
import { describe, it } from '../harness.js';
import { part, Session, textOf } from './session.js';

async function rowFor(session: Session, callId: string): Promise<ToolRowElement> {
  return fixture<ToolRowElement>(html`<tool-row .node=${session.tool(callId)}></tool-row>`);
}

/** Publishes, hands the row its node, and says whether the node object was replaced. */
async function republish(row: ToolRowElement, session: Session, callId: string): Promise<boolean> {
  const before = row.node;
  row.node = session.tool(callId);
  await row.updateComplete;
  return row.node !== before;
}

describe('<tool-row> preparing: identity first', () => {
  it('a row with only a name shows its icon, title and stage', async () => {
    const session = new Session().delta('c1', '', 'Write');
    const row = await rowFor(session, 'c1');
    expect(part(row, 'title')?.textContent).to.equal('Write');
    expect(part(row, 'icon')).to.exist;
    expect(part(row, 'stage')?.textContent).to.contain('Preparing');
    expect(part(row, 'path')?.outerHTML).to.equal(undefined);
    expect(part(row, 'size')?.outerHTML).to.equal(undefined);
    await expect(row).to.be.accessible();
  });

  it('arguments that came before the name: the row falls back to its title', async () => {
    const session = new Session()
      .delta('c1', '{"file_path":"a.ts",')
      .delta('c1', '"content":"x', 'Write');
    const row = await rowFor(session, 'c1');
    expect(part(row, 'title')?.textContent).to.equal('Write');
    expect(part(row, 'path')?.outerHTML).to.equal(undefined);
  });
});

describe('<tool-row> preparing: the path once it closes', () => {
  for (const name of ['Read', 'read_image', 'Write', 'Edit']) {
    it(`${name}: nothing while the path is open, the openable path once it closes`, async () => {
      const session = new Session().delta('c1', '{"file_path":"src/comp', name);
      const row = await rowFor(session, 'c1');
      expect(part(row, 'path')?.outerHTML, 'open path not shown').to.equal(undefined);
      expect(textOf(row)).not.to.contain('src/comp');

      // The node itself is republished here: the group detail reads the path's prefix.
      session.delta('c1', 'onents/very/');
      await republish(row, session, 'c1');
      expect(part(row, 'path')?.outerHTML, 'still open').to.equal(undefined);

      session.delta('c1', 'long.ts",');
      expect(await republish(row, session, 'c1'), 'the path closing republishes').to.be.true;
      const path = part(row, 'path');
      expect(path?.tagName).to.equal('BUTTON');
      expect(path?.textContent?.trim()).to.equal('src/components/very/long.ts');
      expect(path?.getAttribute('aria-label')).to.equal('Open src/components/very/long.ts');
      expect(row.shadowRoot?.querySelector('[aria-expanded]'), 'still not expandable').to.equal(
        null,
      );
    });
  }

  it('path aliases (path, filePath) are paths too', async () => {
    const session = new Session()
      .delta('c1', '{"filePath":"lib/x.py"}', 'edit_file')
      .delta('c2', '{"path":"lib/y.py"}', 'read_file');
    expect(textOf(await rowFor(session, 'c1'))).to.contain('lib/x.py');
    expect(textOf(await rowFor(session, 'c2'))).to.contain('lib/y.py');
  });
});

describe('<tool-row> preparing: decoded size in KiB', () => {
  it('write: the content size grows per KiB, and the node changes only per KiB', async () => {
    const session = new Session().delta('c1', '{"file_path":"big.txt","content":"', 'Write');
    const row = await rowFor(session, 'c1');
    expect(part(row, 'size')?.textContent).to.equal('0 KiB');

    session.delta('c1', 'a'.repeat(1000));
    expect(await republish(row, session, 'c1'), 'within the first KiB').to.be.false;
    expect(part(row, 'size')?.textContent).to.equal('0 KiB');

    session.delta('c1', 'a'.repeat(100));
    expect(await republish(row, session, 'c1')).to.be.true;
    expect(part(row, 'size')?.textContent).to.equal('1 KiB');

    // Escapes decode: "\n" is one unit, "\u00e9" one unit.
    session.delta('c1', '\\n'.repeat(500) + '\\u00e9'.repeat(500));
    expect(await republish(row, session, 'c1')).to.be.true;
    expect(part(row, 'size')?.textContent).to.equal('2 KiB');
  });

  it('edit: old + new, each counted in steps of 1024', async () => {
    const session = new Session().delta(
      'c1',
      `{"file_path":"a.ts","old_string":"${'o'.repeat(1500)}","new_string":"${'n'.repeat(1500)}`,
      'Edit',
    );
    const row = await rowFor(session, 'c1');
    // old is complete (exact 1500); new is open (1500 → 1024): 2524 units, 2 whole KiB;
    // then new reaches 2100 (→ 2048): 3548 units, 3 whole KiB.
    expect(part(row, 'size')?.textContent).to.equal('2 KiB');
    session.delta('c1', 'n'.repeat(600));
    await republish(row, session, 'c1');
    expect(part(row, 'size')?.textContent).to.equal('3 KiB');
  });
});

describe('<tool-row> preparing: the description prefix', () => {
  for (const name of ['Bash', 'PowerShell', 'run_code']) {
    it(`${name}: the description grows as it streams; the command is not read`, async () => {
      const session = new Session().delta('c1', '{"description":"Run', name);
      const row = await rowFor(session, 'c1');
      expect(part(row, 'summary')?.textContent).to.equal('Run');
      session.delta('c1', ' the unit');
      await republish(row, session, 'c1');
      expect(part(row, 'summary')?.textContent).to.equal('Run the unit');
      session.delta('c1', ' tests","command":"npm te');
      await republish(row, session, 'c1');
      expect(part(row, 'summary')?.textContent).to.equal('Run the unit tests');
      session.delta('c1', 'st -- --watch');
      expect(await republish(row, session, 'c1'), 'the command streaming republishes nothing').to.be
        .false;
      expect(textOf(row)).not.to.contain('npm');
    });
  }
});

describe('<tool-row> keeps its element across stages', () => {
  it('one <tool-row> per callId through preparing → start → result, inside a group', async () => {
    const text = '{"description":"Build","command":"npm run build"}';
    const session = new Session().delta('c1', text.slice(0, 20), 'Bash');
    const group = await fixture<ToolGroupElement>(
      html`<tool-group expanded .group=${session.group('c1')}></tool-group>`,
    );
    const rowOf = () => group.shadowRoot?.querySelector('tool-row') as ToolRowElement;
    const row = rowOf();
    expect(row.getAttribute('stage')).to.equal('preparing');

    const step = async () => {
      group.group = session.group('c1');
      await group.updateComplete;
      await rowOf().updateComplete;
    };
    session.delta('c1', text.slice(20)).call('c1', 'Bash', text);
    await step();
    expect(rowOf() === row, 'same element at start').to.be.true;
    expect(row.getAttribute('stage')).to.equal('start');

    session.delta('c2', '{"file_path":"x"}', 'Read');
    await step();
    expect(rowOf() === row, 'a second call does not remount the first').to.be.true;
    expect(group.shadowRoot?.querySelectorAll('tool-row').length).to.equal(2);

    session.result('c1', 'built');
    await step();
    expect(rowOf() === row, 'same element at result').to.be.true;
    expect(row.getAttribute('stage')).to.equal('result');
  });

  it('an expanded row stays expanded when its result arrives', async () => {
    const session = new Session().call('c1', 'Bash', { command: 'make' });
    const row = await rowFor(session, 'c1');
    (part(row, 'toggle') as HTMLElement).click();
    await row.updateComplete;
    session.result('c1', 'done');
    await republish(row, session, 'c1');
    expect(part(row, 'toggle')?.getAttribute('aria-expanded')).to.equal('true');
    expect(textOf(row)).to.contain('done');
  });

  it('a preparing row ignores expanded', async () => {
    const session = new Session().delta('c1', '{"command":"ls', 'Bash');
    const row = await fixture<ToolRowElement>(
      html`<tool-row expanded .node=${session.tool('c1')}></tool-row>`,
    );
    expect(part(row, 'body')?.outerHTML).to.equal(undefined);
    expect(row.shadowRoot?.querySelector('button')?.outerHTML).to.equal(undefined);
    (part(row, 'toggle') as HTMLElement).click();
    await row.updateComplete;
    expect(part(row, 'body')?.outerHTML).to.equal(undefined);
  });
});

describe('<tool-row> long output', () => {
  it('is cut with "Show more", which shows the whole text and back', async () => {
    const lines = Array.from({ length: 200 }, (_, i) => `line ${i}`).join('\n');
    const session = new Session().call('c1', 'Bash', { command: 'seq' }).result('c1', lines);
    const row = await rowFor(session, 'c1');
    (part(row, 'toggle') as HTMLElement).click();
    await row.updateComplete;
    expect(textOf(row)).to.contain('line 39');
    expect(textOf(row)).not.to.contain('line 40');
    const more = part(row, 'show-more') as HTMLButtonElement;
    expect(more.textContent?.trim()).to.equal('Show more');
    more.click();
    await row.updateComplete;
    expect(textOf(row)).to.contain('line 199');
    expect(more.textContent?.trim()).to.equal('Show less');
    expect(more.getAttribute('aria-expanded')).to.equal('true');
    await expect(row).to.be.accessible();
  });

  it('a large written content is previewed without decoding it whole', async () => {
    const content = 'x'.repeat(100_000);
    const session = new Session().call('c1', 'Write', JSON.stringify({ file_path: 'f', content }));
    const row = await rowFor(session, 'c1');
    (part(row, 'toggle') as HTMLElement).click();
    await row.updateComplete;
    const block = row.shadowRoot?.querySelector('pre') as HTMLElement;
    expect(block.textContent?.length).to.equal(4000);
    expect(part(row, 'size')?.textContent).to.equal('97 KiB');
    (part(row, 'show-more') as HTMLElement).click();
    await row.updateComplete;
    expect(row.shadowRoot?.querySelector('pre')?.textContent?.length).to.equal(100_000);
  });
});
