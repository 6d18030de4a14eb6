/**
 * Every tool category at every stage (DESIGN: Elements): a preparing row shows identity and
 * the fields streamed so far and cannot expand; a started row shows the call's own
 * presentation and expands; a result row shows the output, errors and exit codes.
 */
import { expect, fixture, html } from '@open-wc/testing';
import '../../elements/tool-row.js';
import type { ToolRowElement } from '../../elements/classes.js';
import type { ToolCategory } from '../../src/tools/categories.js';
import { describe, it } from '../harness.js';
import { part, Session, textOf } from './session.js';

interface Case {
  readonly category: ToolCategory;
  readonly name: string;
  readonly args: Record<string, unknown>;
  readonly output: unknown;
  readonly isError?: boolean;
  readonly title: string;
  /** Text the preparing row shows once every field but the closing brace has streamed. */
  readonly preparing: readonly string[];
  /** Text the expanded started row shows. */
  readonly started: readonly string[];
  /** Text the expanded result row shows. */
  readonly answered: readonly string[];
}

const cases: Case[] = [
  {
    category: 'read',
    name: 'Read',
    args: { file_path: 'src/app.ts', offset: 10, limit: 20 },
    output: '10 export const app = 1;',
    title: 'Read',
    preparing: ['src/app.ts'],
    started: ['offset', '10', 'limit', '20'],
    answered: ['export const app = 1;'],
  },
  {
    category: 'read_image',
    name: 'view_image',
    args: { path: 'img/logo.png' },
    output: [{ type: 'image', source: { data: 'iVBOR' } }],
    title: 'View image',
    preparing: ['img/logo.png'],
    started: [],
    answered: ['[image]'],
  },
  {
    category: 'write',
    name: 'Write',
    args: { file_path: 'notes/todo.md', content: 'hello world\n'.repeat(200) },
    output: 'File written',
    title: 'Write',
    preparing: ['notes/todo.md', '2 KiB'],
    started: ['hello world', '2.3 KiB'],
    answered: ['File written'],
  },
  {
    category: 'edit',
    name: 'Edit',
    args: { file_path: 'src/a.ts', old_string: 'let x = 1;', new_string: 'const x = 1;' },
    output: 'Applied',
    title: 'Edit',
    preparing: ['src/a.ts', '0 KiB'],
    started: ['let x = 1;', 'const x = 1;'],
    answered: ['Applied'],
  },
  {
    category: 'search',
    name: 'Grep',
    args: { pattern: 'TODO\\(', path: 'src', output_mode: 'content' },
    output: 'src/a.ts:3: // TODO(me)',
    title: 'Search',
    preparing: ['TODO\\(', 'Grep'],
    started: ['pattern', 'TODO\\(', 'path', 'src'],
    answered: ['// TODO(me)'],
  },
  {
    category: 'web',
    name: 'WebFetch',
    args: { url: 'https://example.com/docs', prompt: 'Summarize the page' },
    output: 'A page about examples.',
    title: 'Web',
    preparing: ['https://example.com/docs'],
    started: ['Summarize the page'],
    answered: ['A page about examples.'],
  },
  {
    category: 'todo',
    name: 'TodoWrite',
    args: {
      todos: [
        { content: 'Write tests', status: 'in_progress', activeForm: 'Writing tests' },
        { content: 'Ship', status: 'pending' },
      ],
    },
    output: 'Todos updated',
    title: 'Todos',
    preparing: ['Writing tests'],
    started: ['Write tests', 'Ship', '(in progress)', '(pending)'],
    answered: ['Todos updated'],
  },
  {
    category: 'question',
    name: 'AskUserQuestion',
    args: {
      questions: [
        { question: 'Which database?', options: [{ label: 'Postgres' }, { label: 'SQLite' }] },
      ],
    },
    output: 'Postgres',
    title: 'Question',
    preparing: ['Which database?'],
    started: ['Which database?', 'Postgres · SQLite'],
    answered: ['Postgres'],
  },
  {
    category: 'bash',
    name: 'Bash',
    args: { description: 'List the source files', command: 'ls -la src' },
    output: { stdout: 'a.ts\nb.ts', stderr: '', exitCode: 0 },
    title: 'Bash',
    preparing: ['List the source files'],
    started: ['ls -la src'],
    answered: ['a.ts', 'exit 0'],
  },
  {
    category: 'pwsh',
    name: 'PowerShell',
    args: { description: 'Remove the build folder', command: 'Remove-Item build -Recurse' },
    output: 'Exit code: 1\nRemove-Item: Cannot find path',
    isError: true,
    title: 'PowerShell',
    preparing: ['Remove the build folder'],
    started: ['Remove-Item build -Recurse'],
    answered: ['Cannot find path', 'exit 1', 'Failed', 'Error'],
  },
  {
    category: 'run_code',
    name: 'run_code',
    args: { description: 'Add two numbers', language: 'python', code: 'print(1 + 1)' },
    output: '2',
    title: 'Run code',
    preparing: ['Add two numbers'],
    started: ['print(1 + 1)', 'Code (python)'],
    answered: ['Output', '2'],
  },
  {
    category: 'generic',
    name: 'deploy_app',
    args: { target: 'production', dry_run: true },
    output: { content: [{ type: 'text', text: 'Deployed 3 services' }] },
    title: 'deploy_app',
    preparing: [],
    started: ['"target":"production"'],
    answered: ['Deployed 3 services'],
  },
];

async function rowFor(session: Session, callId: string): Promise<ToolRowElement> {
  return fixture<ToolRowElement>(html`<tool-row .node=${session.tool(callId)}></tool-row>`);
}

async function show(row: ToolRowElement, session: Session, callId: string): Promise<void> {
  row.node = session.tool(callId);
  await row.updateComplete;
}

for (const c of cases) {
  describe(`<tool-row>: ${c.category} (${c.name})`, () => {
    const text = JSON.stringify(c.args);

    it('preparing: identity and the fields streamed in, not expandable', async () => {
      const session = new Session().stream('c1', c.name, text.slice(0, -1));
      const row = await rowFor(session, 'c1');
      expect(row.getAttribute('stage')).to.equal('preparing');
      expect(row.getAttribute('category')).to.equal(c.category);
      expect(part(row, 'title')?.textContent).to.equal(c.title);
      expect(part(row, 'icon'), 'an icon').to.exist;
      expect(part(row, 'stage')?.textContent).to.contain('Preparing');
      for (const expected of c.preparing) expect(textOf(row)).to.contain(expected);
      expect(row.shadowRoot?.querySelector('[aria-expanded]')?.outerHTML, 'no disclosure').to.equal(
        undefined,
      );
      expect(part(row, 'body')?.outerHTML).to.equal(undefined);
      if (c.category === 'generic') expect(part(row, 'summary')?.outerHTML).to.equal(undefined);
      await expect(row).to.be.accessible();
    });

    it('start: the call presentation, expandable; result: the output', async () => {
      const session = new Session().stream('c1', c.name, text).call('c1', c.name, text);
      const row = await rowFor(session, 'c1');
      expect(row.getAttribute('stage')).to.equal('start');
      expect(part(row, 'stage')?.textContent).to.contain('Running');
      const toggle = part(row, 'toggle') as HTMLButtonElement;
      expect(toggle.tagName).to.equal('BUTTON');
      expect(toggle.getAttribute('aria-expanded')).to.equal('false');
      expect(part(row, 'body')?.hidden).to.equal(true);
      toggle.click();
      await row.updateComplete;
      expect(toggle.getAttribute('aria-expanded')).to.equal('true');
      expect(part(row, 'body')?.hidden).to.equal(false);
      for (const expected of c.started) expect(textOf(row)).to.contain(expected);
      await expect(row).to.be.accessible();

      await show(row, session.result('c1', c.output, c.isError === true), 'c1');
      expect(row.getAttribute('stage')).to.equal('result');
      expect(row.hasAttribute('error')).to.equal(c.isError === true);
      expect(part(row, 'stage')?.textContent).to.contain(c.isError ? 'Failed' : 'Done');
      for (const expected of [...c.started, ...c.answered])
        expect(textOf(row)).to.contain(expected);
      await expect(row).to.be.accessible();
    });

    it('history: a call that arrives whole (no deltas) shows the same', async () => {
      const session = new Session().call('c1', c.name, c.args).result('c1', c.output, c.isError);
      const row = await rowFor(session, 'c1');
      (part(row, 'toggle') as HTMLElement).click();
      await row.updateComplete;
      for (const expected of [...c.started, ...c.answered])
        expect(textOf(row)).to.contain(expected);
    });
  });
}

describe('<tool-row>: a result whose call is outside the loaded window', () => {
  it('shows a generic row with the output', async () => {
    const session = new Session().result('old', 'late output');
    const row = await rowFor(session, 'old');
    expect(part(row, 'title')?.textContent).to.equal('Tool');
    (part(row, 'toggle') as HTMLElement).click();
    await row.updateComplete;
    expect(textOf(row)).to.contain('late output');
    await expect(row).to.be.accessible();
  });
});
