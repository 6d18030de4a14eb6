import { expect } from 'chai';
import fc from 'fast-check';
import {
  animationFrameScheduler,
  asapScheduler,
  asyncScheduler,
  from,
  lastValueFrom,
  map,
  Observable,
  type OperatorFunction,
  of,
  queueScheduler,
  type SchedulerLike,
  Subject,
  tap,
  throwError,
  VirtualTimeScheduler,
} from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { Assembler } from '../../src/conversation/assembler.js';
import type { Conversation } from '../../src/conversation/conversation.js';
import type { CallfoldEvent } from '../../src/events/types.js';
import { EventError } from '../../src/events/validate.js';
import { type AssembleOptions, assemble } from '../../src/rx/assemble.js';
import {
  type AssembleInput,
  prependCommand,
  reconnectCommand,
} from '../../src/rx/assembler-command.js';
import { publicationScheduler } from '../../src/rx/publication-scheduler.js';
import { describe, it, runtime } from '../harness.js';
import { call, delta, result, settle, shape, text, ticks } from './session.js';

const now = () => 1000;

interface Run {
  readonly input: Subject<AssembleInput>;
  readonly scheduler: VirtualTimeScheduler;
  /** Emissions with the virtual frame they came in. */
  readonly emitted: { frame: number; conversation: Conversation }[];
  readonly outcome: { completed: boolean; error: unknown };
  readonly unsubscribe: () => void;
}

/** `assemble()` on a virtual clock, fed through a Subject. */
function start(options: AssembleOptions = {}): Run {
  const scheduler = new VirtualTimeScheduler();
  const input = new Subject<AssembleInput>();
  const emitted: Run['emitted'] = [];
  const outcome: Run['outcome'] = { completed: false, error: undefined };
  const subscription = input.pipe(assemble({ now, scheduler, ...options })).subscribe({
    next: (conversation) => emitted.push({ frame: scheduler.frame, conversation }),
    error: (error: unknown) => (outcome.error = error),
    complete: () => (outcome.completed = true),
  });
  return { input, scheduler, emitted, outcome, unsubscribe: () => subscription.unsubscribe() };
}

/**
 * How many subscriptions to the source are still active after `pipe` is subscribed, fed and
 * unsubscribed: the source counts them itself, so any leak shows.
 */
function activeAfterTeardown(pipe: OperatorFunction<AssembleInput, Conversation>): number {
  let active = 0;
  const input = new Subject<AssembleInput>();
  const counted = new Observable<AssembleInput>((subscriber) => {
    active += 1;
    const inner = input.subscribe(subscriber);
    return () => {
      active -= 1;
      inner.unsubscribe();
    };
  });
  const subscription = counted.pipe(pipe).subscribe();
  input.next(call(1, 'c1'));
  input.next(delta('c2', '{"a"', 'Read'));
  if (active === 0) throw new Error('the pipe never subscribed to its source');
  subscription.unsubscribe();
  return active;
}

/** Runs `work` at virtual frame `frame`. */
function at(run: Run, frame: number, work: () => void): void {
  run.scheduler.schedule(work, frame);
}

describe('assemble', () => {
  it('publishes at most once per scheduler tick, and only ticks that changed something', () => {
    fc.assert(
      fc.property(ticks, fc.boolean(), (session, batched) => {
        const run = start();
        const direct = new Assembler({ now });
        const expected: Conversation[] = [];
        let previous = direct.publish();
        session.forEach((events, i) => {
          at(run, i + 1, () => {
            if (batched) run.input.next(events);
            else for (const event of events) run.input.next(event);
          });
          if (events.length === 0) return;
          direct.push(events);
          const conversation = direct.publish();
          if (conversation !== previous) expected.push(conversation);
          previous = conversation;
        });
        run.scheduler.flush();
        const frames = run.emitted.map((e) => e.frame);
        expect(new Set(frames).size, 'one publication per tick').to.equal(frames.length);
        for (const frame of frames) expect(session[frame - 1]).not.to.deep.equal([]);
        expect(run.emitted.map((e) => shape(e.conversation))).to.deep.equal(expected.map(shape));
        for (let i = 1; i < run.emitted.length; i++) {
          expect(run.emitted[i]?.conversation).not.to.equal(run.emitted[i - 1]?.conversation);
        }
        expect(run.scheduler.actions).to.have.length(0);
      }),
    );
  });

  it('publishes once per frame of a marble source', () => {
    const scheduler = new TestScheduler((actual, expected) => {
      expect(actual).to.deep.equal(expected);
    });
    scheduler.run(({ cold, expectObservable }) => {
      const events = { a: call(1, 'c1'), b: call(2, 'c2'), c: result(3, 'c1'), d: result(4, 'c2') };
      const stages = cold('-a-(bc)-d|', events).pipe(
        assemble({ now, scheduler }),
        map((c) => [...c.tools.values()].map((tool) => tool.stage).join()),
      );
      expectObservable(stages).toBe('-x-y----z|', {
        x: 'start',
        y: 'result,start',
        z: 'result,result',
      });
    });
  });

  it('folds a tick of many events into one publication', () => {
    const run = start();
    at(run, 1, () => {
      run.input.next(delta('c1', '{"file_path":', 'Read'));
      run.input.next(delta('c1', '"a.ts"}'));
      run.input.next([call(1, 'c1', '{"file_path":"a.ts"}'), result(2, 'c1')]);
    });
    run.scheduler.flush();
    expect(run.emitted.map((e) => e.frame)).to.deep.equal([1]);
    expect(run.emitted[0]?.conversation.tools.get('c1')?.stage).to.equal('result');
  });

  it('publishes exactly once for a burst of 10,000 deltas within one tick', () => {
    const run = start();
    const args = '{"file_path":"' + 'x'.repeat(9_998);
    at(run, 1, () => {
      run.input.next(delta('c1', args[0] as string, 'Read'));
      for (let i = 1; i < 10_000; i++) run.input.next(delta('c1', args[i] as string));
    });
    run.scheduler.flush();
    expect(run.emitted.map((e) => e.frame)).to.deep.equal([1]);
    const direct = new Assembler({ now });
    direct.push(delta('c1', args, 'Read'));
    expect(shape(run.emitted[0]?.conversation as Conversation)).to.deep.equal(
      shape(direct.publish()),
    );
    expect(run.emitted[0]?.conversation.tools.get('c1')?.stage).to.equal('preparing');
    expect(run.scheduler.actions).to.have.length(0);
  });

  it('emits nothing for a tick that changes nothing', () => {
    const run = start();
    at(run, 1, () => run.input.next(call(1, 'c1')));
    at(run, 2, () => run.input.next(call(1, 'c1'))); // a seq already held
    at(run, 3, () => run.input.next(delta('c2', '{"a"'))); // no name: nothing published
    at(run, 4, () => run.input.next(result(2, 'c1')));
    run.scheduler.flush();
    expect(run.emitted.map((e) => e.frame)).to.deep.equal([1, 4]);
  });

  it('takes history pages and reconnections in stream order', () => {
    const run = start();
    at(run, 1, () => {
      run.input.next(call(10, 'late'));
      run.input.next(delta('live', '{"file_path":"x"', 'Read'));
    });
    at(run, 2, () => run.input.next(prependCommand([call(3, 'early'), result(4, 'early')])));
    at(run, 3, () => run.input.next(reconnectCommand()));
    run.scheduler.flush();
    const [first, second, third] = run.emitted.map((e) => e.conversation);
    expect([...(first?.tools.keys() ?? [])]).to.deep.equal(['late', 'live']);
    expect([...(second?.tools.keys() ?? [])]).to.deep.equal(['early', 'late', 'live']);
    expect(second?.tools.get('early')?.stage).to.equal('result');
    expect([...(third?.tools.keys() ?? [])]).to.deep.equal(['early', 'late']);
  });

  it('keeps the published node when a reconnection and its replay share a tick', () => {
    const run = start();
    const stream = [delta('c1', '{"file_path":', 'Read'), delta('c1', '"a.ts"')];
    at(run, 1, () => run.input.next(stream));
    at(run, 2, () => {
      run.input.next(reconnectCommand());
      run.input.next(stream);
    });
    at(run, 3, () => {
      run.input.next(reconnectCommand());
      run.input.next(call(1, 'c1', '{"file_path":"a.ts"}'));
    });
    run.scheduler.flush();
    expect(run.emitted.map((e) => e.frame)).to.deep.equal([1, 3]);
    const [before, after] = run.emitted.map((e) => e.conversation.tools.get('c1'));
    expect(before?.stage).to.equal('preparing');
    expect(after?.stage).to.equal('start');
    expect(after?.args).to.equal(before?.args);
  });

  it('publishes what is pending, then completes, when the source completes', () => {
    const run = start();
    at(run, 1, () => {
      run.input.next(call(1, 'c1'));
      run.input.complete();
    });
    run.scheduler.flush();
    expect(run.emitted.map((e) => e.frame)).to.deep.equal([1]);
    expect(run.outcome.completed).to.equal(true);
    expect(run.scheduler.actions).to.have.length(0);

    const emitted: Conversation[] = [];
    let completed = false;
    of(call(1, 'c1'), result(2, 'c1'))
      .pipe(assemble({ now, scheduler: new VirtualTimeScheduler() }))
      .subscribe({ next: (c) => emitted.push(c), complete: () => (completed = true) });
    expect(emitted.map((c) => c.tools.get('c1')?.stage)).to.deep.equal(['result']);
    expect(completed).to.equal(true);
  });

  it('publishes what is pending, then passes the error on, when the source fails', () => {
    const run = start();
    const failure = new Error('connection lost');
    at(run, 1, () => {
      run.input.next(call(1, 'c1'));
      run.input.error(failure);
    });
    run.scheduler.flush();
    expect(run.emitted).to.have.length(1);
    expect(run.outcome.error).to.equal(failure);
    expect(run.scheduler.actions).to.have.length(0);

    let error: unknown;
    throwError(() => failure)
      .pipe(assemble({ now }))
      .subscribe({ error: (e: unknown) => (error = e) });
    expect(error).to.equal(failure);
  });

  it('fails with the EventError of a malformed input, after publishing what came before', () => {
    const run = start();
    at(run, 1, () => {
      run.input.next(call(1, 'c1'));
      run.input.next([call(2, 'c2'), { type: 'tool/call', seq: 3 } as CallfoldEvent]);
    });
    run.scheduler.flush();
    expect(run.emitted.map((e) => [...e.conversation.tools.keys()])).to.deep.equal([['c1']]);
    expect(run.outcome.error).to.be.instanceOf(EventError);
    expect((run.outcome.error as EventError).field).to.equal('callId');
    expect(run.scheduler.actions).to.have.length(0);

    for (const bad of [
      null,
      { type: 'history/prepend', events: 'no' },
      prependCommand([delta('c1', '') as never]),
    ]) {
      const other = start();
      other.input.next(bad as AssembleInput);
      expect(other.outcome.error, JSON.stringify(bad)).to.be.instanceOf(EventError);
    }
  });

  it('skips malformed inputs through onInvalid and goes on', () => {
    const invalid: [EventError, unknown][] = [];
    const run = start({ onInvalid: (error, input) => invalid.push([error, input]) });
    const bad = [call(2, 'c2'), { type: 'nope' }] as CallfoldEvent[];
    at(run, 1, () => {
      run.input.next(call(1, 'c1'));
      run.input.next(bad);
      run.input.next(result(3, 'c1'));
    });
    run.scheduler.flush();
    expect(invalid).to.have.length(1);
    expect(invalid[0]?.[0]).to.be.instanceOf(EventError);
    expect(invalid[0]?.[1]).to.equal(bad);
    expect(run.outcome.error).to.equal(undefined);
    expect([...(run.emitted[0]?.conversation.tools.keys() ?? [])]).to.deep.equal(['c1']);

    const thrown = new Error('stop');
    const strict = start({
      onInvalid: () => {
        throw thrown;
      },
    });
    strict.input.next(bad);
    expect(strict.outcome.error).to.equal(thrown);
  });

  it('leaves no work on the scheduler once unsubscribed', () => {
    fc.assert(
      fc.property(ticks, fc.nat({ max: 12 }), (session, stop) => {
        const run = start();
        for (const [i, events] of session.entries()) at(run, i + 1, () => run.input.next(events));
        at(run, stop, () => {
          run.input.next(text('tail'));
          run.unsubscribe();
        });
        run.scheduler.flush();
        expect(run.scheduler.actions).to.have.length(0);
        expect(run.emitted.every((e) => e.frame < stop)).to.equal(true);
        expect(run.input.observed).to.equal(false);
      }),
    );
  });

  it('leaves no subscription to its source after teardown', () => {
    expect(activeAfterTeardown(assemble({ now, scheduler: queueScheduler }))).to.equal(0);
    fc.assert(
      fc.property(ticks, (session) => {
        const input = new Subject<AssembleInput>();
        const subscription = input
          .pipe(assemble({ now, scheduler: new VirtualTimeScheduler() }))
          .subscribe();
        for (const events of session) input.next(events);
        expect(input.observed).to.equal(true);
        subscription.unsubscribe();
        expect(input.observed).to.equal(false);
      }),
    );
  });

  it('leaves no subscription to its source after teardown (negative control)', () => {
    // A pipe that subscribes to its source a second time and never lets go.
    const leaky: OperatorFunction<AssembleInput, Conversation> = (source) =>
      new Observable<Conversation>((subscriber) => {
        source.subscribe();
        return source.pipe(assemble({ now, scheduler: queueScheduler })).subscribe(subscriber);
      });
    expect(activeAfterTeardown(leaky)).to.equal(1);
    expect(() => expect(activeAfterTeardown(leaky)).to.equal(0)).to.throw();
  });

  it('works with a scheduler that runs work at once', () => {
    const emitted: Conversation[] = [];
    const input = new Subject<AssembleInput>();
    input.pipe(assemble({ now, scheduler: queueScheduler })).subscribe((c) => emitted.push(c));
    input.next(call(1, 'c1'));
    input.next(result(2, 'c1'));
    expect(emitted.map((c) => c.tools.get('c1')?.stage)).to.deep.equal(['start', 'result']);
  });

  it('is cold: each subscription folds with its own Assembler', () => {
    const source = of(call(1, 'c1'), settle());
    const scheduler = new VirtualTimeScheduler();
    const a: Conversation[] = [];
    const b: Conversation[] = [];
    const folded = source.pipe(assemble({ now, scheduler }));
    folded.subscribe((c) => a.push(c));
    folded.subscribe((c) => b.push(c));
    expect(a).to.have.length(1);
    expect(b).to.have.length(1);
    expect(a[0]).not.to.equal(b[0]);
    expect(shape(a[0] as Conversation)).to.deep.equal(shape(b[0] as Conversation));
  });

  it('publishes on the default scheduler of the runtime', async () => {
    const expected =
      typeof (globalThis as { requestAnimationFrame?: unknown }).requestAnimationFrame ===
      'function'
        ? animationFrameScheduler
        : asyncScheduler;
    expect(publicationScheduler()).to.equal(expected);
    if (runtime !== 'browser') {
      const host = globalThis as { requestAnimationFrame?: unknown };
      host.requestAnimationFrame = () => 0;
      try {
        expect(publicationScheduler()).to.equal(animationFrameScheduler);
      } finally {
        delete host.requestAnimationFrame;
      }
      expect(publicationScheduler()).to.equal(asyncScheduler);
    }

    const input = new Subject<AssembleInput>();
    const emitted: Conversation[] = [];
    const published = new Promise<void>((resolve) =>
      input.pipe(assemble({ now })).subscribe((c) => {
        emitted.push(c);
        resolve();
      }),
    );
    input.next(call(1, 'c1'));
    input.next(result(2, 'c1'));
    expect(emitted, 'nothing is published synchronously').to.have.length(0);
    await published;
    expect(emitted).to.have.length(1);
    expect(emitted[0]?.tools.get('c1')?.stage).to.equal('result');
  });

  /** Publications of 1,000 deltas that an async iterator yields one per microtask, as an SDK stream does. */
  async function publicationsOfMicrotaskStream(scheduler?: SchedulerLike): Promise<number> {
    async function* sdkLike(): AsyncGenerator<CallfoldEvent> {
      yield delta('c1', '{"content":"', 'Write');
      for (let i = 0; i < 1_000; i++) yield delta('c1', 'x');
    }
    let publications = 0;
    await lastValueFrom(
      from(sdkLike()).pipe(
        assemble({ now, ...(scheduler ? { scheduler } : {}) }),
        tap((conversation) => {
          publications++;
          conversation.tools.get('c1')?.args.stringLength('content');
        }),
      ),
    );
    return publications;
  }

  it('by default, a stream yielding one chunk per microtask publishes once per turn of the event loop, not per chunk', async () => {
    if (runtime === 'browser') return; // animation frames there: see the scheduler test above
    expect(await publicationsOfMicrotaskStream()).to.be.at.most(3);
  });

  it('(negative control) a microtask scheduler publishes once per chunk of the same stream', async () => {
    expect(await publicationsOfMicrotaskStream(asapScheduler)).to.be.greaterThan(900);
  });
});
