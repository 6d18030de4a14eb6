import { expect } from 'chai';
import { EventError } from '../../src/events/validate.js';
import { createSession } from '../../src/providers/session.js';
import { describe, it } from '../harness.js';

describe('Session', () => {
  it('numbers durable events from 1, strictly increasing, and stamps them', () => {
    const session = createSession({ now: () => 42 });
    const a = session.call('c1', 'Read', '{}');
    const b = session.result('c1', { ok: true });
    const c = session.result('c2', 'failed', true);
    const d = session.turn('turn/end', 't1');
    expect([a.seq, b.seq, c.seq, d.seq]).to.deep.equal([1, 2, 3, 4]);
    expect(b).to.deep.equal({
      type: 'tool/result',
      callId: 'c1',
      output: { ok: true },
      seq: 2,
      at: 42,
    });
    expect(c.isError).to.equal(true);
    expect('isError' in b).to.equal(false);
    expect(session.lastSeq).to.equal(4);
  });

  it('rejects an invalid event without giving it a number', () => {
    const session = createSession();
    expect(() => session.result('', 'x')).to.throw(EventError);
    expect(session.call('c1', 'Read', '{}').seq).to.equal(1);
  });

  it('keeps its history, pages it backwards, and continues numbering after a restored one', () => {
    const session = createSession({ now: () => 0 });
    for (let i = 0; i < 7; i++) session.result(`c${i}`, i);
    const history = session.history();
    expect(history.map((e) => e.seq)).to.deep.equal([1, 2, 3, 4, 5, 6, 7]);
    expect(session.page({ limit: 3 }).map((e) => e.seq)).to.deep.equal([5, 6, 7]);
    expect(session.page({ before: 5, limit: 3 }).map((e) => e.seq)).to.deep.equal([2, 3, 4]);
    expect(session.page({ before: 2, limit: 3 }).map((e) => e.seq)).to.deep.equal([1]);
    expect(session.page({ before: 1, limit: 3 })).to.deep.equal([]);
    expect(session.page({ before: 100, limit: 0 })).to.deep.equal([]);

    const restored = createSession({ history });
    expect(restored.history()).to.deep.equal(history);
    expect(restored.result('c9', 'x').seq).to.equal(8);
    expect(() => createSession({ history: [history[1], history[0]] as never })).to.throw(
      RangeError,
    );
  });

  it('makes unique attemptIds unless told how', () => {
    const ids = new Set(Array.from({ length: 1000 }, () => createSession().nextAttemptId()));
    expect(ids.size).to.equal(1000);
    let n = 0;
    const session = createSession({ attemptId: () => `run-${++n}` });
    expect([session.nextAttemptId(), session.nextAttemptId()]).to.deep.equal(['run-1', 'run-2']);
    expect(session.settle('run-1')).to.deep.equal({ type: 'stream/settle', attemptId: 'run-1' });
  });
});
