import { expect } from 'chai';
import { memoryStore } from '../../src/server/memory-store.js';
import { describe, it } from '../harness.js';
import { storeConformance } from './store-conformance.js';

storeConformance('memoryStore', async ({ leaseMs, ttlMs, clock }) => {
  const store = memoryStore({
    ...(leaseMs === undefined ? {} : { leaseMs, sweepMs: 50 }),
    ...(ttlMs === undefined ? {} : { ttlMs }),
    ...(clock === undefined ? {} : { clock }),
  });
  return { store, dispose: () => store.close() };
});

describe('memoryStore keeps copies', () => {
  it('what it keeps equals a JSON round trip of what was appended, whatever the caller does after (the copy skips re-encoding strings)', async () => {
    const store = memoryStore();
    const output = {
      text: 'x'.repeat(1000),
      nested: { list: [1, 'two', { three: true }], zero: -0, gone: undefined },
      when: new Date(0),
      notANumber: Number.NaN,
      own: JSON.parse('{"__proto__": {"polluted": true}}') as unknown,
      withUndefined: [1, undefined, 3],
    };
    const expected = JSON.parse(JSON.stringify({ type: 'tool/result', callId: 'c1', output }));
    const [numbered] = await store.append('s', [{ type: 'tool/result', callId: 'c1', output }]);
    output.nested.list.push(4);
    (output.nested as Record<string, unknown>).added = 1;
    const [kept] = await store.page('s', { limit: 10 });
    const { seq: _seq, at: _at, ...rest } = kept as typeof kept & { at?: number };
    expect(rest).to.deep.equal(expected);
    expect(numbered).to.deep.equal(kept);
    expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
    await store.close();
  });
});

describe('memoryStore is bounded', () => {
  const result = (callId: string, output = '') => ({
    type: 'tool/result' as const,
    callId,
    output,
  });
  const held = async (store: ReturnType<typeof memoryStore>, ids: readonly string[]) => {
    const kept: string[] = [];
    for (const id of ids) if ((await store.page(id, { limit: 1 })).length > 0) kept.push(id);
    return kept;
  };

  /** Four sessions written in order a, b, c, d; `a` followed, `b` streaming. */
  async function fourSessions(options: Parameters<typeof memoryStore>[0]) {
    const store = memoryStore(options);
    await store.append('a', [result('a', 'x'.repeat(1000))]);
    const following = store.follow('a', { after: 0 })[Symbol.asyncIterator]();
    await following.next();
    await store.append('b', [result('b', 'x'.repeat(1000))]);
    await store.live('b', [{ type: 'stream/text-delta', attemptId: 'ab', block: 0, text: 'hi' }]);
    await store.append('c', [result('c', 'x'.repeat(1000))]);
    await store.append('d', [result('d', 'x'.repeat(1000))]);
    const kept = await held(store, ['a', 'b', 'c', 'd']);
    const metrics = store.metrics();
    await following.return?.();
    await store.close();
    return { kept, metrics };
  }

  it('past maxSessions, the least recently used session with no follower and no live attempt is evicted (negative control: a larger bound keeps all)', async () => {
    const bounded = await fourSessions({ maxSessions: 3 });
    expect(bounded.kept).to.deep.equal(['a', 'b', 'd']);
    expect(bounded.metrics).to.deep.include({ sessions: 3, evictions: 1, followers: 1 });
    expect(bounded.metrics.liveAttempts).to.equal(1);
    const roomy = await fourSessions({ maxSessions: 4 });
    expect(roomy.kept, 'nothing is evicted within the bound').to.deep.equal(['a', 'b', 'c', 'd']);
  });

  it('past maxBytes of held events, idle sessions are evicted oldest first until it holds (negative control: a larger bound keeps all)', async () => {
    // Each event is ~1,060 bytes of JSON: four are over 3,500, three are within it.
    const bounded = await fourSessions({ maxBytes: 3500 });
    expect(bounded.kept).to.deep.equal(['a', 'b', 'd']);
    expect(bounded.metrics.bytesHeld).to.be.within(3 * 1000, 3500);
    expect(bounded.metrics.evictions).to.equal(1);
    const roomy = await fourSessions({ maxBytes: 10_000 });
    expect(roomy.kept, 'nothing is evicted within the bound').to.deep.equal(['a', 'b', 'c', 'd']);
    expect(roomy.metrics.bytesHeld).to.be.above(4 * 1000);
  });

  it('a write moves a session to the most recently used end', async () => {
    const store = memoryStore({ maxSessions: 2 });
    await store.append('old', [result('1')]);
    await store.append('new', [result('2')]);
    await store.append('old', [result('3')]);
    await store.append('third', [result('4')]);
    expect(await held(store, ['old', 'new', 'third'])).to.deep.equal(['old', 'third']);
    await store.close();
  });

  it('rejects bounds that are not positive numbers', () => {
    expect(() => memoryStore({ maxSessions: 0 })).to.throw(RangeError, /maxSessions/);
    expect(() => memoryStore({ maxBytes: Number.NaN })).to.throw(RangeError, /maxBytes/);
    expect(() => memoryStore({ ttlMs: -1 })).to.throw(RangeError, /ttlMs/);
  });
});
