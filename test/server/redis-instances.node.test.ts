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
import { followSession } from '../../src/client/follow-session.js';
import { type CallfoldEvent, isDurableEvent } from '../../src/events/types.js';
import type { AssemblerCommand } from '../../src/rx/assembler-command.js';
import { redisStore } from '../../src/server/redis/redis-store.js';
import { decodeTranscript } from '../../src/wire/transcript.js';
import { prng } from '../support/prng.js';
import { repositoryRoot } from '../support/repository.js';
import { waitFor } from '../support/wait-for.js';
import { type RunningRedis, startRedis } from './support/redis-server.js';
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

/**
 * A fetch that alternates between the instances and cuts each response after a random number
 * of SSE messages (1 to 40): wherever the cut falls in the bytes it reads, the rest of that
 * read is lost, as in a network drop. Cut by progress, never by the clock, so every follower
 * is cut as often on a fast machine as on a slow one; the largest event (a ~0.5 MB write
 * message) is one message, so it always gets through.
 */
function switchingFetch(random: () => number, connections: { count: number }) {
  return async (url: string, init: { signal?: AbortSignal } & RequestInit) => {
    const instance = instances[connections.count++ % instances.length] as { url: string };
    const controller = new AbortController();
    init.signal?.addEventListener('abort', () => controller.abort());
    const response = await fetch(`${instance.url}${new URL(url).pathname}`, {
      ...init,
      signal: controller.signal,
    });
    if (!response.body) return response;
    let left = 1 + Math.floor(random() * 40);
    let previous = 0;
    const counting = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, output) {
        for (let i = 0; i < chunk.length; i++) {
          // A blank line ends a message: "\n\n", across reads too.
          if (chunk[i] === 10 && previous === 10 && --left === 0) {
            output.enqueue(chunk.subarray(0, i + 1));
            controller.abort();
            output.error(new Error('cut'));
            return;
          }
          previous = chunk[i] as number;
        }
        output.enqueue(chunk);
      },
    });
    return new Response(response.body.pipeThrough(counting), {
      status: response.status,
      headers: response.headers,
    });
  };
}

describe('redisStore: two server instances', { timeout: 90_000 }, () => {
  it('followers switching instance at every reconnection, cut after a random number of messages, converge on the uninterrupted fold', async () => {
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
        await waitFor(() => state.durable.at(-1) === lastSeq, 'the last durable event');
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

  it('SIGKILL of the producer mid-attempt: followers on both instances see the attempt withdrawn by its lease', async () => {
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
      await waitFor(() => seen.every((events) => events.length > 0), 'the delta on both');
      producer.child.kill('SIGKILL');
      await producer.exited;
      // Nothing but the lease can settle it now. How soon (lease + sweep + delivery) is a
      // latency, measured by bench:server, not asserted against the clock here.
      await waitFor(
        () => seen.every((events) => events.includes('stream/settle doomed')),
        'the settle on both instances',
      );
      for (const events of seen) {
        expect(events).to.deep.equal(['stream/tool-call-delta doomed', 'stream/settle doomed']);
      }
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
