import { describe, it } from 'node:test';
import { expect } from 'chai';
import { Subject } from 'rxjs';
import { followSession } from '../../src/client/follow-session.js';
import type { CallfoldEvent } from '../../src/events/types.js';
import type { AssemblerCommand } from '../../src/rx/assembler-command.js';
import { memoryStore } from '../../src/server/memory-store.js';
import { recordAttempt } from '../../src/server/record-attempt.js';
import { waitFor } from '../support/wait-for.js';
import { follower } from './support/session-fold.js';
import { type RunningServer, serveSessions } from './support/session-server.js';

const result = (callId: string): CallfoldEvent => ({
  type: 'tool/result',
  seq: 0,
  callId,
  output: `out ${callId}`,
});
const range = (count: number) => Array.from({ length: count }, (_, i) => i + 1);

describe('graceful restarts', () => {
  it("handler close() moves a follower to a second handler over the same store within the server's retry:, losing nothing; the first instance's recordAttempt settles", async () => {
    const store = memoryStore();
    const a = await serveSessions(store);
    const b = await serveSessions(store);
    let target: RunningServer = a;
    const hits = new Map<RunningServer, number>([
      [a, 0],
      [b, 0],
    ]);
    const inputs: (CallfoldEvent | AssemblerCommand)[] = [];
    const reader = follower();
    // The follower's own backoff is 10 minutes: only the server's `retry:` line (at most
    // 1 s) brings it back before waitFor's deadline.
    const subscription = followSession(`${a.base}s`, {
      retryMs: 600_000,
      maxRetryMs: 600_000,
      fetch: (url, init) => {
        hits.set(target, (hits.get(target) ?? 0) + 1);
        return fetch(String(url).replace(a.base, target.base), init);
      },
    }).subscribe((input) => {
      inputs.push(input);
      reader.take(input);
    });
    const source = new Subject<CallfoldEvent>();
    const stopA = new AbortController();
    const recording = recordAttempt(store, 's', source, { signal: stopA.signal });
    try {
      for (let i = 0; i < 20; i++) source.next(result(`a${i}`));
      source.next({
        type: 'stream/text-delta',
        attemptId: 'on-a',
        block: 0,
        text: 'streaming when A stops',
      });
      await waitFor(
        () => reader.durable.length === 20 && inputs.some((e) => e.type === 'stream/text-delta'),
        'the follower holds what A recorded',
      );
      expect(a.handler.metrics().followers).to.equal(1);

      // The restart: new connections go to B; A ends its responses, then its producer.
      target = b;
      await a.handler.close();
      expect(a.handler.metrics().followers).to.equal(0);
      stopA.abort();
      await recording;
      expect(source.observed, 'the source was unsubscribed').to.equal(false);
      const refused = await fetch(`${a.base}s`, { headers: { accept: 'text/event-stream' } });
      expect(refused.status).to.equal(503);

      await waitFor(() => reader.reconnects === 2, 'the follower reconnects (to B)');
      await store.append(
        's',
        ['b0', 'b1'].map((callId) => ({ type: 'tool/result', callId, output: '' }) as const),
      );
      await waitFor(() => reader.durable.length >= 22, 'what B serves after the restart');
      expect(reader.durable, 'no durable event lost or repeated').to.deep.equal(range(22));
      expect(hits.get(b)).to.equal(1);
      expect(b.handler.metrics().followers).to.equal(1);
      // The attempt A left open was settled by its recordAttempt: a late write is refused, and
      // the follower no longer shows it (the reconnection withdrew it and B replays it no more,
      // or B passed the settle on).
      const late = { type: 'stream/text-delta', attemptId: 'on-a', block: 0, text: '!' } as const;
      const refusal = await store.live('s', [late]).then(
        () => undefined,
        (error: unknown) => String(error),
      );
      expect(refusal).to.match(/already settled/);
      const sinceReconnect = inputs.slice(
        inputs.map((input) => input.type).lastIndexOf('connection/reconnect'),
      );
      const ofA = sinceReconnect.filter(
        (input) => 'attemptId' in input && input.attemptId === 'on-a',
      );
      expect(ofA.length === 0 || ofA.at(-1)?.type === 'stream/settle').to.equal(true);
    } finally {
      subscription.unsubscribe();
      await a.close();
      await b.close();
      await store.close();
    }
  });
});
