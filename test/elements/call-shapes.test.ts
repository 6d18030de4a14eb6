/**
 * What a row shows of the real-world call shapes (DESIGN: "Real-world call shapes"): a patch
 * whose files show as its headers stream, a call the provider ran, a call its response was
 * cut inside, and a call waiting for approval, with Approve and Deny usable by keyboard and
 * screen reader and heard by a host listening on the timeline.
 */
import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../elements/tool-timeline.js';
import { firstValueFrom, toArray } from 'rxjs';
import type {
  ToolApprovalEvent,
  ToolGroupElement,
  ToolRowElement,
} from '../../elements/classes.js';
import type { ToolNode } from '../../src/definitions/tool-definition.js';
import type { CallfoldEvent } from '../../src/events/types.js';
import { fromOpenAIResponses } from '../../src/providers/openai-responses.js';
import { describe, it } from '../harness.js';
import { completed, whole } from '../providers/support/responses-chunks.js';
import { part, Session, textOf } from './session.js';

async function rowOf(node: ToolNode): Promise<ToolRowElement> {
  return fixture<ToolRowElement>(html`<tool-row .node=${node}></tool-row>`);
}

const stageText = (row: ToolRowElement) =>
  (part(row, 'stage')?.textContent ?? '').replace(/\s+/g, ' ').trim();

const patch = [
  '*** Begin Patch',
  '*** Update File: src/app.ts',
  '@@',
  '-run();',
  '+run({ verbose: true });',
  '*** Add File: docs/usage.md',
  '+# Usage',
  '*** End Patch',
].join('\n');

describe('<tool-row> free-form patch', () => {
  it('shows the first file as the path and the others as they stream', async () => {
    const session = new Session();
    const text = JSON.stringify({ input: patch });
    const cut = text.indexOf('@@');
    session.delta('c1', text.slice(0, 30), 'apply_patch');
    const row = await rowOf(session.tool('c1'));
    expect(part(row, 'path'), 'no half-written path').to.equal(null);
    row.node = session.delta('c1', text.slice(30, cut)).tool('c1');
    await row.updateComplete;
    expect(part(row, 'path')?.textContent?.trim()).to.equal('src/app.ts');
    expect(part(row, 'more-paths')).to.equal(null);
    row.node = session.delta('c1', text.slice(cut)).tool('c1');
    await row.updateComplete;
    expect(part(row, 'more-paths')?.textContent?.trim()).to.equal('+ docs/usage.md');
    const group = await fixture<ToolGroupElement>(
      html`<tool-group .group=${session.group('c1')}></tool-group>`,
    );
    expect(textOf(group)).to.contain('src/app.ts, docs/usage.md');
  });
});

/**
 * A free-form call's row, streamed then started: after each streamed piece (the text up to
 * `to`) its preparing row is checked; the rest streams, the call is dispatched and its row,
 * expanded, is checked again.
 */
interface FreeFormCase {
  readonly title: string;
  readonly name: string;
  readonly text: string;
  readonly streaming: readonly {
    readonly to: number;
    readonly check: (row: ToolRowElement) => void;
  }[];
  readonly started: (row: ToolRowElement) => void;
}

const grammar = `SELECT name FROM users\nWHERE id = 1;${' '.repeat(3100)}`;

const freeFormCases: readonly FreeFormCase[] = [
  {
    title: 'a free-form apply_patch shows its files as they stream, then its patch',
    name: 'apply_patch',
    text: patch,
    streaming: [
      {
        to: 20,
        check: (row) => {
          expect(row.getAttribute('category')).to.equal('edit');
          expect(part(row, 'path')).to.equal(null);
        },
      },
      {
        to: patch.indexOf('@@'),
        check: (row) => expect(part(row, 'path')?.textContent?.trim()).to.equal('src/app.ts'),
      },
    ],
    started: (row) => {
      expect(part(row, 'more-paths')?.textContent?.trim()).to.equal('+ docs/usage.md');
      expect(textOf(row)).to.contain('+run({ verbose: true });');
    },
  },
  {
    title:
      'an unknown free-form tool shows its size while it streams, then its first line and input',
    name: 'sql_query',
    text: grammar,
    streaming: [
      {
        to: grammar.length,
        check: (row) => {
          expect(part(row, 'size')?.textContent?.trim()).to.equal('3 KiB');
          expect(part(row, 'summary')).to.equal(null);
        },
      },
    ],
    started: (row) => {
      expect(part(row, 'summary')?.textContent?.trim()).to.equal('SELECT name FROM users');
      expect(part(row, 'size')?.textContent?.trim()).to.equal('3.1 KiB');
      expect(row.shadowRoot?.querySelector('[part="block"]')?.getAttribute('aria-label')).to.equal(
        'Input',
      );
    },
  },
];

describe('<tool-row> free-form input (input: "text")', () => {
  for (const { title, name, text, streaming, started } of freeFormCases) {
    it(title, async () => {
      const session = new Session();
      let row: ToolRowElement | undefined;
      let from = 0;
      for (const { to, check } of streaming) {
        session.textDelta('c1', text.slice(from, to), from === 0 ? name : undefined);
        from = to;
        if (row === undefined) row = await rowOf(session.tool('c1'));
        else {
          row.node = session.tool('c1');
          await row.updateComplete;
        }
        check(row);
      }
      if (row === undefined) throw new Error(`${title}: nothing streamed`);
      if (from < text.length) session.textDelta('c1', text.slice(from));
      row.node = session.freeFormCall('c1', name, text).tool('c1');
      row.expanded = true;
      await row.updateComplete;
      started(row);
    });
  }
});

/** The events the real Responses adapter emits for one built-in client item, done whole. */
function responsesItem(item: Record<string, unknown>): Promise<CallfoldEvent[]> {
  return firstValueFrom(fromOpenAIResponses([...whole(0, item), completed]).pipe(toArray()));
}

describe('<tool-row> OpenAI shell calls', () => {
  const commands = ['npm ci', 'npm test -- --grep "<b>rows</b>"'];

  // Failed before: no command.
  it('a shell_call shows its commands: joined in the header and the group detail, one a line expanded, as text', async () => {
    const events = await responsesItem({
      id: 'sh_1',
      type: 'shell_call',
      call_id: 'call_s',
      action: { commands, timeout_ms: 60_000, max_output_length: null },
    });
    const session = new Session().push(...events);
    const row = await fixture<ToolRowElement>(
      html`<tool-row expanded .node=${session.tool('call_s')}></tool-row>`,
    );
    expect(row.getAttribute('category')).to.equal('bash');
    expect(part(row, 'summary')?.textContent?.trim()).to.equal(
      'npm ci; npm test -- --grep "<b>rows</b>"',
    );
    expect(part(row, 'text')?.textContent).to.equal(commands.join('\n'));
    expect(row.shadowRoot?.querySelector('b'), 'never HTML').to.equal(null);
    const group = await fixture<ToolGroupElement>(
      html`<tool-group .group=${session.group('call_s')}></tool-group>`,
    );
    expect(part(group, 'detail')?.textContent?.trim()).to.equal(
      'npm ci; npm test -- --grep "<b>rows</b>"',
    );
    await expect(row).to.be.accessible();
  });

  it('a long list of commands is bounded: 160 clusters in the header, 40 lines before "Show more"', async () => {
    const many = Array.from({ length: 5000 }, (_, i) => `echo ${i}`);
    const events = await responsesItem({
      id: 'sh_2',
      type: 'shell_call',
      call_id: 'call_s',
      action: { commands: many, timeout_ms: null, max_output_length: null },
    });
    const row = await fixture<ToolRowElement>(
      html`<tool-row expanded .node=${new Session().push(...events).tool('call_s')}></tool-row>`,
    );
    const summary = part(row, 'summary')?.textContent?.trim() ?? '';
    expect(summary.startsWith('echo 0; echo 1; ')).to.be.true;
    expect(summary.endsWith('…')).to.be.true;
    expect([...summary].length).to.equal(161);
    expect(part(row, 'text')?.textContent?.split('\n')).to.have.length(40);
    expect(part(row, 'show-more')).to.not.equal(null);
  });

  it("a local_shell_call's argv shows in the header as the group shows it: a shell wrapper's script", async () => {
    const events = await responsesItem({
      id: 'ls_1',
      type: 'local_shell_call',
      call_id: 'call_l',
      action: { type: 'exec', command: ['bash', '-lc', 'npm test'], env: {} },
    });
    const row = await rowOf(new Session().push(...events).tool('call_l'));
    expect(part(row, 'summary')?.textContent?.trim()).to.equal('npm test');
  });
});

describe('<tool-row> cut calls', () => {
  it('stays, says why and how much arrived', async () => {
    const args = `{"file_path":"src/big.ts","content":"${'x'.repeat(3000)}`;
    const session = new Session().delta('c1', args, 'Write').cut('c1', 'Write', args);
    session.push({ type: 'stream/settle', attemptId: 'a1' });
    const row = await rowOf(session.tool('c1'));
    expect(row.node?.args.closed(), 'closed arguments: exact sizes').to.be.true;
    expect(stageText(row)).to.equal('Write: Cut off');
    expect(row.hasAttribute('incomplete')).to.be.true;
    expect(part(row, 'notice')?.textContent?.replace(/\s+/g, ' ').trim()).to.equal(
      'Cut off: the response reached its token limit (3.0 KiB of arguments arrived). Not run.',
    );
    expect(part(row, 'path')?.textContent?.trim()).to.equal('src/big.ts');
    await expect(row).to.be.accessible();
  });

  // Failed before: no size.
  it('cut inside a string field, shows the size that arrived in its header, as the notice does', async () => {
    const args = `{"file_path":"src/big.ts","content":"${'x'.repeat(3000)}`;
    const session = new Session().delta('c1', args, 'Write').cut('c1', 'Write', args);
    const row = await rowOf(session.tool('c1'));
    expect(row.node?.args.stringLength('content'), 'the sealed view reads no length').to.equal(
      undefined,
    );
    expect(part(row, 'size')?.textContent?.trim()).to.equal('2.9 KiB');
    expect(part(row, 'notice')?.textContent).to.contain('(3.0 KiB of arguments arrived)');
    // An edit cut inside its new text counts what arrived of both strings.
    const edit = `{"file_path":"a.ts","old_string":"${'o'.repeat(1024)}","new_string":"${'n'.repeat(1024)}`;
    const edited = await rowOf(
      new Session().delta('c2', edit, 'Edit').cut('c2', 'Edit', edit).tool('c2'),
    );
    expect(part(edited, 'size')?.textContent?.trim()).to.equal('2.0 KiB');
  });

  it('names a content filter, and any other reason as given', async () => {
    const filtered = await rowOf(
      new Session().cut('c1', 'Bash', '{"command":"rm', 'content-filter').tool('c1'),
    );
    expect(part(filtered, 'notice')?.textContent).to.contain('content filter stopped the response');
    const other = await rowOf(new Session().cut('c1', 'Bash', '{"c', '<b>odd</b>').tool('c1'));
    expect(part(other, 'notice')?.textContent).to.contain('the response ended (<b>odd</b>)');
    expect(other.shadowRoot?.querySelector('b')).to.equal(null);
  });
});

describe('<tool-row> approval', () => {
  const waiting = () => {
    const session = new Session().call('c1', 'Bash', {
      description: 'Publish the package',
      command: 'npm publish',
    });
    return { session, node: session.approvalRequest('c1').tool('c1') };
  };

  it('shows Approve and Deny; a click fires tool-approval once, bubbling and composed', async () => {
    const { node } = waiting();
    const row = await rowOf(node);
    expect(stageText(row)).to.equal('Bash: Needs approval');
    const group = part(row, 'approval') as HTMLElement;
    expect(group.getAttribute('role')).to.equal('group');
    expect(group.getAttribute('aria-label')).to.equal('Approval: Bash');
    const fired: ToolApprovalEvent[] = [];
    row.addEventListener('tool-approval', (event) => fired.push(event));
    (part(row, 'approve') as HTMLElement).click();
    await row.updateComplete;
    (part(row, 'deny') as HTMLElement).click();
    (part(row, 'approve') as HTMLElement).click();
    expect(fired.map((event) => event.detail)).to.deep.equal([{ callId: 'c1', approved: true }]);
    expect(fired[0]?.bubbles && fired[0]?.composed).to.be.true;
    expect(part(row, 'approve')?.getAttribute('aria-disabled')).to.equal('true');
    expect(textOf(row)).to.contain('Approving…');
    await expect(row).to.be.accessible();
  });

  it('Tab reaches Approve then Deny; Enter and Space answer', async () => {
    const { node } = waiting();
    const wrapper = await fixture<HTMLElement>(
      html`<div><button>start</button><tool-row .node=${node}></tool-row></div>`,
    );
    (wrapper.querySelector('button') as HTMLElement).focus();
    const row = wrapper.querySelector('tool-row') as ToolRowElement;
    await row.updateComplete;
    await sendKeys({ press: 'Tab' });
    expect(row.shadowRoot?.activeElement === part(row, 'toggle')).to.be.true;
    await sendKeys({ press: 'Tab' });
    expect(row.shadowRoot?.activeElement === part(row, 'approve')).to.be.true;
    await sendKeys({ press: 'Tab' });
    expect(row.shadowRoot?.activeElement === part(row, 'deny')).to.be.true;
    const denied = oneEvent(row, 'tool-approval') as Promise<ToolApprovalEvent>;
    await sendKeys({ press: 'Space' });
    expect((await denied).detail).to.deep.equal({ callId: 'c1', approved: false });
    await row.updateComplete;
    expect(textOf(row)).to.contain('Denying…');

    // Another call's request can be answered: the answer sent belongs to one call.
    row.node = new Session().call('c2', 'Bash', { command: 'ls' }).approvalRequest('c2').tool('c2');
    await row.updateComplete;
    const approved = oneEvent(row, 'tool-approval') as Promise<ToolApprovalEvent>;
    (part(row, 'approve') as HTMLElement).focus();
    await sendKeys({ press: 'Enter' });
    expect((await approved).detail).to.deep.equal({ callId: 'c2', approved: true });
  });

  it('a denied call shows "Denied" and the reason, and never a result', async () => {
    const { session } = waiting();
    session.approval('c1', false, 'not <i>today</i>');
    // A result recorded anyway (a host bug) is never shown for a denied call.
    const node = { ...session.tool('c1'), result: { output: 'published 1.0.0', isError: false } };
    const row = await fixture<ToolRowElement>(html`<tool-row expanded .node=${node}></tool-row>`);
    expect(stageText(row)).to.equal('Bash: Denied');
    expect(part(row, 'notice')?.textContent?.replace(/\s+/g, ' ').trim()).to.equal(
      'Denied: not <i>today</i>. Not run.',
    );
    expect(part(row, 'approve')).to.equal(null);
    expect(textOf(row)).to.not.contain('published 1.0.0');
    expect(part(row, 'exit-code')).to.equal(null);
    await expect(row).to.be.accessible();
  });

  it('a host listening on <tool-timeline> hears the answer', async () => {
    const { session } = waiting();
    const timeline = await fixture<HTMLElement & { updateComplete: Promise<unknown> }>(
      html`<tool-timeline expand-groups .conversation=${session.publish()}></tool-timeline>`,
    );
    await timeline.updateComplete;
    const group = timeline.shadowRoot?.querySelector('tool-group') as ToolGroupElement;
    await group.updateComplete;
    const row = group.shadowRoot?.querySelector('tool-row') as ToolRowElement;
    await row.updateComplete;
    const heard = oneEvent(timeline, 'tool-approval') as Promise<ToolApprovalEvent>;
    (part(row, 'deny') as HTMLElement).click();
    expect((await heard).detail).to.deep.equal({ callId: 'c1', approved: false });
    row.node = session.approval('c1', false).tool('c1');
    await row.updateComplete;
    expect(stageText(row)).to.equal('Bash: Denied');
  });

  it('an approved call runs as usual', async () => {
    const { session } = waiting();
    const row = await rowOf(session.approval('c1', true).tool('c1'));
    expect(stageText(row)).to.equal('Bash: Running');
    expect(part(row, 'approval')).to.equal(null);
  });
});
