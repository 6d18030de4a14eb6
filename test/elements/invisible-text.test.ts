/**
 * Invisible and bidi characters cannot spoof a row (issue 13, item 8): they are drawn as
 * `<U+XXXX>` markers in paths, descriptions, titles, `title` and `aria-label`, while the
 * `tool-open-path` event carries the real path.
 */
import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import '../../elements/tool-group.js';
import '../../elements/tool-row.js';
import type { ToolGroupElement, ToolRowElement } from '../../elements/classes.js';
import type { ToolOpenPathEvent } from '../../elements/internal/events.js';
import { visibleText } from '../../elements/internal/visible-text.js';
import { describe, it } from '../harness.js';
import { part, Session, textOf } from './session.js';

const RLO = '\u202E';
const ZWSP = '\u200B';

async function row(session: Session, callId: string): Promise<ToolRowElement> {
  const element = await fixture<ToolRowElement>(
    html`<tool-row expanded .node=${session.tool(callId)}></tool-row>`,
  );
  await element.updateComplete;
  return element;
}

describe('invisible characters made visible', () => {
  // Failed before: drawn as "invoicehs.jpg".
  it('shows a bidi override in a path as a marker in the text, title and aria-label; the event has the real path', async () => {
    const path = `invoice${RLO}gpj.sh`;
    const session = new Session().call('c1', 'Read', { file_path: path });
    const element = await row(session, 'c1');
    const button = part(element, 'path') as HTMLElement;
    expect(button.textContent?.trim()).to.equal('invoice<U+202E>gpj.sh');
    expect(button.title).to.equal('invoice<U+202E>gpj.sh');
    expect(button.getAttribute('aria-label')).to.equal('Open invoice<U+202E>gpj.sh');
    expect(textOf(element)).not.to.contain(RLO);
    const opened = oneEvent(element, 'tool-open-path') as Promise<ToolOpenPathEvent>;
    button.click();
    expect((await opened).detail.path).to.equal(path);
  });

  // Failed before: "/etc/passwd".
  it('shows a zero-width space in a path, a description, a tool name and a group summary', async () => {
    const session = new Session()
      .call('c1', 'Read', { file_path: `/etc/pass${ZWSP}wd` })
      .call('c2', 'Bash', { description: `Delete${ZWSP} nothing`, command: 'rm -rf /' })
      .call('c3', `my${ZWSP}tool`, { q: 1 });
    const read = await row(session, 'c1');
    expect(part(read, 'path')?.textContent?.trim()).to.equal('/etc/pass<U+200B>wd');
    const bash = await row(session, 'c2');
    expect(part(bash, 'summary')?.textContent).to.equal('Delete<U+200B> nothing');
    const generic = await row(session, 'c3');
    expect(part(generic, 'title')?.textContent).to.equal('my<U+200B>tool');
    const group = await fixture<ToolGroupElement>(
      html`<tool-group .group=${session.group('c3')}></tool-group>`,
    );
    for (const element of [read, bash, generic, group])
      expect(textOf(element)).not.to.contain(ZWSP);
  });

  it('keeps emoji sequences whole and ordinary text unchanged', () => {
    expect(visibleText('👩‍💻 notes/été.md')).to.equal('👩‍💻 notes/été.md');
    expect(visibleText('a\u200Db')).to.equal('a<U+200D>b');
    expect(visibleText('x\u{E0041}\u2066y\u2069\uFEFF')).to.equal(
      'x<U+E0041><U+2066>y<U+2069><U+FEFF>',
    );
    const plain = 'src/index.ts';
    expect(visibleText(plain)).to.equal(plain);
  });
});
