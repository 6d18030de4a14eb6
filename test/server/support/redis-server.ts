import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Redis } from 'ioredis';
import { repositoryRoot } from '../../support/repository.js';

export interface RunningRedis {
  readonly url: string;
  readonly port: number;
  stop(): Promise<void>;
}

/** A port free on loopback now (bound, then released). */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Whether a redis-server `child` said it accepts connections within `deadlineMs` (not if it
 * exited first, or took longer: its caller starts it again on other ports), and what it
 * printed. The deadline only turns a server that never comes up into a retry.
 */
export async function serverReady(
  child: ChildProcess,
  deadlineMs: number,
): Promise<{ ready: boolean; output: string }> {
  let output = '';
  const ready = await new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), deadlineMs);
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve(true);
      }
    });
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(false);
    });
  });
  return { ready, output };
}

/**
 * A real redis-server on a free loopback port, persistence off, for one test file or
 * benchmark: installed with apt-get when missing (scripts/find-redis.mjs), stopped by `stop`.
 */
export async function startRedis(): Promise<RunningRedis> {
  const finder = pathToFileURL(join(repositoryRoot(), 'scripts/find-redis.mjs')).href;
  const { redisServerPath } = (await import(finder)) as { redisServerPath(): string };
  const binary = redisServerPath();
  for (let attempt = 0; ; attempt++) {
    const port = await freePort();
    const child: ChildProcess = spawn(
      binary,
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const { ready, output } = await serverReady(child, 10_000);
    if (ready) {
      const url = `redis://127.0.0.1:${port}`;
      return {
        url,
        port,
        stop: async () => {
          if (child.exitCode !== null) return;
          child.kill('SIGTERM');
          await once(child, 'exit');
        },
      };
    }
    child.kill('SIGKILL');
    if (attempt >= 2) throw new Error(`redis-server did not start:\n${output}`);
  }
}

/** Deletes every key of the server (between tests). */
export async function flush(url: string): Promise<void> {
  const client = new Redis(url);
  await client.flushall();
  await client.quit();
}
