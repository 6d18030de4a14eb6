import { expect } from 'chai';
import type { CallfoldEvent } from '../../../src/events/types.js';
import { parseEvent } from '../../../src/events/validate.js';

/**
 * The contract every adapter run keeps, checked on the events it emitted:
 * 1. every event is a well-formed CallfoldEvent, and `seq` strictly increases;
 * 2. a call's first `stream/tool-call-delta` carries its name (identity before arguments),
 *    and a name never changes;
 * 3. each `stream/block-end` text equals its block's concatenated deltas, when `exact`
 *    (the provider's full texts agree with its fragments, as in the fixtures);
 * 4. per attempt: stream events, then (on a normal end) the `assistant/message`, the
 *    attempt's `tool/call`s, and last the `stream/settle`; nothing of the attempt after it,
 *    and exactly one settle, unless `hostDispatch` left it to the host.
 */
export function checkInvariants(
  events: readonly CallfoldEvent[],
  options: { exact?: boolean; hostDispatch?: boolean } = {},
): void {
  let seq = Number.NEGATIVE_INFINITY;
  const names = new Map<string, string>();
  const texts = new Map<string, string[]>();
  /** attemptId → phase: 'stream' → 'durable' → 'settled'. */
  const phase = new Map<string, 'stream' | 'durable' | 'settled'>();
  const callsOf = new Map<string, Set<string>>();
  let lastAttempt: string | undefined;

  for (const event of events) {
    parseEvent(event);
    if ('seq' in event) {
      expect(event.seq, `seq after ${seq}`).to.be.greaterThan(seq);
      seq = event.seq;
    }
    switch (event.type) {
      case 'stream/text-delta':
      case 'stream/tool-call-delta':
      case 'stream/block-end': {
        expect(phase.get(event.attemptId) ?? 'stream', `${event.type} after the records`).to.equal(
          'stream',
        );
        phase.set(event.attemptId, 'stream');
        lastAttempt = event.attemptId;
        const key = `${event.attemptId}/${event.block}`;
        if (event.type === 'stream/tool-call-delta') {
          const known = names.get(event.callId);
          if (known === undefined) {
            expect(event.name, `first delta of ${event.callId} names it`).to.be.a('string');
            names.set(event.callId, event.name as string);
          } else if (event.name !== undefined) {
            expect(event.name).to.equal(known);
          }
          let calls = callsOf.get(event.attemptId);
          if (!calls) callsOf.set(event.attemptId, (calls = new Set()));
          calls.add(event.callId);
        }
        if (event.type === 'stream/block-end') {
          if (options.exact) {
            expect(event.text, `block-end ${key}`).to.equal((texts.get(key) ?? []).join(''));
          }
        } else {
          const parts = texts.get(key) ?? [];
          parts.push(event.type === 'stream/text-delta' ? event.text : event.args);
          texts.set(key, parts);
        }
        break;
      }
      case 'assistant/message':
        expect(phase.get(event.attemptId) ?? 'stream').to.equal('stream');
        phase.set(event.attemptId, 'durable');
        lastAttempt = event.attemptId;
        break;
      case 'tool/call':
        if (lastAttempt !== undefined && phase.get(lastAttempt) === 'durable') {
          expect(callsOf.get(lastAttempt)?.has(event.callId) ?? false, event.callId).to.equal(true);
        }
        break;
      case 'stream/settle':
        expect(phase.get(event.attemptId), `settle of ${event.attemptId}`).to.not.equal('settled');
        phase.set(event.attemptId, 'settled');
        break;
      default:
        break;
    }
  }
  if (!options.hostDispatch) {
    for (const [attemptId, state] of phase) {
      expect(state, `attempt ${attemptId} settled`).to.equal('settled');
    }
  }
}
