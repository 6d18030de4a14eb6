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
