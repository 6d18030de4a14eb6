/**
 * `FoldController` on a small Lit host of its own (not `<tool-timeline>`): an Observable of
 * events folded with `assemble()` exactly while the host is connected, each publication
 * rendered by the host.
 */
import { expect } from '@open-wc/testing';
import { html, LitElement } from 'lit';
import { defer, type Observable, of, queueScheduler, Subject, throwError } from 'rxjs';
import { FoldController } from '../../elements/internal/fold-controller.js';
import { definitionsWithTurns } from '../../src/conversation/turns.js';
import type { CallfoldEvent } from '../../src/events/types.js';
import { defaultDefinitions, type TurnNode } from '../../src/index.js';
import type { AssembleInput } from '../../src/rx/assembler-command.js';
import { describe, it } from '../harness.js';
import { until } from './until.js';

/** Shows the kinds of the folded items, e.g. "turn group"; "nothing" before a publication. */
class FoldHost extends LitElement {
  readonly errors: unknown[] = [];
  readonly fold = new FoldController<TurnNode>(this, {
    defaults: { definitions: definitionsWithTurns },
    onError: (error) => this.errors.push(error),
  });

  protected override render(): unknown {
    const items = this.fold.value?.items;
    return html`<p>${items ? items.map((item) => item.kind).join(' ') : 'nothing'}</p>`;
  }
}
customElements.define('fold-host', FoldHost);

const shown = (host: FoldHost) => host.renderRoot.querySelector('p')?.textContent ?? '';

const call = (seq: number, callId: string): CallfoldEvent => ({
  type: 'tool/call',
  seq,
  callId,
  name: 'Read',
  args: { file_path: `/src/${callId}.ts` },
});

/** `source`, counting its subscriptions. */
function counted(source: Observable<AssembleInput>) {
  const counter = { subscriptions: 0 };
  const counting = defer(() => {
    counter.subscriptions++;
    return source;
  });
  return Object.assign(counter, { source: counting });
}

async function connected(): Promise<FoldHost> {
  const host = new FoldHost();
  document.body.append(host);
  await host.updateComplete;
  return host;
}

describe('FoldController: the subscription follows the host', () => {
  it('subscribes only while the host is connected, again once it reconnects', async () => {
    const subject = new Subject<AssembleInput>();
    const host = new FoldHost();
    host.fold.source = subject;
    expect(subject.observed, 'a disconnected host does not subscribe').to.be.false;
    expect(host.fold.subscribed).to.be.false;
    document.body.append(host);
    expect(subject.observed, 'subscribed once connected').to.be.true;
    expect(host.fold.subscribed).to.be.true;
    host.remove();
    expect(subject.observed, 'unsubscribed once disconnected').to.be.false;
    expect(host.fold.subscribed).to.be.false;
    document.body.append(host);
    expect(subject.observed, 'subscribed again once reconnected').to.be.true;
    host.remove();
  });

  it('each publication becomes value and renders in the host', async () => {
    const subject = new Subject<AssembleInput>();
    const host = await connected();
    host.fold.source = subject;
    expect(shown(host)).to.equal('nothing');
    subject.next([{ type: 'turn/start', seq: 1, turnId: 't1' }, call(2, 'c1')]);
    await until(() => shown(host) === 'turn group', 'the fold renders');
    expect(host.fold.value?.items.map((item) => item.kind)).to.deep.equal(['turn', 'group']);
    host.remove();
  });

  it('an event sent right after setting the source is folded', async () => {
    const subject = new Subject<AssembleInput>();
    const host = await connected();
    host.fold.source = subject;
    subject.next(call(1, 'c1'));
    await until(() => shown(host) === 'group', 'the event right after is folded');
    host.remove();
  });

  it('(negative control) an event sent to a hot source before the subscription is lost', async () => {
    const subject = new Subject<AssembleInput>();
    const host = new FoldHost();
    host.fold.source = subject;
    subject.next(call(1, 'c1'));
    document.body.append(host);
    subject.next(call(2, 'c2'));
    await until(() => host.fold.value !== undefined, 'the later event is folded');
    const calls = host.fold.value?.items.flatMap((item) =>
      item.kind === 'group' ? item.tools.map((tool) => tool.callId) : [],
    );
    expect(calls, 'only the later call').to.deep.equal(['c2']);
    host.remove();
  });
});

describe('FoldController: changing what it folds', () => {
  it('a new source ends the previous subscription and folds from scratch', async () => {
    const first = new Subject<AssembleInput>();
    const second = new Subject<AssembleInput>();
    const host = await connected();
    host.fold.source = first;
    first.next(call(1, 'c1'));
    await until(() => shown(host) === 'group');
    host.fold.source = second;
    expect(first.observed).to.be.false;
    expect(second.observed).to.be.true;
    expect(host.fold.value, 'nothing folded yet').to.be.undefined;
    host.remove();
  });

  it('new options (another object) resubscribe; the same source and options do not', async () => {
    const counter = counted(new Subject<AssembleInput>());
    const host = await connected();
    host.fold.source = counter.source;
    expect(counter.subscriptions).to.equal(1);
    host.fold.source = counter.source;
    expect(counter.subscriptions, 'the same source').to.equal(1);
    const options = { scheduler: queueScheduler };
    host.fold.options = options;
    expect(counter.subscriptions).to.equal(2);
    host.fold.options = options;
    expect(counter.subscriptions, 'the same options').to.equal(2);
    host.fold.options = { scheduler: queueScheduler };
    expect(counter.subscriptions).to.equal(3);
    host.remove();
  });

  it('options sit over the defaults', async () => {
    const host = await connected();
    host.fold.options = { scheduler: queueScheduler };
    host.fold.source = of([{ type: 'turn/start', seq: 1, turnId: 't1' }, call(2, 'c1')]);
    expect(
      host.fold.value?.items.map((item) => item.kind),
      'defaults kept',
    ).to.deep.equal(['turn', 'group']);
    host.fold.options = { scheduler: queueScheduler, definitions: defaultDefinitions };
    expect(
      host.fold.value?.items.map((item) => item.kind),
      'no turns',
    ).to.deep.equal(['group']);
    host.remove();
  });
});

describe('FoldController: a source that ends', () => {
  it('a failing source calls onError once, keeps what was folded and holds no subscription', async () => {
    const subject = new Subject<AssembleInput>();
    const host = await connected();
    host.fold.source = subject;
    subject.next(call(1, 'c1'));
    await until(() => shown(host) === 'group');
    const error = new Error('the network went away');
    subject.error(error);
    expect(host.errors).to.deep.equal([error]);
    expect(host.fold.subscribed).to.be.false;
    expect(host.fold.value?.items.length, 'what was folded stays').to.equal(1);
    host.remove();
  });

  it('a source that fails or completes while subscribing leaves no subscription', async () => {
    const host = await connected();
    const error = new Error('refused');
    host.fold.source = throwError(() => error);
    expect(host.errors).to.deep.equal([error]);
    expect(host.fold.subscribed).to.be.false;
    host.fold.source = of(call(1, 'c1'));
    expect(host.fold.subscribed).to.be.false;
    expect(host.fold.value?.items.length, 'folded before completing').to.equal(1);
    host.remove();
  });
});

/** A host whose controller publishes each subscription's first fold at once. */
class FirstAtOnceHost extends LitElement {
  readonly fold = new FoldController<TurnNode>(this, {
    defaults: { definitions: definitionsWithTurns },
    firstAtOnce: true,
  });
}
customElements.define('first-at-once-host', FirstAtOnceHost);

describe('FoldController: firstAtOnce', () => {
  it('publishes the first fold within the task that folded it, later ones at an animation frame', async () => {
    const host = new FirstAtOnceHost();
    document.body.append(host);
    await host.updateComplete;
    const events = new Subject<AssembleInput>();
    host.fold.source = events;
    events.next(call(1, 'a'));
    // Microtasks only: no animation frame can run before these continuations.
    await Promise.resolve();
    await Promise.resolve();
    expect(host.fold.value?.tools.size).to.equal(1);
    events.next(call(2, 'b'));
    await Promise.resolve();
    await Promise.resolve();
    expect(host.fold.value?.tools.size, 'the second waits for a frame').to.equal(1);
    await until(() => host.fold.value?.tools.size === 2, 'the second publication');
    host.remove();
  });

  it('leaves a scheduler given in the options alone', async () => {
    const host = new FirstAtOnceHost();
    document.body.append(host);
    await host.updateComplete;
    host.fold.options = { scheduler: queueScheduler };
    host.fold.source = of(call(1, 'a'));
    // queueScheduler publishes synchronously; asap would not have yet.
    expect(host.fold.value?.tools.size).to.equal(1);
    host.remove();
  });
});
