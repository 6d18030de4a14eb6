import { expect } from 'chai';
import fc from 'fast-check';
import {
  type CallfoldEvent,
  isDurableEvent,
  isStreamEvent,
  type SessionEvent,
  type StreamEvent,
} from '../../src/events/types.js';
import { describe, it } from '../harness.js';
import { event } from './arbitraries.js';

describe('event families', () => {
  it('classifies every event as exactly one of durable and stream, by its type prefix', () => {
    fc.assert(
      fc.property(event, (e) => {
        expect(isStreamEvent(e)).to.equal(e.type.startsWith('stream/'));
        expect(isDurableEvent(e)).to.equal(!isStreamEvent(e));
      }),
    );
  });

  it('narrows: durable events have seq, stream events an attemptId', () => {
    const log: CallfoldEvent[] = [
      { type: 'tool/call', seq: 1, callId: 'c', name: 'n', args: '' },
      { type: 'stream/settle', attemptId: 'a' },
    ];
    const durable: SessionEvent[] = log.filter(isDurableEvent);
    const live: StreamEvent[] = log.filter(isStreamEvent);
    expect(durable.map((e) => e.seq)).to.deep.equal([1]);
    expect(live.map((e) => e.attemptId)).to.deep.equal(['a']);
  });
});
