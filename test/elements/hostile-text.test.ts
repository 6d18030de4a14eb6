/**
 * Text from tools is text (DESIGN: Elements): names, arguments, paths and output containing
 * markup render inert, `javascript:` and other non-http(s) URLs are never links, and
 * `__proto__` keys are ordinary keys that pollute nothing.
 */
import { expect, fixture, html } from '@open-wc/testing';
import '../../elements/tool-timeline.js';
import type { ToolRowElement, ToolTimelineElement } from '../../elements/classes.js';
import { describe, it } from '../harness.js';
import { part, Session, textOf } from './session.js';

const IMG = '<img src=x onerror="window.__callfoldPwned=1">';
const SCRIPT = '<script>window.__callfoldPwned=2</script>';

declare global {
  interface Window {
    __callfoldPwned?: number;
  }
}

/** Every element under `root`, its shadow root and every shadow root within, recursively. */
function allElements(root: Element): Element[] {
  const found: Element[] = [];
  const visit = (node: ParentNode) => {
    for (const element of node.querySelectorAll('*')) {
      found.push(element);
      if (element.shadowRoot) visit(element.shadowRoot);
    }
  };
  if (root.shadowRoot) visit(root.shadowRoot);
  visit(root);
  return found;
}

async function expandedRow(session: Session, callId: string): Promise<ToolRowElement> {
  const row = await fixture<ToolRowElement>(
    html`<tool-row expanded .node=${session.tool(callId)}></tool-row>`,
  );
  await row.updateComplete;
  return row;
}

function expectInert(root: Element): void {
  const tags = allElements(root).map((element) => element.localName);
  expect(tags.length, 'the walk sees the shadow trees').to.be.greaterThan(3);
  expect(tags).not.to.include('img');
  expect(tags).not.to.include('script');
  expect(tags).not.to.include('b');
  expect(window.__callfoldPwned).to.equal(undefined);
}

describe('hostile text renders inert', () => {
  it('markup in a tool name, a path, a description, a command and the output', async () => {
    const session = new Session()
      .call('c1', IMG, { description: `<b>${IMG}</b>`, path: IMG })
      .result('c1', `${SCRIPT}${IMG}`)
      .call('c2', 'Read', { file_path: IMG })
      .call('c3', 'Bash', { description: IMG, command: `echo '${SCRIPT}'` })
      .result('c3', { stdout: IMG, stderr: SCRIPT, exitCode: 1 }, true);
    for (const callId of ['c1', 'c2', 'c3']) {
      const row = await expandedRow(session, callId);
      expectInert(row);
      expect(textOf(row)).to.contain(IMG);
    }
  });

  it('markup while preparing: a streamed path and description', async () => {
    const session = new Session()
      .delta('c1', JSON.stringify({ file_path: IMG, content: SCRIPT }).slice(0, -2), 'Write')
      .delta('c2', JSON.stringify({ description: IMG }).slice(0, -1), 'Bash');
    for (const callId of ['c1', 'c2']) {
      const row = await expandedRow(session, callId);
      expectInert(row);
      expect(textOf(row)).to.contain(IMG);
    }
  });

  it('assistant text and reasoning in a timeline', async () => {
    const session = new Session()
      .push({ type: 'stream/text-delta', attemptId: 'a1', block: 0, text: SCRIPT, reasoning: true })
      .push({ type: 'stream/text-delta', attemptId: 'a1', block: 1, text: IMG });
    const timeline = await fixture<ToolTimelineElement>(
      html`<tool-timeline .conversation=${session.publish()}></tool-timeline>`,
    );
    expectInert(timeline);
    expect(textOf(timeline)).to.contain(IMG).and.to.contain(SCRIPT);
  });
});

describe('only http(s) URLs become links', () => {
  const urls = [
    ['javascript:alert(1)', false],
    ['JaVaScRiPt:alert(1)', false],
    [' javascript:alert(1)', false],
    ['data:text/html,<script>alert(1)</script>', false],
    ['vbscript:msgbox(1)', false],
    ['file:///etc/passwd', false],
    ['//evil.example/x', false],
    ['/relative/path', false],
    ['https://example.com/a?b=<c>', true],
    ['http://example.com/', true],
  ] as const;
  for (const [url, linked] of urls) {
    it(`${JSON.stringify(url)}: ${linked ? 'a link' : 'text'}`, async () => {
      const session = new Session().call('c1', 'WebFetch', { url, prompt: 'read it' });
      const row = await expandedRow(session, 'c1');
      const links = allElements(row).filter((element) => element.localName === 'a');
      if (!linked) {
        expect(links).to.have.length(0);
        expect(textOf(row)).to.contain(url.trim());
        return;
      }
      expect(links.length).to.be.greaterThan(0);
      for (const link of links as HTMLAnchorElement[]) {
        expect(['http:', 'https:']).to.include(new URL(link.href).protocol);
        expect(link.rel).to.contain('noopener');
      }
      expect(part(row, 'link')).to.exist;
    });
  }
});

describe('__proto__ keys are ordinary keys', () => {
  it('rendering arguments and output with __proto__ pollutes no prototype', async () => {
    const args =
      '{"__proto__":{"polluted":"yes"},"description":"proto","constructor":{"prototype":{"polluted":"yes"}}}';
    const session = new Session()
      .stream('c1', 'mystery_tool', args)
      .call('c1', 'mystery_tool', args)
      .result('c1', JSON.parse('{"__proto__":{"exitCode":7},"stdout":"out"}'))
      .call('c2', 'TodoWrite', '{"todos":[{"__proto__":{"status":"completed"},"content":"x"}]}')
      .call('c3', 'Read', '{"__proto__":"p.ts","file_path":"real.ts"}');
    for (const callId of ['c1', 'c2', 'c3']) {
      const row = await expandedRow(session, callId);
      expectInert(row);
    }
    const generic = await expandedRow(session, 'c1');
    expect(textOf(generic)).to.contain('"__proto__":{"polluted":"yes"}');
    expect(
      part(generic, 'exit-code')?.outerHTML,
      'an inherited exitCode is not an exit code',
    ).to.equal(undefined);
    expect(textOf(await expandedRow(session, 'c2'))).to.contain('(pending)');
    expect(part(await expandedRow(session, 'c3'), 'path')?.textContent?.trim()).to.equal('real.ts');
    expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
    expect(Object.prototype).not.to.have.property('polluted');
  });
});
