/**
 * Many instances on one Redis: two server processes, producer processes, and followers that
 * switch instance at every reconnection and are cut off at random moments.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { decodeTranscript } from '../../src/events/transcript.js';
import { type CallfoldEvent, isDurableEvent } from '../../src/events/types.js';
import type { AssemblerCommand } from '../../src/rx/assembler-command.js';
import { followSession } from '../../src/rx/follow-session.js';
import { redisStore } from '../../src/server/redis/redis-store.js';
import { prng } from '../support/prng.js';
import { type RunningRedis, startRedis } from './support/redis-server.js';
import { repositoryRoot } from './support/repository.js';
import { follower, uninterrupted } from './support/session-fold.js';

const support = (name: string) => fileURLToPath(new URL(`./support/${name}.js`, import.meta.url));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts a support script; resolves with the process and a reader of its output lines. */
function run(name: string, args: string[]) {
  const child = spawn(process.execPath, [support(name), ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: string[] = [];
  let partial = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    const parts = (partial + chunk.toString()).split('\n');
    partial = parts.pop() ?? '';
    lines.push(...parts);
  });
  const until = async (test: (lines: string[]) => boolean, timeoutMs: number) => {
    const deadline = Date.now() + timeoutMs;
    while (!test(lines)) {
      if (Date.now() > deadline) throw new Error(`${name}: timed out; output ${lines.join('|')}`);
      if (child.exitCode !== null && !test(lines))
        throw new Error(`${name} exited ${child.exitCode}`);
      await sleep(10);
    }
  };
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { child, lines, until, exited };
}

let redis: RunningRedis;
const instances: { child: ChildProcess; url: string }[] = [];

before(async () => {
  redis = await startRedis();
  for (let i = 0; i < 2; i++) {
    const instance = run('redis-instance', [redis.url]);
    await instance.until((lines) => lines.length > 0, 15_000);
    instances.push({ child: instance.child, url: `http://127.0.0.1:${instance.lines[0]}` });
  }
});

after(async () => {
  await Promise.all(
    instances.map(
      ({ child }) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
        }),
    ),
  );
  await redis?.stop();
});

/** A fetch that alternates between the instances and cuts each response at a random moment. */
function switchingFetch(random: () => number, connections: { count: number }) {
  return (url: string, init: { signal?: AbortSignal } & RequestInit) => {
    const instance = instances[connections.count++ % instances.length] as { url: string };
    const controller = new AbortController();
    init.signal?.addEventListener('abort', () => controller.abort());
    // Long enough for the largest event (a ~0.5 MB write message) to get through a busy machine.
    const cut = 300 + random() * 1200;
    return fetch(`${instance.url}${new URL(url).pathname}`, {
      ...init,
      signal: controller.signal,
    }).then((response) => {
      // Cut mid-stream, once the instance has answered.
      setTimeout(() => controller.abort(), cut);
      return response;
    });
  };
}

describe('redisStore: two server instances', { timeout: 90_000 }, () => {
  it('followers switching instance at every reconnection, cut off at random, converge on the uninterrupted fold', async () => {
    const session = 'multi';
    const text = readFileSync(
      join(repositoryRoot(), 'examples/transcripts/demo-session.jsonl'),
      'utf8',
    );
    const lastSeq = decodeTranscript(text).filter((entry) => isDurableEvent(entry.event)).length;
    const random = prng(7);
    const followers = Array.from({ length: 4 }, () => ({
      state: follower(),
      connections: { count: 0 },
    }));
    const subscriptions = followers.map(({ state, connections }) =>
      followSession(`http://any/sessions/${session}`, {
        retryMs: 10,
        maxRetryMs: 40,
        fetch: switchingFetch(random, connections),
      }).subscribe({
        next: (input: CallfoldEvent | AssemblerCommand) => state.take(input),
      }),
    );
    const producer = run('redis-producer', ['stream', redis.url, session]);
    try {
      await producer.until((lines) => lines.includes('done'), 60_000);
      const store = await redisStore({ url: redis.url });
      const expected = await uninterrupted(store, session);
      await store.close();
      for (const { state, connections } of followers) {
        // On an idle machine the producer can finish within a follower's first few cuts; the
        // follower goes on being cut and switched, so wait for both the last event and the
        // switches (each cut comes within 1.5 s).
        const deadline = Date.now() + 20_000;
        const waiting = () =>
          state.durable.at(-1) !== lastSeq || connections.count <= 3 || state.reconnects <= 3;
        while (waiting() && Date.now() < deadline) await sleep(20);
        expect(state.durable, 'each durable event once, in order').to.deep.equal(
          Array.from({ length: lastSeq }, (_, i) => i + 1),
        );
        expect(connections.count, 'connections (each on the other instance)').to.be.above(3);
        expect(state.reconnects).to.be.above(3);
        expect(state.assembler.publish().tools.size).to.be.above(5);
        expect(JSON.stringify(await settledProjection(state))).to.equal(JSON.stringify(expected));
      }
    } finally {
      for (const subscription of subscriptions) subscription.unsubscribe();
      producer.child.kill('SIGKILL');
    }
  });

  it('concurrent appends from two processes get strictly increasing seqs with no gap', async () => {
    const session = 'concurrent';
    const writers = ['a', 'b'].map((tag) =>
      run('redis-producer', ['append', redis.url, session, '150', tag]),
    );
    await Promise.all(
      writers.map((writer) => writer.until((lines) => lines.length === 150, 30_000)),
    );
    for (const writer of writers) {
      const seqs = writer.lines.map(Number);
      expect(seqs.every((seq, i) => i === 0 || seq > (seqs[i - 1] as number))).to.equal(true);
    }
    const all = writers.flatMap((writer) => writer.lines.map(Number)).sort((x, y) => x - y);
    expect(all).to.deep.equal(Array.from({ length: 300 }, (_, i) => i + 1));
    const store = await redisStore({ url: redis.url });
    const page = await store.page(session, { limit: 1000 });
    await store.close();
    expect(page.map((event) => event.seq)).to.deep.equal(all);
  });

  it('SIGKILL of the producer mid-attempt: followers on both instances see the attempt withdrawn within the lease', async () => {
    const session = 'killed';
    const seen = instances.map(() => [] as string[]);
    const subscriptions = instances.map((instance, i) =>
      followSession(`${instance.url}/sessions/${session}`, { retryMs: 10 }).subscribe((input) => {
        if (input.type === 'stream/tool-call-delta' || input.type === 'stream/settle') {
          (seen[i] as string[]).push(`${input.type} ${input.attemptId}`);
        }
      }),
    );
    const producer = run('redis-producer', ['die', redis.url, session]);
    try {
      await producer.until((lines) => lines.includes('live'), 20_000);
      const deadline = Date.now() + 5000;
      while (seen.some((events) => events.length === 0) && Date.now() < deadline) await sleep(10);
      producer.child.kill('SIGKILL');
      await producer.exited;
      const killed = Date.now();
      while (
        seen.some((events) => !events.includes('stream/settle doomed')) &&
        Date.now() < killed + 5000
      ) {
        await sleep(10);
      }
      const withdrawnAfter = Date.now() - killed;
      for (const events of seen) {
        expect(events).to.deep.equal(['stream/tool-call-delta doomed', 'stream/settle doomed']);
      }
      // lease 1000 ms + sweep every 200 ms, plus delivery
      expect(withdrawnAfter).to.be.below(1000 + 200 + 500);
    } finally {
      for (const subscription of subscriptions) subscription.unsubscribe();
    }
  });
});

/** A follower's Conversation projected like `uninterrupted` (its live attempts all settled). */
async function settledProjection(state: ReturnType<typeof follower>) {
  const { project } = await import('../assembler/support/driver.js');
  return project(state.assembler.publish());
}
