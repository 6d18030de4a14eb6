/**
 * `<tool-group>` (DESIGN: Elements, Builder and groups): the header shows the category counts
 * and the live detail; the expanded state is remembered per group id; rows are keyed by
 * callId; an embedder renders its own rows through `renderTool`.
 */
import { expect, fixture, html } from '@open-wc/testing';
import '../../elements/tool-group.js';
import type {
  ToolGroupElement,
  ToolGroupToggleEvent,
  ToolRenderer,
} from '../../elements/classes.js';
import { describe, it } from '../harness.js';
import { part, Session } from './session.js';

function rows(group: ToolGroupElement): Element[] {
  return [...(group.shadowRoot?.querySelectorAll('tool-row') ?? [])];
}

describe('<tool-group> header', () => {
  it('shows the summary (present tense while calls are under way) and the live group.detail', async () => {
    const session = new Session()
      .call('c1', 'Read', { file_path: 'a.ts' })
      .call('c2', 'Read', { file_path: 'b.ts' })
      .delta('c3', '{"description":"Install depen', 'Bash');
    const el = await fixture<ToolGroupElement>(
      html`<tool-group .group=${session.group('c1')}></tool-group>`,
    );
    expect(part(el, 'summary')?.textContent).to.equal('Reading 2 files · Running 1 command…');
    expect(part(el, 'detail')?.textContent).to.equal('Install depen');
    expect(el.shadowRoot?.querySelectorAll('[part~="count-icon"]').length).to.equal(2);
    expect(part(el, 'activity'), 'a call is preparing').to.exist;

    session.delta('c3', 'dencies","command":"npm ci"}');
    el.group = session.group('c1');
    await el.updateComplete;
    expect(part(el, 'detail')?.textContent).to.equal('Install dependencies');
    await expect(el).to.be.accessible();
  });

  it('counts failures and stops the activity once every call has a result', async () => {
    const session = new Session()
      .call('c1', 'Bash', { command: 'false' })
      .call('c2', 'Bash', { command: 'true' })
      .result('c1', 'exit 1', true)
      .result('c2', '');
    const el = await fixture<ToolGroupElement>(
      html`<tool-group .group=${session.group('c1')}></tool-group>`,
    );
    expect(part(el, 'failures')?.textContent).to.equal('1 failed');
    expect(part(el, 'activity')?.outerHTML).to.equal(undefined);
  });

  // Failed before: the dot stayed on.
  it('shows no activity for calls that are over without a result: cut off or denied', async () => {
    const session = new Session()
      .call('c1', 'Bash', { command: 'git push' })
      .approvalRequest('c1')
      .approval('c1', false)
      .cut('c2', 'Write', '{"file_path":"CHANGELOG.md","content":"# Chan');
    const el = await fixture<ToolGroupElement>(
      html`<tool-group .group=${session.group('c1')}></tool-group>`,
    );
    expect(session.group('c1').tools.map((tool) => tool.callId)).to.deep.equal(['c1', 'c2']);
    expect(part(el, 'activity')?.outerHTML).to.equal(undefined);
    expect(part(el, 'summary')?.textContent).to.equal('Ran 1 command · Wrote 1 file');

    // The negative control: a call still preparing in the same group lights it.
    session.delta('c3', '{"command":"ls', 'Bash');
    el.group = session.group('c1');
    await el.updateComplete;
    expect(part(el, 'activity')).to.exist;
  });
});

describe('<tool-group> expanded state', () => {
  it('is collapsed by default, renders no rows until expanded, and fires tool-group-toggle', async () => {
    const session = new Session().call('c1', 'Bash', { command: 'ls' });
    const el = await fixture<ToolGroupElement>(
      html`<tool-group .group=${session.group('c1')}></tool-group>`,
    );
    expect(rows(el)).to.have.length(0);
    expect(part(el, 'tools')?.hidden).to.be.true;
    const events: ToolGroupToggleEvent[] = [];
    el.addEventListener('tool-group-toggle', (event) => events.push(event));
    (part(el, 'header') as HTMLElement).click();
    await el.updateComplete;
    expect(rows(el)).to.have.length(1);
    expect(el.hasAttribute('expanded')).to.be.true;
    expect(events.map((event) => event.detail)).to.deep.equal([{ id: 'c1', expanded: true }]);
  });

  it('is remembered per group id while the element lives', async () => {
    const first = new Session('a1').call('g1', 'Bash', { command: 'ls' });
    const second = new Session('a2').call('g2', 'Read', { file_path: 'x' });
    const el = await fixture<ToolGroupElement>(
      html`<tool-group .group=${first.group('g1')}></tool-group>`,
    );
    (part(el, 'header') as HTMLElement).click();
    await el.updateComplete;
    expect(el.expanded).to.be.true;

    el.group = second.group('g2');
    await el.updateComplete;
    (part(el, 'header') as HTMLElement).click();
    await el.updateComplete;
    expect(el.expanded, 'g2 toggled on its own').to.be.false;

    el.group = first.group('g1');
    await el.updateComplete;
    expect(el.expanded, 'g1 as it was left').to.be.true;
    el.group = second.group('g2');
    await el.updateComplete;
    expect(el.expanded, 'g2 as it was left').to.be.false;
  });
});

describe('<tool-group> rows', () => {
  it('are keyed by callId: each row element follows its call', async () => {
    const session = new Session()
      .delta('c1', '{"file_path":"a"}', 'Read')
      .delta('c2', '{"file_path":"b"}', 'Read');
    const el = await fixture<ToolGroupElement>(
      html`<tool-group expanded .group=${session.group('c1')}></tool-group>`,
    );
    const [row1, row2] = rows(el);
    // The preparing call c1 is withdrawn when its attempt settles undispatched; c2 is dispatched.
    session
      .call('c2', 'Read', '{"file_path":"b"}')
      .push({ type: 'stream/settle', attemptId: 'a1' });
    el.group = session.group('c2');
    await el.updateComplete;
    expect(rows(el).length === 1 && rows(el)[0] === row2).to.be.true;
    expect(row1?.isConnected).to.be.false;
  });

  it('renderTool draws some tools the embedder’s way; the rest get <tool-row>', async () => {
    const session = new Session()
      .call('c1', 'deploy', { env: 'prod' })
      .call('c2', 'Bash', { command: 'ls' });
    const seen: string[] = [];
    const renderTool: ToolRenderer = (node, category) => {
      seen.push(`${node.name}:${category}`);
      return node.name === 'deploy'
        ? html`<p class="custom" data-call=${node.callId}>Deploying to ${String(node.args.value('env'))}</p>`
        : undefined;
    };
    const el = await fixture<ToolGroupElement>(
      html`<tool-group expanded .renderTool=${renderTool} .group=${session.group('c1')}></tool-group>`,
    );
    const custom = el.shadowRoot?.querySelector('.custom');
    expect(custom?.textContent).to.equal('Deploying to prod');
    expect(rows(el)).to.have.length(1);
    expect(seen).to.deep.equal(['deploy:generic', 'Bash:bash']);

    session.result('c1', 'ok');
    el.group = session.group('c1');
    await el.updateComplete;
    expect(el.shadowRoot?.querySelector('.custom') === custom, 'kept by callId').to.be.true;
  });

  // Failed before: the row said Web under "Read 1 file".
  it('a row shows the category its group counted it under', async () => {
    const session = new Session('a1', { groups: { categories: { fetch: 'read' } } }).call(
      'c1',
      'fetch',
      { url: 'https://example.com/a.md', file_path: 'a.md' },
    );
    const seen: string[] = [];
    const renderTool: ToolRenderer = (_node, category) => {
      seen.push(category);
      return undefined;
    };
    const el = await fixture<ToolGroupElement>(
      html`<tool-group expanded .renderTool=${renderTool} .group=${session.group('c1')}></tool-group>`,
    );
    expect(part(el, 'summary')?.textContent).to.equal('Reading 1 file…');
    const row = rows(el)[0] as HTMLElement & { updateComplete: Promise<unknown> };
    await row.updateComplete;
    expect(row.getAttribute('category')).to.equal('read');
    expect(part(row, 'title')?.textContent).to.equal('Read');
    expect(part(row, 'path')?.textContent?.trim()).to.equal('a.md');
    expect(seen).to.deep.equal(['read']);
  });

  it('a custom categoryOf reaches the rows', async () => {
    const session = new Session().call('c1', 'deploy', { description: 'Ship it', command: 'x' });
    const el = await fixture<ToolGroupElement>(
      html`<tool-group expanded .categoryOf=${() => 'bash' as const} .group=${session.group('c1')}></tool-group>`,
    );
    const row = rows(el)[0] as HTMLElement & { updateComplete: Promise<unknown> };
    await row.updateComplete;
    expect(row.getAttribute('category')).to.equal('bash');
    expect(part(row, 'title')?.textContent).to.equal('Bash');
    expect(part(row, 'name')?.textContent).to.equal('deploy');
  });
});
