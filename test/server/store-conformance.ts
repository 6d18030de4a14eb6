/**
 * The SessionStore contract, run against every store (memory here and in Deno and Chromium;
 * file and Redis in its Node-only files, `*.node.test.ts`). Each test makes a fresh store through `make`.
 */
import { expect } from 'chai';
import type { CallfoldEvent, StreamEvent } from '../../src/events/types.js';
import type { SessionStore, UnnumberedEvent } from '../../src/server/session-store.js';
import { describe, it } from '../harness.js';
import { DrivenClock } from '../support/driven-clock.js';
import { waitFor } from '../support/wait-for.js';

export interface StoreFixture {
  readonly store: SessionStore;
  /**
   * Lets `ms` pass for the store's retention: by default advances the `clock` it was made
   * with; a store whose expiry another clock keeps (Redis) moves that one too.
   */
  elapse?(ms: number): Promise<void>;
  /** Closes the store and removes what it made. */
  dispose(): Promise<void>;
}

export interface MakeStoreOptions {
  readonly leaseMs?: number;
  readonly ttlMs?: number;
  /** The clock of leases and retention (a `DrivenClock` in the retention tests). */
  readonly clock?: DrivenClock;
}

export type MakeStore = (options: MakeStoreOptions) => Promise<StoreFixture>;

/** The retention scenario's ttl: long against the wall-clock seconds a test takes. */
const RETENTION_TTL_MS = 600_000;

const result = (callId: string): UnnumberedEvent => ({
  type: 'tool/result',
  callId,
  output: `out ${callId}`,
});
const delta = (attemptId: string, args: string, callId = `${attemptId}:0`): StreamEvent => ({
  type: 'stream/tool-call-delta',
  attemptId,
  block: 0,
  callId,
  name: 'Write',
  args,
});
const settle = (attemptId: string): StreamEvent => ({ type: 'stream/settle', attemptId });

/**
 * Reads a follow until `done` says so, then stops it; `events` fills as they come, so a test
 * can wait for the follow's progress before its next write. `timeoutMs` only turns a hang into
 * a failure that shows what arrived: no verdict depends on it.
 */
export function follower(
  follow: AsyncIterable<CallfoldEvent>,
  done: (events: readonly CallfoldEvent[]) => boolean,
  timeoutMs = 60_000,
): { readonly events: readonly CallfoldEvent[]; readonly finished: Promise<CallfoldEvent[]> } {
  const events: CallfoldEvent[] = [];
  const finished = (async () => {
    const iterator = follow[Symbol.asyncIterator]();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`follow: timed out with ${JSON.stringify(events).slice(0, 400)}`)),
        timeoutMs,
      );
    });
    try {
      while (!done(events)) {
        const next = await Promise.race([iterator.next(), timeout]);
        if (next.done) break;
        events.push(next.value);
      }
    } finally {
      clearTimeout(timer);
      void iterator.return?.();
    }
    return events;
  })();
  return { events, finished };
}

/** Reads a follow until `done` says so, then stops it (see `follower`). */
export function collect(
  follow: AsyncIterable<CallfoldEvent>,
  done: (events: readonly CallfoldEvent[]) => boolean,
  timeoutMs = 60_000,
): Promise<CallfoldEvent[]> {
  return follower(follow, done, timeoutMs).finished;
}

export const seqs = (events: readonly CallfoldEvent[]) =>
  events.flatMap((event) => ('seq' in event ? [event.seq] : []));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function storeConformance(name: string, make: MakeStore): void {
  describe(`${name}: the SessionStore contract`, () => {
    async function withStore(
      body: (store: SessionStore) => Promise<void>,
      options: MakeStoreOptions = {},
    ) {
      const fixture = await make(options);
      try {
        await body(fixture.store);
      } finally {
        await fixture.dispose();
      }
    }

    it('append numbers events from 1 without gaps, stamps at, and returns them as kept', () =>
      withStore(async (store) => {
        const before = Date.now();
        const first = await store.append('s1', [result('a'), result('b')]);
        const second = await store.append('s1', [{ type: 'turn/end', turnId: 't' }]);
        expect(seqs([...first, ...second])).to.deep.equal([1, 2, 3]);
        expect(first[0]).to.include({ type: 'tool/result', callId: 'a', output: 'out a' });
        expect(first[0]?.at).to.be.within(before, Date.now());
        expect(await store.page('s1', { limit: 10 })).to.deep.equal([...first, ...second]);
        expect(await store.page('other', { limit: 10 })).to.deep.equal([]);
      }));

    it('concurrent appends get strictly increasing seqs with no gap', () =>
      withStore(async (store) => {
        const batches = await Promise.all(
          Array.from({ length: 40 }, (_, i) =>
            store.append('s', [result(`c${i}a`), result(`c${i}b`)]),
          ),
        );
        const all = batches.flat();
        const expected = Array.from({ length: 80 }, (_, i) => i + 1);
        expect([...seqs(all)].sort((a, b) => a - b)).to.deep.equal(expected);
        for (const batch of batches) {
          expect((batch[1]?.seq ?? 0) - (batch[0]?.seq ?? 0)).to.equal(1);
        }
        expect(seqs(await store.page('s', { limit: 1000 }))).to.deep.equal(expected);
      }));

    it('an invalid batch is rejected whole and takes no number', () =>
      withStore(async (store) => {
        await store.append('s', [result('a')]);
        const bad = { type: 'tool/result', output: 1 } as unknown as UnnumberedEvent;
        let error: unknown;
        await store.append('s', [result('b'), bad]).catch((caught: unknown) => {
          error = caught;
        });
        expect(error).to.be.instanceOf(Error);
        const [next] = await store.append('s', [result('c')]);
        expect(next?.seq).to.equal(2);
        const kept = await store.page('s', { limit: 10 });
        expect(kept.map((e) => e.type === 'tool/result' && e.callId)).to.deep.equal(['a', 'c']);
      }));

    it('pages hold the newest events before `before`, ascending', () =>
      withStore(async (store) => {
        await store.append(
          's',
          Array.from({ length: 25 }, (_, i) => result(`c${i + 1}`)),
        );
        const range = (from: number, count: number) =>
          Array.from({ length: count }, (_, i) => from + i);
        expect(seqs(await store.page('s', { limit: 10 }))).to.deep.equal(range(16, 10));
        expect(seqs(await store.page('s', { before: 16, limit: 10 }))).to.deep.equal(range(6, 10));
        expect(seqs(await store.page('s', { before: 6, limit: 10 }))).to.deep.equal(range(1, 5));
        expect(await store.page('s', { before: 1, limit: 10 })).to.deep.equal([]);
        expect(await store.page('s', { limit: 0 })).to.deep.equal([]);
      }));

    it('session ids that could name another path or key are refused', () =>
      withStore(async (store) => {
        for (const id of ['', '..', '../x', 'a/b', 'a\\b', '.hidden', 'x'.repeat(129), 'a\0b']) {
          let error: unknown;
          await store.append(id, [result('a')]).catch((caught: unknown) => {
            error = caught;
          });
          expect(error, JSON.stringify(id)).to.be.instanceOf(RangeError);
          error = undefined;
          await store.page(id, { limit: 1 }).catch((caught: unknown) => {
            error = caught;
          });
          expect(error, JSON.stringify(id)).to.be.instanceOf(RangeError);
        }
      }));

    it('follow gives the backlog after `after`, the live replay, then new events in order', () =>
      withStore(async (store) => {
        await store.append('s', [result('a'), result('b'), result('c')]);
        await store.live('s', [delta('x', '{"file_path"'), delta('x', ':"a"')]);
        const reading = follower(store.follow('s', { after: 1 }), (events) => events.length >= 7);
        // The backlog and the replay have arrived: the rest comes live.
        await waitFor(() => reading.events.length >= 4, 'the backlog and the replay');
        await store.live('s', [delta('x', '}')]);
        await store.append('s', [
          { type: 'tool/call', callId: 'x:0', name: 'Write', args: '{"file_path":"a"}' },
        ]);
        await store.live('s', [settle('x')]);
        const events = await reading.finished;
        expect(events.map((e) => e.type)).to.deep.equal([
          'tool/result',
          'tool/result',
          'stream/tool-call-delta',
          'stream/tool-call-delta',
          'stream/tool-call-delta',
          'tool/call',
          'stream/settle',
        ]);
        expect(seqs(events)).to.deep.equal([2, 3, 4]);
      }));

    it('a settled attempt is not replayed, and its late events are refused and never delivered', () =>
      withStore(async (store) => {
        await store.live('s', [delta('x', '{'), delta('y', '{')]);
        await store.live('s', [settle('x')]);
        let error: unknown;
        await store.live('s', [delta('x', '"late"')]).catch((caught: unknown) => {
          error = caught;
        });
        expect(String(error)).to.match(/already settled/);
        await store.append('s', [result('end')]);
        const events = await collect(store.follow('s', { after: 0 }), (got) => got.length >= 2);
        expect(
          events.map((e) => ('attemptId' in e ? `${e.type} ${e.attemptId}` : e.type)),
        ).to.deep.equal(['tool/result', 'stream/tool-call-delta y']);
      }));

    it('followers joining while events are appended miss nothing and see nothing twice', () =>
      withStore(async (store) => {
        const total = 120;
        const followers: { after: number; events: Promise<CallfoldEvent[]> }[] = [];
        for (let i = 0; i < total; i++) {
          await store.append('s', [result(`c${i}`)]);
          if (i % 15 === 0) {
            const after = i % 30 === 0 ? 0 : i;
            const events = collect(store.follow('s', { after }), (got) =>
              seqs(got).includes(total),
            );
            followers.push({ after, events });
          }
          if (i % 7 === 0) await sleep(0);
        }
        for (const { after, events } of followers) {
          expect(seqs(await events)).to.deep.equal(
            Array.from({ length: total - after }, (_, k) => after + k + 1),
          );
        }
      }));

    it('an attempt whose producer stops writing is settled for every follower by its lease', () =>
      withStore(
        async (store) => {
          const following = collect(store.follow('s', { after: 0 }), (got) =>
            got.some((e) => e.type === 'stream/settle'),
          );
          await store.live('s', [delta('dead', '{')]);
          // Nothing but the lease can settle it. How soon is bench:server's to measure.
          const events = await following;
          expect(events.at(-1)).to.deep.equal(settle('dead'));
          // A replay snapshots every live attempt at once: the attempt that is live now comes,
          // the settled one does not.
          await store.live('s', [delta('alive', '{')]);
          const replay = await collect(store.follow('s', { after: 0 }), (got) =>
            got.some((e) => 'attemptId' in e && e.attemptId === 'alive'),
          );
          expect(replay).to.deep.equal([delta('alive', '{')]);
        },
        { leaseMs: 300 },
      ));

    it('renewing a lease keeps the attempt live past it', () =>
      withStore(
        async (store) => {
          // Renewals every lease/6 for two leases. A host that stalls past a lease between two
          // renewals breaks the premise, not the store: the attempt is started over then, so
          // the verdict never depends on the machine's speed.
          const leaseMs = 300;
          for (let attempt = 0; ; attempt++) {
            const id = `slow${attempt}`;
            await store.live('s', [delta(id, '{')]);
            let last = Date.now();
            const started = last;
            let stalled = false;
            while (Date.now() - started < 2 * leaseMs) {
              await sleep(leaseMs / 6);
              await store.renew('s', [id]);
              const now = Date.now();
              if (now - last > leaseMs / 2) stalled = true;
              last = now;
            }
            // A write of an attempt its lease settled is refused.
            const kept = await store.live('s', [delta(id, '}')]).then(
              () => true,
              () => false,
            );
            if (!kept && stalled && attempt < 20) continue;
            expect(kept, 'the attempt is still live after two leases').to.equal(true);
            const replay = await collect(
              store.follow('s', { after: 0 }),
              (got) => got.filter((e) => 'attemptId' in e && e.attemptId === id).length >= 2,
            );
            expect(replay.filter((e) => 'attemptId' in e && e.attemptId === id)).to.deep.equal([
              delta(id, '{'),
              delta(id, '}'),
            ]);
            break;
          }
        },
        { leaseMs: 300 },
      ));

    it('a follow ends when its signal aborts', () =>
      withStore(async (store) => {
        const controller = new AbortController();
        const iterator = store
          .follow('s', { after: 0, signal: controller.signal })
          [Symbol.asyncIterator]();
        const next = iterator.next();
        controller.abort();
        expect((await next).done).to.equal(true);
      }));

    /**
     * Three sessions, `ttlMs` on a driven clock: `idle` is written once, `busy` again after
     * 0.6 ttl, `watched` has a follower throughout; 1.2 ttl pass. Returns the seqs each one's
     * page holds then. Redis also counts its keys' TTLs down by the wall clock while the test
     * runs: the ttl is ten minutes, so that the seconds a slow machine takes are far within
     * every margin (0.4 ttl for `busy`) instead of eating them (a ttl of 1 s expired `busy`
     * on a machine with both cores busy).
     */
    async function retentionScenario(ttlMs: number | undefined) {
      const ttl = ttlMs ?? RETENTION_TTL_MS;
      const clock = new DrivenClock();
      const fixture = await make(ttlMs === undefined ? { clock } : { ttlMs, clock });
      const { store } = fixture;
      const elapse = (ms: number) => fixture.elapse?.(ms) ?? clock.advance(ms);
      try {
        await store.append('idle', [result('i')]);
        await store.append('busy', [result('b1')]);
        await store.append('watched', [result('w1')]);
        const watching = follower(store.follow('watched', { after: 0 }), (got) =>
          seqs(got).includes(2),
        );
        await waitFor(() => watching.events.length >= 1, 'the follower holds the backlog');
        await elapse(0.6 * ttl);
        await store.append('busy', [result('b2')]);
        await elapse(0.6 * ttl);
        const kept = {
          idle: seqs(await store.page('idle', { limit: 10 })),
          busy: seqs(await store.page('busy', { limit: 10 })),
          watched: seqs(await store.page('watched', { limit: 10 })),
        };
        await store.append('watched', [result('w2')]);
        await watching.finished;
        return kept;
      } finally {
        await fixture.dispose();
      }
    }

    it('ttlMs deletes a session idle that long and keeps one written to or followed within it (negative control: retention off keeps the idle one)', async () => {
      expect(await retentionScenario(RETENTION_TTL_MS)).to.deep.equal({
        idle: [],
        busy: [1, 2],
        watched: [1],
      });
      const off = await retentionScenario(undefined);
      expect(off.idle, 'without ttlMs the idle session stays').to.deep.equal([1]);
    });

    it('a session expired by ttlMs begins a new life: seq from 1, a new life token', async () => {
      const clock = new DrivenClock();
      const fixture = await make({ ttlMs: 1000, clock });
      const { store } = fixture;
      try {
        await store.append('s', [result('a'), result('b')]);
        const earlier = await store.life('s');
        await (fixture.elapse?.(1500) ?? clock.advance(1500));
        expect(await store.page('s', { limit: 10 })).to.deep.equal([]);
        const [first] = await store.append('s', [result('c')]);
        expect(first?.seq).to.equal(1);
        expect(await store.life('s')).not.to.equal(earlier);
      } finally {
        await fixture.dispose();
      }
    });

    it('delete removes the session, ends its followers, and the id begins a new life at seq 1', () =>
      withStore(async (store) => {
        await store.append('s', [result('a'), result('b')]);
        await store.live('s', [delta('x', '{')]);
        const earlier = await store.life('s');
        expect(await store.life('s')).to.equal(earlier);
        const reading = follower(store.follow('s', { after: 0 }), () => false);
        await waitFor(() => reading.events.length >= 3, 'the backlog and the replay');
        await store.delete('s');
        // The follow ends by itself: `done` never says so.
        expect(seqs(await reading.finished)).to.deep.equal([1, 2]);
        expect(await store.page('s', { limit: 10 })).to.deep.equal([]);
        const [first] = await store.append('s', [result('c')]);
        expect(first?.seq).to.equal(1);
        const now = await store.life('s');
        expect(now).not.to.equal(earlier);
        // Nothing of the earlier life is replayed, and a follow that expects it ends empty.
        const replay = await collect(store.follow('s', { after: 0 }), (got) => got.length >= 1);
        expect(replay.map((e) => e.type)).to.deep.equal(['tool/result']);
        const stale = await collect(store.follow('s', { after: 0, life: earlier }), () => false);
        expect(stale).to.deep.equal([]);
        await store.delete('never-used');
      }));

    it('metrics() counts the open follows and the leases that ran out', () =>
      withStore(
        async (store) => {
          expect(store.metrics()).to.deep.include({ followers: 0, leasesExpired: 0, feedTrims: 0 });
          const follows = [store.follow('m', { after: 0 }), store.follow('m', { after: 0 })];
          const iterators = follows.map((follow) => follow[Symbol.asyncIterator]());
          expect(store.metrics().followers).to.equal(2);
          const first = iterators.map((iterator) => iterator.next());
          await store.live('m', [delta('dies', '{')]);
          await Promise.all(first);
          // Nothing but the lease settles it; the settle reaches the followers.
          const settles = await Promise.all(iterators.map((iterator) => iterator.next()));
          expect(settles.map((next) => next.value)).to.deep.equal([settle('dies'), settle('dies')]);
          await waitFor(() => store.metrics().leasesExpired === 1, 'the sweep to be counted');
          await Promise.all(iterators.map((iterator) => iterator.return?.()));
          expect(store.metrics()).to.deep.include({ followers: 0, leasesExpired: 1 });
        },
        { leaseMs: 300 },
      ));
  });
}
