/**
 * Memory after long runs, counted rather than weighed (so it cannot flake): what the fold
 * keeps per settled attempt. Bytes per attempt, with forced GC, are in `npm run bench:memory`.
 */
import { expect } from 'chai';
import type { Match } from '../../src/assembler/match.js';
import { Times } from '../../src/assembler/times.js';
import type { CallfoldEvent } from '../../src/events/types.js';
import { describe, it } from '../harness.js';

const STEP = 1024;
const delta = (attemptId: string): CallfoldEvent => ({
  type: 'stream/tool-call-delta',
  attemptId,
  block: 0,
  callId: `${attemptId}:0`,
  args: 'x',
});
const at = (event: CallfoldEvent, location: number): Match => ({ event, role: 'update', location });

describe('memory after long runs', () => {
  // Failed before: 128,000 runs kept for the Assembler’s life.
  it('keeps no stream-time runs for 2,000 settled attempts of 64 clock ticks each', () => {
    const times = new Times();
    let location = 0;
    let clock = 0;
    for (let attempt = 0; attempt < 2000; attempt++) {
      const attemptId = `a${attempt}`;
      for (let i = 0; i < 64; i++) times.live((location += STEP), ++clock, attemptId);
      expect(times.runs).to.equal(64);
      times.withdraw(attemptId);
    }
    expect(times.runs).to.equal(0);
  });

  it('keeps the runs of attempts still live, with their times exact, when another settles', () => {
    const times = new Times();
    const a = delta('A');
    const b = delta('B');
    // A at 1–3, B at 4–6 (ticks 10, 20, 30 / 40, 50, 60), A again at 7 (tick 60: same run).
    const schedule: [CallfoldEvent, number, number][] = [
      [a, 1, 10],
      [a, 2, 20],
      [a, 3, 30],
      [b, 4, 40],
      [b, 5, 50],
      [b, 6, 60],
      [a, 7, 60],
      [a, 8, 70],
    ];
    for (const [event, place, tick] of schedule) {
      times.live(place * STEP, tick, (event as { attemptId: string }).attemptId);
    }
    times.withdraw('B');
    for (const [event, place, tick] of schedule) {
      if (event === a) expect(times.of(at(a, place * STEP)), `place ${place}`).to.equal(tick);
    }
    // B started after A: nothing before A's first run could go.
    expect(times.runs).to.equal(7);
    times.withdraw('A');
    expect(times.runs).to.equal(0);
  });

  it('drops the runs before the earliest live attempt when an earlier one settles', () => {
    const times = new Times();
    for (let place = 1; place <= 100; place++) times.live(place * STEP, place, 'old');
    times.live(101 * STEP, 101, 'new');
    times.live(102 * STEP, 101, 'old');
    times.live(103 * STEP, 103, 'new');
    times.withdraw('old');
    expect(times.runs).to.equal(2);
    expect(times.of(at(delta('new'), 101 * STEP))).to.equal(101);
    expect(times.of(at(delta('new'), 103 * STEP))).to.equal(103);
    times.withdrawAll();
    expect(times.runs).to.equal(0);
  });
});
