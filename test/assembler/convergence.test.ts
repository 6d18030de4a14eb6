/**
 * Equal durable events produce an equal final Conversation, whatever the paging or the live
 * history before it (DESIGN: Assembler). Intermediate publications may differ; each one is
 * still checked for shape along the way.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import type { Conversation } from '../../src/conversation/conversation.js';
import { describe, it } from '../harness.js';
import { project, run } from './support/driver.js';
import { assembler } from './support/events.js';
import {
  generateSession,
  historyOps,
  joinedOps,
  liveOps,
  type Op,
  prng,
  type Session,
} from './support/sessions.js';

const sessions = fc.record({ seed: fc.integer(), turns: fc.integer({ min: 1, max: 5 }) });

/** The Conversation from pushing the durable log once. */
function reference(session: Session): Conversation {
  const { assembler: a, errors } = assembler();
  a.push(session.durable);
  const conversation = a.publish();
  expect(errors).to.deep.equal([]);
  return conversation;
}

function expectConverges(session: Session, ops: readonly Op[]): void {
  const { assembler: a, errors } = assembler();
  const final = run(a, ops);
  expect(errors, 'nothing reported through onError').to.deep.equal([]);
  expect(project(final)).to.deep.equal(project(reference(session)));
}

describe('convergence: equal durable events give an equal final Conversation', () => {
  it('whatever the paging: overlapping pages prepended newest to oldest, publishing between', () => {
    fc.assert(
      fc.property(sessions, ({ seed, turns }) => {
        const session = generateSession(seed, turns);
        expectConverges(session, historyOps(prng(seed ^ 0x5eed), session.durable));
      }),
      { numRuns: 150 },
    );
  });

  it('whatever the live history: fragments down to 1, interleaved calls, retried attempts, late results, reconnections with replay, publications anywhere', () => {
    fc.assert(
      fc.property(sessions, fc.integer(), ({ seed, turns }, history) => {
        const session = generateSession(seed, turns);
        expectConverges(session, liveOps(prng(history), session.live, 0.03));
      }),
      { numRuns: 100 },
    );
  });

  it('through frequent reconnections, each losing events and replaying the live attempt', () => {
    fc.assert(
      fc.property(sessions, fc.integer(), ({ seed, turns }, history) => {
        const session = generateSession(seed, turns);
        expectConverges(session, liveOps(prng(history), session.live, 0.25));
      }),
      { numRuns: 60 },
    );
  });

  it('when a client joins mid-session: the live stream from one turn on while older pages are prepended', () => {
    fc.assert(
      fc.property(sessions, fc.integer(), ({ seed, turns }, history) => {
        const session = generateSession(seed, turns);
        const r = prng(history);
        expectConverges(session, joinedOps(r, session, r.int(0, turns)));
      }),
      { numRuns: 100 },
    );
  });

  it('the session generator exercises what the properties claim (not vacuous)', () => {
    const seen = new Set<string>();
    for (let seed = 0; seed < 300; seed++) {
      const session = generateSession(seed, 3);
      const calls = new Set<string>();
      const results = new Map<string, number>();
      let lastSeq = Number.NEGATIVE_INFINITY;
      for (const event of session.durable) {
        expect(event.seq, 'seq strictly increasing').to.be.greaterThan(lastSeq);
        lastSeq = event.seq;
        if (event.type === 'tool/call') {
          calls.add(event.callId);
          seen.add(typeof event.args === 'string' ? 'string args' : 'object args');
        }
        if (event.type === 'tool/result') {
          results.set(event.callId, (results.get(event.callId) ?? 0) + 1);
          if (event.isError === true) seen.add('error result');
        }
      }
      for (const [callId, count] of results) {
        if (!calls.has(callId)) seen.add('unpaired result');
        if (count > 1) seen.add('duplicate result');
      }
      let highest = Number.NEGATIVE_INFINITY;
      const settled = new Set<string>();
      const named = new Map<string, boolean>();
      for (const event of session.live) {
        if ('seq' in event) {
          if (event.seq < highest) seen.add('durable event out of seq order');
          highest = Math.max(highest, event.seq);
        }
        if (event.type === 'stream/settle') settled.add(event.attemptId);
        if (event.type === 'stream/tool-call-delta') {
          if (event.args.length === 1) seen.add('one-unit fragment');
          if (event.name === undefined && event.args.length > 0 && !named.get(event.callId)) {
            seen.add('arguments before the name');
          }
          if (event.name !== undefined) named.set(event.callId, true);
          if (event.attemptId.includes('retry') && calls.has(event.callId)) {
            seen.add('a retry streams a callId dispatched later');
          }
        }
      }
      const order = session.live.flatMap((e) =>
        e.type === 'stream/tool-call-delta' && e.attemptId.endsWith('final') ? [e.callId] : [],
      );
      for (let i = 2; i < order.length; i++) {
        if (order[i] === order[i - 2] && order[i] !== order[i - 1]) seen.add('interleaved calls');
      }
      if ([...settled].some((a) => a.includes('retry'))) seen.add('retried attempt');
      const history = liveOps(prng(seed), session.live, 0.25);
      if (history.some((op) => op.kind === 'reconnect')) seen.add('reconnection');
    }
    expect([...seen].sort()).to.deep.equal(
      [
        'a retry streams a callId dispatched later',
        'arguments before the name',
        'duplicate result',
        'durable event out of seq order',
        'error result',
        'interleaved calls',
        'object args',
        'one-unit fragment',
        'reconnection',
        'retried attempt',
        'string args',
        'unpaired result',
      ].sort(),
    );
  });
});
