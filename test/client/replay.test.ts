import { expect } from 'chai';
import fc from 'fast-check';
import { type SchedulerLike, Subject, take, VirtualTimeScheduler } from 'rxjs';
import { recordTranscript } from '../../src/client/record.js';
import { replayTranscript } from '../../src/client/replay.js';
import type { CallfoldEvent } from '../../src/events/types.js';
import { EventError } from '../../src/events/validate.js';
import {
  decodeTranscript,
  encodeTranscript,
  type TranscriptEntry,
} from '../../src/wire/transcript.js';
import { entries, event } from '../events/arbitraries.js';
import { describe, it } from '../harness.js';

const settle = (attemptId: string): CallfoldEvent => ({ type: 'stream/settle', attemptId });
const entry = (at: number, id: string): TranscriptEntry => ({ at, event: settle(id) });
const id = (e: CallfoldEvent) => (e.type === 'stream/settle' ? e.attemptId : e.type);

/** Replays on a virtual clock started at `origin`; returns [frame, attemptId] per event and whether it completed. */
function replay(list: Iterable<TranscriptEntry>, speed?: number, origin = 0) {
  const scheduler = new VirtualTimeScheduler();
  scheduler.frame = origin;
  const emitted: [number, CallfoldEvent][] = [];
  let completedAt: number | undefined;
  const options = speed === undefined ? { scheduler } : { scheduler, speed };
  scheduler.schedule(() => {
    replayTranscript(list, options).subscribe({
      next: (e) => emitted.push([scheduler.frame, e]),
      complete: () => (completedAt = scheduler.frame),
    });
  }, 0);
  scheduler.flush();
  return { emitted, completedAt, scheduler };
}

describe('replayTranscript', () => {
  it('emits each event at its time, entries due together in one task', () => {
    const list = [entry(0, 'a'), entry(10, 'b'), entry(10, 'c'), entry(25.5, 'd')];
    const { emitted, completedAt } = replay(list);
    expect(emitted.map(([frame, e]) => [frame, id(e)])).to.deep.equal([
      [0, 'a'],
      [10, 'b'],
      [10, 'c'],
      [25.5, 'd'],
    ]);
    expect(completedAt).to.equal(25.5);
  });

  it('divides times by the speed factor, for any transcript', () => {
    fc.assert(
      fc.property(
        entries,
        fc.constantFrom(0.25, 0.5, 1, 3, 1000),
        fc.nat({ max: 1e6 }),
        (list, speed, origin) => {
          const { emitted, scheduler } = replay(list, speed, origin);
          expect(emitted.map(([, e]) => e)).to.deep.equal(list.map((e) => e.event));
          emitted.forEach(([frame], i) => {
            const due = origin + (list[i] as TranscriptEntry).at / speed;
            expect(frame).to.be.closeTo(due, Math.abs(due) * 1e-12);
          });
          expect(scheduler.actions).to.have.length(0);
        },
      ),
    );
  });

  it('emits everything synchronously at speed 0 or Infinity', () => {
    for (const speed of [0, Number.POSITIVE_INFINITY]) {
      const scheduler = new VirtualTimeScheduler();
      const out: string[] = [];
      let completed = false;
      replayTranscript([entry(0, 'a'), entry(1e9, 'b')], { speed, scheduler }).subscribe({
        next: (e) => out.push(id(e)),
        complete: () => (completed = true),
      });
      expect(out).to.deep.equal(['a', 'b']);
      expect(completed).to.equal(true);
      expect(scheduler.actions).to.have.length(0);
    }
  });

  it('refuses a negative or NaN speed', () => {
    for (const speed of [-1, Number.NaN]) {
      expect(() => replayTranscript([], { speed })).to.throw(RangeError);
    }
  });

  it('emits an entry that goes back in time right after its predecessor', () => {
    const { emitted } = replay([entry(5, 'a'), entry(3, 'b'), entry(8, 'c')], 1);
    expect(emitted.map(([frame, e]) => [frame, id(e)])).to.deep.equal([
      [5, 'a'],
      [5, 'b'],
      [8, 'c'],
    ]);
  });

  it('iterates lazily, once per subscription, and stops iterating when unsubscribed', () => {
    let pulled = 0;
    let returned = false;
    function* generate() {
      try {
        for (let i = 0; ; i++) {
          pulled++;
          yield entry(i * 10, String(i));
        }
      } finally {
        returned = true;
      }
    }
    const scheduler = new VirtualTimeScheduler();
    const out: string[] = [];
    replayTranscript(generate(), { scheduler })
      .pipe(take(3))
      .subscribe((e) => out.push(id(e)));
    scheduler.flush();
    expect(out).to.deep.equal(['0', '1', '2']);
    expect(pulled).to.equal(3);
    expect(returned).to.equal(true);
    expect(scheduler.actions).to.have.length(0);
  });

  it('passes on an error thrown by the iterator', () => {
    function* generate(): Generator<TranscriptEntry> {
      yield entry(0, 'a');
      throw new Error('broken');
    }
    let error: unknown;
    replayTranscript(generate(), { speed: 0 }).subscribe({ error: (e: unknown) => (error = e) });
    expect((error as Error).message).to.equal('broken');
  });
});

describe('recordTranscript', () => {
  it('stamps events with the time since the first one', () => {
    const scheduler = new VirtualTimeScheduler();
    scheduler.frame = 1000;
    const input = new Subject<CallfoldEvent>();
    const out: TranscriptEntry[] = [];
    input.pipe(recordTranscript({ scheduler })).subscribe((e) => out.push(e));
    scheduler.schedule(() => input.next(settle('a')), 5);
    scheduler.schedule(() => input.next(settle('b')), 5);
    scheduler.schedule(() => input.next(settle('c')), 12.5);
    scheduler.flush();
    expect(out).to.deep.equal([entry(0, 'a'), entry(0, 'b'), entry(7.5, 'c')]);
  });

  it('never lets time decrease, whatever the clock does', () => {
    const times = [100, 90, 130, 120];
    const clock = { now: () => times.shift() ?? 0 } as unknown as SchedulerLike;
    const input = new Subject<CallfoldEvent>();
    const out: number[] = [];
    input.pipe(recordTranscript({ scheduler: clock })).subscribe((e) => out.push(e.at));
    for (const name of 'abcd') input.next(settle(name));
    expect(out).to.deep.equal([0, 0, 30, 30]);
  });

  it('fails with an EventError on an invalid event', () => {
    const input = new Subject<CallfoldEvent>();
    let error: unknown;
    input.pipe(recordTranscript()).subscribe({ error: (e: unknown) => (error = e) });
    input.next({ type: 'tool/call' } as CallfoldEvent);
    expect(error).to.be.instanceOf(EventError);
  });

  it('round-trips through JSONL and replay: same events at the same times', () => {
    const timed = fc.array(fc.tuple(fc.nat({ max: 5000 }), event), { minLength: 1, maxLength: 10 });
    fc.assert(
      fc.property(timed, fc.nat({ max: 1e6 }), (pairs, origin) => {
        const times = pairs.map(([t]) => origin + t).sort((a, b) => a - b);
        const recorder = new VirtualTimeScheduler();
        const input = new Subject<CallfoldEvent>();
        const recorded: TranscriptEntry[] = [];
        input.pipe(recordTranscript({ scheduler: recorder })).subscribe((e) => recorded.push(e));
        for (const [i, [, e]] of pairs.entries()) recorder.schedule(() => input.next(e), times[i]);
        recorder.flush();

        const decoded = decodeTranscript(encodeTranscript(recorded));
        const { emitted } = replay(decoded, 1, 42);
        expect(emitted.map(([, e]) => e)).to.deep.equal(pairs.map(([, e]) => e));
        expect(emitted.map(([frame]) => frame - 42)).to.deep.equal(
          times.map((t) => t - (times[0] as number)),
        );
      }),
    );
  });
});
