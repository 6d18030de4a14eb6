/**
 * A store takes a batch of any length: appending 200,000 durable events in one call, holding
 * a live attempt of 200,000 stream events for a follower's replay, and `appendRuns` over such
 * a batch. Each copied its batch with `push(...items)`, which passes every item on the stack
 * and throws `RangeError` from about 120,000 items in V8. Node only (the limit is the
 * runtime's stack size).
 *
 * The followers read a batch at a time (`readAll`). Taken one event at a time, 200,000
 * events cost 3.7–4.9 s of CPU inside a node:test test against 0.43 s outside one (Node 20;
 * an async hook with a `destroy` callback, enabled outside a test, costs the same 3.4 s: the
 * runner's tracking of async resources weighs on every promise). The file took 13 s of CPU
 * alone that way, and 103 s of wall time in a whole `npm test` run.
 */
import { expect } from 'chai';
import type { CallfoldEvent, StreamEvent } from '../../src/events/types.js';
import { appendRuns } from '../../src/server/append-runs.js';
import { memoryStore } from '../../src/server/memory-store.js';
import { isBatchedFollow, type UnnumberedEvent } from '../../src/server/session-store.js';
import { describe, it } from '../harness.js';

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

/** Reads `count` events from a follow, a batch at a time, then stops it. */
async function readAll(
  follow: AsyncIterable<CallfoldEvent>,
  count: number,
): Promise<CallfoldEvent[]> {
  if (!isBatchedFollow(follow)) throw new Error("the store's follow hands out no batches");
  const batches = follow.batches();
  const events: CallfoldEvent[] = [];
  try {
    while (events.length < count) {
      const next = await batches.next();
      if (next.done) break;
      for (const event of next.value) events.push(event);
    }
  } finally {
    await batches.return?.();
  }
  return events;
}

describe('stores take batches of any length', () => {
  // Failed before: RangeError in the log write.
  it('memoryStore appends 200,000 durable events in one call and a follower reads them all', async () => {
    const store = memoryStore();
    const numbered = await store.append('s', results());
    expect(numbered).to.have.length(N);
    expect(numbered.at(-1)?.seq).to.equal(N);
    const read = await readAll(store.follow('s', { after: 0 }), N);
    expect(read).to.have.length(N);
    expect((read.at(-1) as { seq: number }).seq).to.equal(N);
    await store.close();
  });

  // Failed before: RangeError in the replay.
  it('a follower joining a live attempt of 200,000 stream events gets its replay', async () => {
    const store = memoryStore();
    await store.live('s', deltas());
    const read = await readAll(store.follow('s', { after: 0 }), N);
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
