/**
 * A store takes a batch of any length: appending 200,000 durable events in one call, holding
 * a live attempt of 200,000 stream events for a follower's replay, and `appendRuns` over such
 * a batch. Each copied its batch with `push(...items)`, which passes every item on the stack
 * and throws `RangeError` from about 120,000 items in V8. Node only (the limit is the
 * runtime's stack size). Each case moves 200,000 events: 3–5 s of CPU alone on the 2-core
 * machine of 2026-12-06 (13 s for the file), most of it a follower taking the events one
 * at a time from `follow`; in a whole `npm test` run, with the cores shared, the file took
 * 103 s of wall time.
 */
import { expect } from 'chai';
import type { CallfoldEvent, StreamEvent } from '../../src/events/types.js';
import { appendRuns } from '../../src/server/append-runs.js';
import { memoryStore } from '../../src/server/memory-store.js';
import type { UnnumberedEvent } from '../../src/server/session-store.js';
import { describe, it } from '../harness.js';
import { collect } from './store-conformance.js';

const N = 200_000;
const results = (): UnnumberedEvent[] =>
  Array.from({ length: N }, (_, i) => ({ type: 'tool/result', callId: `c${i}`, output: 'ok' }));
const deltas = (): StreamEvent[] =>
  Array.from({ length: N }, () => ({
    type: 'stream/tool-call-delta',
    attemptId: 'a1',
    block: 0,
    callId: 'a1:0',
    name: 'Write',
    args: 'xxxxxxxxxxxxxxxx',
  }));

describe('stores take batches of any length', () => {
  // Failed before: RangeError in the log write.
  it('memoryStore appends 200,000 durable events in one call and a follower reads them all', async () => {
    const store = memoryStore();
    const numbered = await store.append('s', results());
    expect(numbered).to.have.length(N);
    expect(numbered.at(-1)?.seq).to.equal(N);
    const read = await collect(store.follow('s', { after: 0 }), (e) => e.length >= N, 60_000);
    expect(read).to.have.length(N);
    expect((read.at(-1) as { seq: number }).seq).to.equal(N);
    await store.close();
  });

  // Failed before: RangeError in the replay.
  it('a follower joining a live attempt of 200,000 stream events gets its replay', async () => {
    const store = memoryStore();
    await store.live('s', deltas());
    const read = await collect(store.follow('s', { after: 0 }), (e) => e.length >= N, 60_000);
    expect(read).to.have.length(N);
    expect(read.every((e) => e.type === 'stream/tool-call-delta')).to.equal(true);
    await store.close();
  });

  // Failed before: RangeError.
  it('appendRuns numbers a run of 200,000 durable events', async () => {
    const store = memoryStore();
    const events = results() as CallfoldEvent[];
    const numbered = await appendRuns(store, 's', events);
    expect(numbered).to.have.length(N);
    expect(numbered[N - 1]?.seq).to.equal(N);
    await store.close();
  });
});
