import { expect } from 'chai';
import type { CallfoldEvent, StreamEvent } from '../../src/events/types.js';
import { appendRuns } from '../../src/server/append-runs.js';
import { memoryStore } from '../../src/server/memory-store.js';
import type { SessionStore } from '../../src/server/session-store.js';
import { describe, it } from '../harness.js';

const result = (callId: string, seq = 99): CallfoldEvent =>
  ({ type: 'tool/result', callId, output: callId, seq, at: 1 }) as CallfoldEvent;
const delta = (args: string): StreamEvent => ({
  type: 'stream/tool-call-delta',
  attemptId: 'a',
  block: 0,
  callId: 'a:0',
  args,
});

/** The store, with every call it gets written down. */
function watched(store: SessionStore) {
  const calls: string[] = [];
  const wrapped: SessionStore = Object.assign(Object.create(store) as SessionStore, {
    append: (sessionId: string, events: Parameters<SessionStore['append']>[1]) => {
      calls.push(`append ${events.length}`);
      return store.append(sessionId, events);
    },
    live: (sessionId: string, events: readonly StreamEvent[]) => {
      calls.push(`live ${events.length}`);
      return store.live(sessionId, events);
    },
  });
  return { wrapped, calls };
}

describe('appendRuns', () => {
  it('writes each run of one family as one store call, in order; durable events renumbered by the store', async () => {
    const store = memoryStore({ fanOutMs: 0 });
    const { wrapped, calls } = watched(store);
    await store.append('s', [{ type: 'tool/result', callId: 'before', output: 'x' }]);
    const numbered = await appendRuns(wrapped, 's', [
      result('r1'),
      result('r2'),
      delta('{"a"'),
      delta(':1}'),
      result('r3'),
      { type: 'stream/settle', attemptId: 'a' },
    ]);
    expect(calls).to.deep.equal(['append 2', 'live 2', 'append 1', 'live 1']);
    expect(
      numbered.map((event) => [event.seq, (event as { callId: string }).callId]),
    ).to.deep.equal([
      [2, 'r1'],
      [3, 'r2'],
      [4, 'r3'],
    ]);
    expect(await store.page('s', { limit: 10 })).to.have.length(4);
    await store.close();
  });

  it('stops at the first store error: the runs before it are written, none after', async () => {
    const store = memoryStore({ fanOutMs: 0 });
    await store.live('s', [{ type: 'stream/settle', attemptId: 'a' }]);
    const { wrapped, calls } = watched(store);
    let error: unknown;
    try {
      // Attempt `a` was settled: its late delta is refused.
      await appendRuns(wrapped, 's', [result('r1'), delta('x'), result('r2')]);
    } catch (caught) {
      error = caught;
    }
    expect(String(error)).to.match(/\ba\b/);
    expect(calls).to.deep.equal(['append 1', 'live 1']);
    expect(await store.page('s', { limit: 10 })).to.have.length(1);
    await store.close();
  });

  it('writes nothing for no events', async () => {
    const { wrapped, calls } = watched(memoryStore());
    expect(await appendRuns(wrapped, 's', [])).to.deep.equal([]);
    expect(calls).to.deep.equal([]);
  });
});
