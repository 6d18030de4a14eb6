/**
 * Keyboard and screen-reader use (DESIGN: Elements): Tab reaches the disclosure and the
 * path, Enter and Space expand and collapse, Enter on a path fires `tool-open-path` without
 * navigating; expanded state, labels and a polite status for stage changes; axe finds no
 * violations.
 */
import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../elements/tool-group.js';
import type {
  ToolGroupElement,
  ToolOpenPathEvent,
  ToolRowElement,
} from '../../elements/classes.js';
import { describe, it } from '../harness.js';
import { part, Session } from './session.js';

/** The element focused inside `host`'s shadow root. */
function focused(host: Element): Element | null {
  return host.shadowRoot?.activeElement ?? null;
}

async function rowFor(session: Session, callId: string): Promise<ToolRowElement> {
  return fixture<ToolRowElement>(html`<tool-row .node=${session.tool(callId)}></tool-row>`);
}

/**
 * Renders `element` after a focused button, so that the next Tab moves into it whatever the
 * earlier tests left focused.
 */
async function afterFocus<T extends Element>(
  template: ReturnType<typeof html>,
  tag: string,
): Promise<T> {
  const wrapper = await fixture<HTMLElement>(html`<div><button>start</button>${template}</div>`);
  (wrapper.querySelector('button') as HTMLElement).focus();
  const element = wrapper.querySelector(tag) as T & { updateComplete?: Promise<unknown> };
  await element.updateComplete;
  return element;
}

describe('<tool-row> keyboard', () => {
  it('Tab reaches the disclosure, then the path; Enter and Space expand and collapse', async () => {
    const session = new Session().call('c1', 'Read', { file_path: 'src/main.ts' });
    const row = await afterFocus<ToolRowElement>(
      html`<tool-row .node=${session.tool('c1')}></tool-row>`,
      'tool-row',
    );
    const toggle = part(row, 'toggle') as HTMLElement;

    await sendKeys({ press: 'Tab' });
    expect(focused(row) === toggle).to.be.true;
    await sendKeys({ press: 'Enter' });
    await row.updateComplete;
    expect(row.expanded).to.be.true;
    expect(toggle.getAttribute('aria-expanded')).to.equal('true');
    await sendKeys({ press: 'Space' });
    await row.updateComplete;
    expect(row.expanded).to.be.false;
    expect(toggle.getAttribute('aria-expanded')).to.equal('false');

    await sendKeys({ press: 'Tab' });
    expect(focused(row) === part(row, 'path')).to.be.true;
  });

  it('Enter on the path fires tool-open-path with the path, and nothing navigates', async () => {
    const session = new Session().delta('c1', '{"file_path":"docs/guide.md","content":"', 'Write');
    const row = await afterFocus<ToolRowElement>(
      html`<tool-row .node=${session.tool('c1')}></tool-row>`,
      'tool-row',
    );
    const href = location.href;
    await sendKeys({ press: 'Tab' });
    expect(focused(row) === part(row, 'path'), 'a preparing row: the path is the only stop').to.be
      .true;
    const opened = oneEvent(row, 'tool-open-path') as Promise<ToolOpenPathEvent>;
    await sendKeys({ press: 'Enter' });
    const event = await opened;
    expect(event.detail.path).to.equal('docs/guide.md');
    expect(event.detail.node.callId).to.equal('c1');
    expect(event.bubbles && event.composed).to.be.true;
    expect(location.href).to.equal(href);
    expect(row.expanded, 'opening a path does not toggle the row').to.be.false;
  });

  it('a preparing row without a path has no tab stop', async () => {
    const session = new Session().delta('c1', '{"command":"ls', 'Bash');
    await afterFocus<ToolRowElement>(
      html`<tool-row .node=${session.tool('c1')}></tool-row><button id="after">after</button>`,
      'tool-row',
    );
    await sendKeys({ press: 'Tab' });
    expect(document.activeElement?.id).to.equal('after');
  });

  it('the group header expands and collapses with Enter and Space', async () => {
    const session = new Session().call('c1', 'Bash', { command: 'ls' });
    const group = await afterFocus<ToolGroupElement>(
      html`<tool-group .group=${session.group('c1')}></tool-group>`,
      'tool-group',
    );
    await sendKeys({ press: 'Tab' });
    expect(focused(group) === part(group, 'header')).to.be.true;
    await sendKeys({ press: 'Enter' });
    await group.updateComplete;
    expect(group.expanded).to.be.true;
    expect(group.shadowRoot?.querySelectorAll('tool-row').length).to.equal(1);
    await sendKeys({ press: 'Space' });
    await group.updateComplete;
    expect(group.expanded).to.be.false;
    expect(group.shadowRoot?.querySelectorAll('tool-row').length).to.equal(0);
  });
});

describe('<tool-row> ARIA', () => {
  it('a disclosure button with aria-expanded and aria-controls naming the body', async () => {
    const session = new Session().call('c1', 'Bash', { description: 'Build it', command: 'make' });
    const row = await rowFor(session, 'c1');
    const toggle = part(row, 'toggle') as HTMLElement;
    expect(toggle.getAttribute('aria-expanded')).to.equal('false');
    const body = row.shadowRoot?.getElementById(toggle.getAttribute('aria-controls') ?? '');
    expect(body === part(row, 'body')).to.be.true;
    expect(toggle.textContent).to.contain('Bash').and.to.contain('Build it');
    await expect(row).to.be.accessible();
  });

  it('the stage is a polite status naming the tool, updated in place as the stage changes', async () => {
    const session = new Session().delta('c1', '{"command":"ls"}', 'Bash');
    const row = await rowFor(session, 'c1');
    const stage = part(row, 'stage') as HTMLElement;
    expect(stage.getAttribute('role')).to.equal('status');
    expect(stage.textContent?.replace(/\s+/g, ' ')).to.equal('Bash: Preparing');
    row.node = session.call('c1', 'Bash', '{"command":"ls"}').tool('c1');
    await row.updateComplete;
    expect(part(row, 'stage') === stage, 'the same live region').to.be.true;
    expect(stage.textContent?.replace(/\s+/g, ' ')).to.equal('Bash: Running');
    row.node = session.result('c1', 'no such file', true).tool('c1');
    await row.updateComplete;
    expect(stage.textContent?.replace(/\s+/g, ' ')).to.equal('Bash: Failed');
  });

  it('a group: header button with aria-expanded, rows in a labelled list; accessible', async () => {
    const session = new Session()
      .call('c1', 'Read', { file_path: 'a.ts' })
      .call('c2', 'Bash', { command: 'ls' })
      .result('c1', 'x');
    const group = await fixture<ToolGroupElement>(
      html`<tool-group expanded .group=${session.group('c1')}></tool-group>`,
    );
    const header = part(group, 'header') as HTMLElement;
    expect(header.getAttribute('aria-expanded')).to.equal('true');
    const list = group.shadowRoot?.getElementById(header.getAttribute('aria-controls') ?? '');
    expect(list?.getAttribute('role')).to.equal('list');
    expect(list?.getAttribute('aria-label')).to.equal('Read 1 file · Running 1 command…');
    expect(list?.querySelectorAll('[role="listitem"]').length).to.equal(2);
    await expect(group).to.be.accessible();
    header.click();
    await group.updateComplete;
    await expect(group).to.be.accessible();
  });
});
