import { expect } from 'chai';
import { type SchedulerAction, type SchedulerLike, Subscription } from 'rxjs';
import { replayTranscript } from '../../src/client/replay.js';
import type { TranscriptEntry } from '../../src/wire/transcript.js';
import { describe, it } from '../harness.js';

/** A virtual-time scheduler that records every delay asked of it, rescheduling included. */
class RecordingScheduler implements SchedulerLike {
  time = 0;
  readonly delays: number[] = [];
  #queue: { due: number; run: () => void }[] = [];

  now(): number {
    return this.time;
  }

  schedule<T>(
    work: (this: SchedulerAction<T>, state?: T) => void,
    delay = 0,
    state?: T,
  ): Subscription {
    const scheduler = this;
    const action = Object.assign(new Subscription(), {
      schedule(next?: T, nextDelay = 0): Subscription {
        scheduler.#enqueue(nextDelay, () => work.call(action, next));
        return action;
      },
    }) as SchedulerAction<T>;
    this.#enqueue(delay, () => work.call(action, state));
    return action;
  }

  /** Runs due work in time order; at most `limit` timers (a bounded loop). */
  run(limit: number): number {
    let runs = 0;
    while (this.#queue.length > 0 && runs < limit) {
      this.#queue.sort((a, b) => a.due - b.due);
      const next = this.#queue.shift() as { due: number; run: () => void };
      this.time = next.due;
      next.run();
      runs++;
    }
    return runs;
  }

  #enqueue(delay: number, run: () => void): void {
    this.delays.push(delay);
    this.#queue.push({ due: this.time + delay, run });
  }
}

const entry = (at: number, seq: number): TranscriptEntry => ({
  at,
  event: { type: 'turn/start', seq, turnId: `t${seq}` },
});

describe('replayTranscript with far-off entries', () => {
  // Failed before: the delay overflowed.
  it('waits past 2^31−1 ms in chained timers of at most that length', () => {
    const scheduler = new RecordingScheduler();
    const seen: [number, number][] = [];
    replayTranscript([entry(0, 1), entry(2 ** 32, 2), entry(2 ** 33 + 5, 3)], {
      scheduler,
    }).subscribe((event) => seen.push([(event as { seq: number }).seq, scheduler.now()]));
    const runs = scheduler.run(50);
    expect(seen).to.deep.equal([
      [1, 0],
      [2, 2 ** 32],
      [3, 2 ** 33 + 5],
    ]);
    expect(Math.max(...scheduler.delays)).to.equal(2 ** 31 - 1);
    // 2^33 + 5 ms in steps of at most 2^31 − 1: five timers, plus the first at 0.
    expect(runs).to.be.at.most(8);
  });
});
