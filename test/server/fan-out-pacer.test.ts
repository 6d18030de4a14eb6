/**
 * FanOutPacer's `'auto'` window and the SharedFeed, on a clock the test drives: a wake-up
 * "takes" the time the test says by advancing that clock, so the window `'auto'` chooses
 * is seen in counted wake-ups, never in timed waits.
 */
import { expect } from 'chai';
import type { CallfoldEvent, StreamEvent } from '../../src/events/types.js';
import { autoMaxMs, FanOutPacer, type PacerClock } from '../../src/server/fan-out-pacer.js';
import { FollowerQueue } from '../../src/server/follower-queue.js';
import { SharedFeed } from '../../src/server/shared-feed.js';
import { describe, it } from '../harness.js';

/** A clock and timers the test advances; a 0 ms timer fires after the current task. */
class DrivenClock implements PacerClock {
  time = 0;
  #timers: { at: number; callback: () => void; id: number }[] = [];
  #ids = 0;

  now(): number {
    return this.time;
  }

  setTimeout(callback: () => void, ms: number): unknown {
    const id = ++this.#ids;
    this.#timers.push({ at: this.time + Math.max(0, ms), callback, id });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.#timers = this.#timers.filter((timer) => timer.id !== handle);
  }

  /** Runs the timers due by `until`, in time order, letting microtasks run after each. */
  async runUntil(until: number): Promise<void> {
    await settle();
    for (;;) {
      this.#timers.sort((a, b) => a.at - b.at || a.id - b.id);
      const next = this.#timers[0];
      if (!next || next.at > until) break;
      this.#timers.shift();
      this.time = Math.max(this.time, next.at);
      next.callback();
      await settle();
    }
    this.time = Math.max(this.time, until);
  }
}

const settle = async () => {
  for (let i = 0; i < 4; i++) await Promise.resolve();
};

/**
 * Events every `everyMs` for `forMs` of driven time, each scheduling one wakeable whose
 * wake-up takes `costMs(k)` (the k-th wake-up): how many wake-ups it took, and the window
 * in force at each.
 */
async function drive(
  windowMs: number | 'auto',
  costMs: (k: number) => number,
  { everyMs = 0.5, forMs = 1000 } = {},
) {
  const clock = new DrivenClock();
  const pacer = new FanOutPacer(windowMs, clock);
  const windows: number[] = [];
  let wakeUps = 0;
  const follower = {
    wakeNow() {
      // The window that held this wake-up back.
      windows.push(pacer.window);
      clock.time += costMs(wakeUps++);
    },
  };
  for (let at = 0; at < forMs; at += everyMs) {
    await clock.runUntil(at);
    pacer.schedule(follower);
    await settle();
  }
  await clock.runUntil(forMs + 10 * autoMaxMs);
  expect(pacer.wakeUps).to.equal(wakeUps);
  return { wakeUps, windows };
}

describe("FanOutPacer 'auto': the window follows the time a wake-up takes", () => {
  it('wake-ups of 10 ms get a 5 ms window: 2,000 events over 1 s take ~67 wake-ups (negative control: the adaptive window disabled, fanOutMs 0 as the window, takes ~100 — the fan-out busy all the time)', async () => {
    const auto = await drive('auto', () => 10);
    expect(auto.wakeUps).to.be.within(60, 72);
    expect(auto.windows.at(-1)).to.equal(5);
    const disabled = await drive(0, () => 10);
    expect(disabled.wakeUps).to.be.within(95, 101);
  });

  it('the window grows with the wake-ups: 30 ms wake-ups take ~22 over 1 s (negative control: the 10 ms case above)', async () => {
    const slow = await drive('auto', () => 30);
    expect(slow.wakeUps).to.be.within(19, 26);
    expect(slow.windows.at(-1)).to.equal(15);
  });

  it('short wake-ups (a few followers) get no window: every event its own wake-up (negative control: a fixed 5 ms window batches them)', async () => {
    const auto = await drive('auto', () => 0.05);
    expect(auto.wakeUps).to.equal(2000);
    expect(Math.max(...auto.windows)).to.equal(0);
    const fixed = await drive(5, () => 0.05);
    expect(fixed.wakeUps).to.be.below(250);
  });

  it('one slow wake-up (the process waited for a CPU) does not widen the window: the shortest of the last five counts (negative control: five slow ones in a row do)', async () => {
    const once = await drive('auto', (k) => (k === 6 ? 200 : 10));
    expect(Math.max(...once.windows)).to.equal(5);
    const sustained = await drive('auto', (k) => (k >= 6 && k < 11 ? 200 : 10));
    expect(Math.max(...sustained.windows)).to.equal(autoMaxMs);
  });
});

const delta = (k: number): StreamEvent => ({
  type: 'stream/tool-call-delta',
  attemptId: 'a',
  block: 0,
  callId: 'a:0',
  args: `<${k}>`,
});

/** `n` listening queues reading one feed; what each listener was handed. */
function readers(feed: SharedFeed<FollowerQueue>, n: number) {
  const batches: (readonly CallfoldEvent[])[][] = [];
  for (let i = 0; i < n; i++) {
    const got: (readonly CallfoldEvent[])[] = [];
    batches.push(got);
    const queue = new FollowerQueue(() => feed.delete(queue));
    queue.read(feed);
    feed.add(queue);
    queue.listen({ batch: (events) => got.push(events), end: () => {} });
  }
  return batches;
}

describe('SharedFeed: one copy of the events for all followers of a session', () => {
  it('1,000 followers woken together are handed the same array (negative control: queues pushed one by one get 1,000 arrays)', async () => {
    const clock = new DrivenClock();
    const pacer = new FanOutPacer(50, clock);
    const feed = new SharedFeed<FollowerQueue>(pacer);
    const got = readers(feed, 1000);
    await settle();
    feed.append([delta(0)]);
    await clock.runUntil(10);
    for (let k = 1; k < 40; k++) feed.append([delta(k)]);
    await clock.runUntil(200);
    const last = new Set(got.map((batches) => batches.at(-1)));
    expect(last.size, 'distinct arrays handed out in the last wake-up').to.equal(1);
    expect([...last][0]?.length).to.equal(39);
    expect(pacer.wakeUps).to.equal(2);

    const queues = Array.from({ length: 1000 }, () => new FollowerQueue(() => {}));
    const handed: (readonly CallfoldEvent[])[] = [];
    for (const queue of queues) {
      queue.listen({ batch: (events) => handed.push(events), end: () => {} });
    }
    await settle();
    for (let k = 1; k < 40; k++) for (const queue of queues) queue.push(delta(k));
    expect(new Set(handed).size).to.equal(39_000);
  });

  it('a follower that joins takes only what is appended after it, after what was pushed to it first', async () => {
    const feed = new SharedFeed<FollowerQueue>();
    const [early] = readers(feed, 1);
    feed.append([delta(1), delta(2)]);
    const queue = new FollowerQueue(() => feed.delete(queue));
    queue.read(feed);
    feed.add(queue);
    queue.pushAll([delta(0)]);
    feed.append([delta(3)]);
    const seen: CallfoldEvent[] = [];
    queue.listen({ batch: (events) => seen.push(...events), end: () => {} });
    await settle();
    feed.append([delta(4)]);
    const args = (events: readonly CallfoldEvent[]) =>
      events.map((event) => (event as { args: string }).args).join('');
    expect(args(seen)).to.equal('<0><3><4>');
    expect(args((early ?? []).flat())).to.equal('<1><2><3><4>');
  });

  it('keeps nothing every follower has taken, and nothing without followers', async () => {
    const feed = new SharedFeed<FollowerQueue>();
    feed.append([delta(0)]);
    expect(feed.slice(feed.end)).to.deep.equal([]);
    readers(feed, 3);
    await settle();
    for (let k = 1; k <= 100; k++) feed.append([delta(k)]);
    // Every listener took everything at each append (no pacer): nothing is held.
    expect(feed.slice(feed.end - 100)).to.deep.equal([]);
  });
});

describe('FanOutPacer slices: a wake-up of many followers wakes sliceSize of them per task', () => {
  /**
   * 1,000 listening readers of a feed; one event starts a wake-up (the leading edge, on a
   * microtask), a second is appended after its first task, before the rest of it runs.
   */
  async function midWakeUp(sliceSize: number) {
    const clock = new DrivenClock();
    const pacer = new FanOutPacer(50, clock, { sliceSize });
    const feed = new SharedFeed<FollowerQueue>(pacer);
    const got = readers(feed, 1000);
    await settle();
    feed.append([delta(0)]);
    await settle();
    const slicesAfterFirstTask = pacer.slices;
    feed.append([delta(1)]);
    // The rest of the wake-up (tasks at the same time), not the window after it.
    await clock.runUntil(0);
    return { got, pacer, feed, clock, slicesAfterFirstTask };
  }
  const args = (events: readonly CallfoldEvent[] | undefined) =>
    (events ?? []).map((event) => (event as { args: string }).args).join('');

  it('an event appended between two slices reaches the followers woken after it, in the same wake-up (negative control: sliceSize Infinity wakes all 1,000 in one task: none of them gets it)', async () => {
    const sliced = await midWakeUp(64);
    expect(sliced.slicesAfterFirstTask).to.equal(1);
    expect(sliced.pacer.wakeUps).to.equal(1);
    expect(sliced.pacer.slices, 'tasks of the wake-up: ceil(1000 / 64)').to.equal(16);
    expect(sliced.got.slice(0, 64).every((b) => b.length === 1 && args(b[0]) === '<0>')).to.equal(
      true,
    );
    expect(sliced.got.slice(64).every((b) => b.length === 1 && args(b[0]) === '<0><1>')).to.equal(
      true,
    );
    // The next wake-up, after the window, takes the first slice's readers up to the end.
    await sliced.clock.runUntil(200);
    expect(sliced.pacer.wakeUps).to.equal(2);
    for (const batches of sliced.got) expect(args(batches.flat())).to.equal('<0><1>');
    expect(sliced.feed.slice(sliced.feed.end - 2), 'taken by all: dropped').to.deep.equal([]);

    const whole = await midWakeUp(Number.POSITIVE_INFINITY);
    expect(whole.pacer.slices).to.equal(1);
    expect(whole.got.every((b) => b.length === 1 && args(b[0]) === '<0>')).to.equal(true);
  });

  it('a reader removed during a wake-up is not woken again, one added waits for the next wake-up (negative control: the reader left in is woken)', async () => {
    const clock = new DrivenClock();
    const pacer = new FanOutPacer(50, clock, { sliceSize: 10 });
    const feed = new SharedFeed<FollowerQueue>(pacer);
    const got = readers(feed, 30);
    await settle();
    feed.append([delta(0)]);
    await settle();
    const [late] = [...feed.readers].slice(25, 26);
    late?.cancel(); // removed before its slice
    const kept = [...feed.readers][24];
    const joined = readers(feed, 1);
    await clock.runUntil(0);
    expect(got[25], 'removed before its slice').to.deep.equal([]);
    expect(got[24]?.length, 'the negative control: left in').to.equal(1);
    expect(kept?.cursor).to.equal(feed.end);
    expect(joined[0], 'joined after the event').to.deep.equal([]);
    feed.append([delta(1)]);
    await clock.runUntil(200);
    expect(args(joined[0]?.flat())).to.equal('<1>');
  });

  it('stop() wakes the rest of a wake-up in progress at once (negative control: without it, the rest waits for the next task)', async () => {
    for (const stop of [true, false]) {
      const clock = new DrivenClock();
      const pacer = new FanOutPacer(50, clock, { sliceSize: 100 });
      const feed = new SharedFeed<FollowerQueue>(pacer);
      const got = readers(feed, 1000);
      await settle();
      feed.append([delta(0)]);
      await settle();
      if (stop) pacer.stop();
      const woken = got.filter((batches) => batches.length > 0).length;
      expect(woken).to.equal(stop ? 1000 : 100);
    }
  });
});

describe('FanOutPacer slices: how long an event waits, in wake-ups', () => {
  /**
   * 1,000 listening readers of a feed on the driven clock, each write to one costing
   * 0.015 ms (a wake-up of all of them: 15 ms, as on the bench machine); an event every
   * 0.5 ms for 1 s, appended when due or, if a task of the fan-out holds the clock past that,
   * right after it (the producer runs between tasks). The longest wait from an event's due
   * time to a follower's write of it, and the window in force.
   */
  async function longestWait(sliceSize: number) {
    const clock = new DrivenClock();
    const pacer = new FanOutPacer('auto', clock, { sliceSize });
    const feed = new SharedFeed<FollowerQueue>(pacer);
    const due = new Map<CallfoldEvent, number>();
    let longest = 0;
    for (let i = 0; i < 1000; i++) {
      const queue = new FollowerQueue(() => feed.delete(queue));
      queue.read(feed);
      feed.add(queue);
      queue.listen({
        batch: (events) => {
          clock.time += 0.015;
          for (const event of events) {
            longest = Math.max(longest, clock.time - (due.get(event) as number));
          }
        },
        end: () => {},
      });
    }
    await settle();
    for (let k = 0; k < 2000; k++) {
      const at = k * 0.5;
      await clock.runUntil(at);
      const event = delta(k);
      due.set(event, at);
      feed.append([event]);
      await settle();
    }
    await clock.runUntil(2000);
    return { longest, window: pacer.window };
  }

  it('an event waits at most about one window and one wake-up (negative control: sliceSize Infinity, about one window and two wake-ups)', async () => {
    const sliced = await longestWait(64);
    const whole = await longestWait(Number.POSITIVE_INFINITY);
    // Both pace with 'auto': a window of at most half a wake-up, 7.5 ms (a sliced wake-up can
    // be shorter: the followers it reached late took some of its events in the one before).
    expect(sliced.window).to.be.within(2.5, 8);
    expect(whole.window).to.be.closeTo(7.5, 0.5);
    expect(sliced.longest, 'window + wake-up + a slice').to.be.at.most(7.5 + 15 + 3);
    expect(whole.longest, 'window + two wake-ups').to.be.at.least(7.5 + 2 * 15 - 3);
  });
});
