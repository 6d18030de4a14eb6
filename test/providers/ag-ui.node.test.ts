/**
 * AG-UI through the real packages: `@ag-ui/client`'s HttpAgent against loopback servers (one
 * writing the .NET recordings with `@ag-ui/encoder`, one running
 * `sessionHandler(…, { protocol: 'ag-ui' })` over the demo session), `@ag-ui/core`'s schemas
 * and `@ag-ui/client`'s `verifyEvents` on everything `toAGUI` writes, and `transformChunks`
 * as the oracle of chunk expansion. Node only (the AG-UI packages are dev dependencies).
 */

import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { HttpAgent, transformChunks, verifyEvents } from '@ag-ui/client';
import { EventSchemas } from '@ag-ui/core/schemas';
import { EventEncoder } from '@ag-ui/encoder';
import { expect } from 'chai';
import { from, lastValueFrom, toArray } from 'rxjs';
import { type CallfoldEvent, isDurableEvent } from '../../src/events/types.js';
import { fromAGUI } from '../../src/providers/ag-ui.js';
import type { AGUIEvent } from '../../src/providers/ag-ui-event.js';
import { createSession } from '../../src/providers/session.js';
import { toAGUI } from '../../src/providers/to-ag-ui.js';
import { memoryStore } from '../../src/server/memory-store.js';
import { demoEvents, produce, uninterrupted } from '../server/support/session-fold.js';
import { serveSessions } from '../server/support/session-server.js';
import { repositoryRoot } from '../support/repository.js';
import { conversationOf, liveAndHistory } from './support/ag-ui.js';

const recordings = join(repositoryRoot(), 'test/fixtures/provider-recordings/ag-ui');
const recorded = (name: string): Record<string, unknown>[] =>
  JSON.parse(readFileSync(join(recordings, name), 'utf8').replace(/^\uFEFF/, ''));

const session = () => {
  let n = 0;
  return createSession({ now: () => 0, attemptId: () => `a${++n}` });
};

const runInput = (threadId: string) => ({
  threadId,
  runId: 'follow',
  messages: [],
  tools: [],
  context: [],
  state: {},
  forwardedProps: {},
});

/** Every event `toAGUI` writes for `events`, each checked by @ag-ui/core's own schemas. */
async function validAGUI(events: readonly CallfoldEvent[]): Promise<AGUIEvent[]> {
  const agui = await lastValueFrom(from(events).pipe(toAGUI(), toArray()));
  for (const event of agui) {
    const parsed = EventSchemas.safeParse(event);
    expect(parsed.success, `${JSON.stringify(event).slice(0, 200)}: ${parsed.error}`).to.equal(
      true,
    );
  }
  // The sequence as @ag-ui/client's verifier requires it (runs, open messages and calls).
  const verified = await lastValueFrom(
    from(agui as never[]).pipe(verifyEvents(false) as never, toArray()),
  );
  expect(verified).to.have.length(agui.length);
  return agui;
}

/**
 * Reads `agent.run()` through fromAGUI until `done` says so (a session stream never ends by
 * itself), then aborts the run as a client does (`abortRun()`: HttpAgent turns the aborted
 * fetch into `RUN_ERROR` code `abort`, which ends fromAGUI quietly).
 */
function readUntil(
  agent: HttpAgent,
  done: (event: CallfoldEvent) => boolean,
  onEvent: (event: CallfoldEvent) => void = () => {},
): Promise<CallfoldEvent[]> {
  return new Promise((resolve, reject) => {
    const events: CallfoldEvent[] = [];
    let stopped = false;
    fromAGUI(agent.run(runInput('demo') as never), { session: session() }).subscribe({
      next(event) {
        events.push(event);
        onEvent(event);
        if (!stopped && done(event)) {
          stopped = true;
          agent.abortRun();
        }
      },
      error: reject,
      complete: () => (stopped ? resolve(events) : reject(new Error('the stream ended first'))),
    });
  });
}

describe('AG-UI: HttpAgent reading @ag-ui/encoder SSE', () => {
  for (const name of [
    'dotnet-backend-tool',
    'dotnet-parallel-tools',
    'dotnet-frontend-tool-turn1',
  ]) {
    it(`${name}: HttpAgent.run() into fromAGUI gives what the recorded events give`, async () => {
      const events = recorded(`${name}.server-events.json`);
      const server = createServer((request, response) => {
        const encoder = new EventEncoder({ accept: request.headers.accept ?? '' });
        response.writeHead(200, { 'content-type': encoder.getContentType() });
        for (const event of events) response.write(encoder.encode(event as never));
        response.end();
      });
      server.listen(0, '127.0.0.1');
      await once(server, 'listening');
      try {
        const { port } = server.address() as AddressInfo;
        const agent = new HttpAgent({ url: `http://127.0.0.1:${port}/agent` });
        const viaClient = await lastValueFrom(
          fromAGUI(agent.run(runInput('thread_Id_1') as never), { session: session() }).pipe(
            toArray(),
          ),
        );
        const direct = await lastValueFrom(
          fromAGUI(events, { session: session() }).pipe(toArray()),
        );
        expect(viaClient).to.deep.equal(direct);
        expect(viaClient.filter(isDurableEvent).length).to.be.above(2);
      } finally {
        server.closeAllConnections();
        server.close();
      }
    });
  }
});

describe('AG-UI: chunk expansion', () => {
  it('fromAGUI expands the recorded interleaved chunks as @ag-ui/client transformChunks does', async () => {
    const text = readFileSync(join(recordings, 'ts-client-interleaved-chunks.jsonl'), 'utf8');
    const chunks = text
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line));
    const expanded = await lastValueFrom(
      from(chunks).pipe(transformChunks(false) as never, toArray()),
    );
    expect(
      (expanded as { type: string }[]).filter((e) => e.type === 'TOOL_CALL_START'),
    ).to.have.length(3);
    const ours = await lastValueFrom(fromAGUI(chunks, { session: session() }).pipe(toArray()));
    const theirs = await lastValueFrom(fromAGUI(expanded, { session: session() }).pipe(toArray()));
    expect(ours).to.deep.equal(theirs);
  });
});

describe('AG-UI: toAGUI', () => {
  it('writes the demo session (live, and as history) as events @ag-ui/core validates and verifyEvents accepts', async () => {
    const events = demoEvents();
    for (const input of [events, events.filter(isDurableEvent)]) {
      const agui = await validAGUI(input);
      expect(agui[0]?.type).to.equal('RUN_STARTED');
      const back = await lastValueFrom(fromAGUI(agui, { session: session() }).pipe(toArray()));
      expect(conversationOf(back)).to.deep.equal(conversationOf(events));
      const [live, history] = liveAndHistory(back);
      expect(history).to.deep.equal(live);
    }
  });

  it('the round trip through HTTP: sessionHandler protocol ag-ui → HttpAgent → fromAGUI gives the session’s Conversation', async () => {
    const events = demoEvents();
    const lastTurn = events.filter((e) => e.type === 'turn/end').at(-1) as { turnId: string };
    for (const timing of ['history', 'live'] as const) {
      const store = memoryStore();
      const http = await serveSessions(store, { protocol: 'ag-ui' });
      try {
        // Live: the follower reads the first turn's start before the rest is produced.
        const first = timing === 'history' ? events.length : 1;
        await produce(store, 'demo', events.slice(0, first), async () => {});
        let connected: () => void = () => {};
        const following = new Promise<void>((resolve) => {
          connected = resolve;
        });
        const agent = new HttpAgent({ url: `${http.base}demo` });
        const reading = readUntil(
          agent,
          (event) => event.type === 'turn/end' && event.turnId === lastTurn.turnId,
          (event) => event.type === 'turn/start' && connected(),
        );
        if (timing === 'live') {
          await following;
          await produce(store, 'demo', events.slice(first), async (index) => {
            if (index % 50 === 0) await new Promise((resolve) => setImmediate(resolve));
          });
        }
        const back = await reading;
        expect(conversationOf(back), timing).to.deep.equal(await uninterrupted(store, 'demo'));
        // Live, the write's arguments streamed in many fragments; as history, in one.
        const deltas = back.filter((e) => e.type === 'stream/tool-call-delta').length;
        if (timing === 'live') expect(deltas).to.be.above(1000);
        else expect(deltas).to.be.below(100);
      } finally {
        await http.close();
        await store.close();
      }
    }
  });

  it('a client that resumes with Last-Event-ID gets a fresh AG-UI stream of what came after', async () => {
    const events = demoEvents();
    const store = memoryStore();
    const http = await serveSessions(store, { protocol: 'ag-ui' });
    try {
      await produce(store, 'demo', events, async () => {});
      const durable = await store.page('demo', { limit: 1_000_000 });
      const firstTurnEnd = durable.find((e) => e.type === 'turn/end') as { seq: number };
      const lastTurn = durable.filter((e) => e.type === 'turn/end').at(-1) as { turnId: string };
      const agent = new HttpAgent({
        url: `${http.base}demo`,
        headers: { 'last-event-id': `${firstTurnEnd.seq}` },
      });
      const back = await readUntil(
        agent,
        (event) => event.type === 'turn/end' && event.turnId === lastTurn.turnId,
      );
      expect(back[0]).to.deep.include({ type: 'turn/start', turnId: 't2' });
      const after = durable.filter((e) => e.seq > firstTurnEnd.seq);
      expect(conversationOf(back)).to.deep.equal(conversationOf(after));
    } finally {
      await http.close();
      await store.close();
    }
  });

  it('sessionHandler protocol ag-ui still serves history pages as callfold JSON; the callfold protocol refuses POST', async () => {
    const store = memoryStore();
    await produce(store, 'demo', demoEvents(), async () => {});
    const agui = await serveSessions(store, { protocol: 'ag-ui' });
    const callfold = await serveSessions(store);
    try {
      const page = await fetch(`${agui.base}demo?limit=2`);
      expect(page.headers.get('content-type')).to.match(/application\/json/);
      const last = demoEvents().filter(isDurableEvent).length;
      expect(((await page.json()) as { seq: number }[]).map((e) => e.seq)).to.deep.equal([
        last - 1,
        last,
      ]);
      const post = await fetch(`${callfold.base}demo`, { method: 'POST', body: '{}' });
      expect(post.status).to.equal(405);
      await post.body?.cancel();
    } finally {
      await agui.close();
      await callfold.close();
      await store.close();
    }
  });
});
