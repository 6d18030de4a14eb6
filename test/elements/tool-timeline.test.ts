/**
 * `<tool-timeline>` (DESIGN: Elements, RxJS): a Conversation rendered as assistant text and
 * tool groups; or a `source` of events folded with `assemble()`, subscribed exactly while the
 * element is connected.
 */
import { expect, fixture, html } from '@open-wc/testing';
import { Subject } from 'rxjs';
import '../../elements/tool-timeline.js';
import type {
  ToolGroupElement,
  ToolTimelineElement,
  ToolTimelineErrorEvent,
} from '../../elements/classes.js';
import type { CallfoldEvent } from '../../src/events/types.js';
import type { AssembleInput } from '../../src/rx/assembler-command.js';
import { describe, it } from '../harness.js';
import { part, Session, textOf } from './session.js';
import { until } from './until.js';

function groups(timeline: ToolTimelineElement): ToolGroupElement[] {
  return [...(timeline.shadowRoot?.querySelectorAll('tool-group') ?? [])];
}

const delta = (callId: string, args: string, name?: string): CallfoldEvent =>
  name === undefined
    ? { type: 'stream/tool-call-delta', attemptId: 'a1', block: 1, callId, args }
    : { type: 'stream/tool-call-delta', attemptId: 'a1', block: 1, callId, name, args };

describe('<tool-timeline .conversation>', () => {
  it('renders assistant text, reasoning and groups in log order', async () => {
    const session = new Session()
      .push({
        type: 'stream/text-delta',
        attemptId: 'a1',
        block: 0,
        text: 'Thinking…',
        reasoning: true,
      })
      .push({ type: 'stream/text-delta', attemptId: 'a1', block: 1, text: 'Let me look.' })
      .push({ type: 'tool/call', seq: 1, callId: 'c1', name: 'Read', args: { file_path: 'a.ts' } });
    const el = await fixture<ToolTimelineElement>(
      html`<tool-timeline expand-groups .conversation=${session.publish()}></tool-timeline>`,
    );
    const parts = [...(el.shadowRoot?.querySelectorAll('[part]') ?? [])].map((node) =>
      node.getAttribute('part'),
    );
    expect(parts).to.include.members(['timeline', 'assistant', 'reasoning', 'text', 'group']);
    expect(part(el, 'text')?.textContent).to.equal('Let me look.');
    expect(part(el, 'reasoning')?.textContent).to.contain('Thinking…');
    const [group] = groups(el);
    expect(group?.expanded).to.be.true;
    expect(textOf(el)).to.contain('Let me look.');
    await expect(el).to.be.accessible();
  });

  it('shows the empty slot when there is nothing to show', async () => {
    const el = await fixture<ToolTimelineElement>(
      html`<tool-timeline><p slot="empty">No activity yet</p></tool-timeline>`,
    );
    const slot = el.shadowRoot?.querySelector('slot[name="empty"]') as HTMLSlotElement;
    expect(slot.assignedElements()[0]?.textContent).to.equal('No activity yet');
  });

  it('keeps each group element and its expanded state as the conversation grows', async () => {
    const session = new Session().delta('c1', '{"command":"ls"}', 'Bash');
    const el = await fixture<ToolTimelineElement>(
      html`<tool-timeline .conversation=${session.publish()}></tool-timeline>`,
    );
    const [group] = groups(el);
    (part(group as ToolGroupElement, 'header') as HTMLElement).click();
    await group?.updateComplete;
    session.call('c1', 'Bash', '{"command":"ls"}').result('c1', 'a.ts');
    el.conversation = session.publish();
    await el.updateComplete;
    expect(groups(el).length === 1 && groups(el)[0] === group).to.be.true;
    expect(group?.expanded).to.be.true;
  });
});

describe('<tool-timeline .source>', () => {
  it('subscribes when connected, folds with assemble(), unsubscribes when disconnected', async () => {
    const subject = new Subject<AssembleInput>();
    expect(subject.observed).to.be.false;
    const el = await fixture<ToolTimelineElement>(
      html`<tool-timeline expand-groups .source=${subject}></tool-timeline>`,
    );
    expect(subject.observed, 'subscribed once connected').to.be.true;
    expect(el.subscribed).to.be.true;

    subject.next(delta('c1', '{"description":"List files', 'Bash'));
    await until(() => groups(el).length === 1, 'a group appears');
    const [group] = groups(el);
    await group?.updateComplete;
    const row = group?.shadowRoot?.querySelector('tool-row');
    await until(() => row != null && textOf(row).includes('List files'));
    expect(row?.getAttribute('stage')).to.equal('preparing');

    subject.next([
      delta('c1', '","command":"ls"}'),
      {
        type: 'tool/call',
        seq: 1,
        callId: 'c1',
        name: 'Bash',
        args: '{"description":"List files","command":"ls"}',
      },
    ]);
    await until(() => row?.getAttribute('stage') === 'start', 'the same row moves to start');

    const parent = el.parentElement as HTMLElement;
    el.remove();
    expect(subject.observed, 'unsubscribed once disconnected').to.be.false;
    expect(el.subscribed).to.be.false;
    subject.next({ type: 'tool/result', seq: 2, callId: 'c1', output: 'ignored' });

    parent.append(el);
    expect(subject.observed, 'subscribed again once reconnected').to.be.true;
    subject.next({
      type: 'tool/call',
      seq: 3,
      callId: 'c9',
      name: 'Read',
      args: { file_path: 'z' },
    });
    // The new fold's group renders at an animation frame: until then there is none to read.
    await until(() => {
      const [first] = groups(el);
      return first !== undefined && textOf(first).includes('Reading 1 file');
    });
    el.remove();
    expect(subject.observed).to.be.false;
  });

  it('a new source replaces the old subscription; a failing source fires tool-timeline-error', async () => {
    const first = new Subject<AssembleInput>();
    const second = new Subject<AssembleInput>();
    const el = await fixture<ToolTimelineElement>(
      html`<tool-timeline .source=${first}></tool-timeline>`,
    );
    el.source = second;
    expect(first.observed, 'at once, not at the next render').to.be.false;
    expect(second.observed).to.be.true;
    // Sent in the same task as the assignment: not lost.
    second.next({
      type: 'tool/call',
      seq: 1,
      callId: 'c1',
      name: 'Read',
      args: { file_path: 'a' },
    });
    await until(() => groups(el).length === 1);
    const errors: ToolTimelineErrorEvent[] = [];
    el.addEventListener('tool-timeline-error', (event) => errors.push(event));
    second.error(new Error('connection lost'));
    await until(() => errors.length === 1);
    expect(String(errors[0]?.detail.error)).to.equal('Error: connection lost');
    expect(groups(el), 'what was shown stays').to.have.length(1);
  });

  it('ignores .conversation while a source is set', async () => {
    const session = new Session().call('c1', 'Read', { file_path: 'a' });
    const el = await fixture<ToolTimelineElement>(
      html`<tool-timeline .conversation=${session.publish()} .source=${new Subject<AssembleInput>()}></tool-timeline>`,
    );
    expect(groups(el)).to.have.length(0);
    el.source = undefined;
    await el.updateComplete;
    expect(groups(el)).to.have.length(1);
  });
});
