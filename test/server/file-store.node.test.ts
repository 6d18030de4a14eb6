import { spawn } from 'node:child_process';
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { fileStore } from '../../src/server/file-store.node.js';
import { DrivenClock } from '../support/driven-clock.js';
import { seqs, storeConformance } from './store-conformance.js';

const scratch = () => mkdtempSync(join(tmpdir(), 'callfold-files-'));

storeConformance('fileStore', async ({ leaseMs, ttlMs, clock }) => {
  const dir = scratch();
  const store = fileStore({
    dir,
    ...(leaseMs === undefined ? {} : { leaseMs, sweepMs: 50 }),
    ...(ttlMs === undefined ? {} : { ttlMs }),
    ...(clock === undefined ? {} : { clock }),
  });
  return {
    store,
    dispose: async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

const result = (callId: string) => ({ type: 'tool/result' as const, callId, output: callId });

describe('fileStore: files on disk', () => {
  it('keeps one JSONL log, one index and one life per session, inside dir only', async () => {
    const dir = scratch();
    try {
      const store = fileStore({ dir });
      await store.append('s-1', [result('a'), result('b')]);
      await store.close();
      expect(readdirSync(dir).sort()).to.deep.equal(['s-1.idx', 's-1.jsonl', 's-1.life']);
      const lines = readFileSync(join(dir, 's-1.jsonl'), 'utf8').trimEnd().split('\n');
      expect(lines.map((line) => JSON.parse(line).seq)).to.deep.equal([1, 2]);
      expect(statSync(join(dir, 's-1.idx')).size).to.equal(16);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a torn last line is ignored on read and cut off before the next append', async () => {
    const dir = scratch();
    try {
      let store = fileStore({ dir });
      await store.append('s', [result('a'), result('b')]);
      await store.close();
      appendFileSync(join(dir, 's.jsonl'), '{"type":"tool/result","callId":"torn","out');
      store = fileStore({ dir });
      expect(seqs(await store.page('s', { limit: 10 }))).to.deep.equal([1, 2]);
      const [next] = await store.append('s', [result('c')]);
      expect(next?.seq).to.equal(3);
      await store.close();
      store = fileStore({ dir });
      const page = await store.page('s', { limit: 10 });
      expect(page.map((e) => e.type === 'tool/result' && e.callId)).to.deep.equal(['a', 'b', 'c']);
      await store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a lost or short index is rebuilt from the log', async () => {
    const dir = scratch();
    try {
      let store = fileStore({ dir });
      for (let i = 0; i < 5; i++) await store.append('s', [result(`c${i}`), result(`d${i}`)]);
      await store.close();
      rmSync(join(dir, 's.idx'));
      store = fileStore({ dir });
      expect(seqs(await store.page('s', { before: 6, limit: 3 }))).to.deep.equal([3, 4, 5]);
      expect((await store.append('s', [result('e')]))[0]?.seq).to.equal(11);
      await store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a producer killed mid-append loses no acknowledged event and leaves a readable log', async () => {
    const dir = scratch();
    const module = fileURLToPath(new URL('../../src/server/file-store.node.js', import.meta.url));
    // The child appends batches as fast as it can and prints each acknowledged last seq.
    const program = `
      const { fileStore } = await import(${JSON.stringify(module)});
      const store = fileStore({ dir: ${JSON.stringify(dir)} });
      for (let i = 0; ; i++) {
        const batch = Array.from({ length: 1 + (i % 5) }, (_, k) => ({ type: 'tool/result', callId: 'c' + i + '-' + k, output: 'x'.repeat(200 * k) }));
        const kept = await store.append('s', batch);
        process.stdout.write(kept.at(-1).seq + '\\n');
      }`;
    try {
      const child = spawn(process.execPath, ['--input-type=module', '-e', program], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let acknowledged = 0;
      let output = '';
      await new Promise<void>((resolve) => {
        child.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          const lines = output.split('\n');
          output = lines.pop() ?? '';
          for (const line of lines) acknowledged = Number(line);
          if (acknowledged >= 300) resolve();
        });
      });
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
      const store = fileStore({ dir });
      const kept = await store.page('s', { limit: 100_000 });
      expect(kept.length).to.be.at.least(acknowledged);
      expect(seqs(kept)).to.deep.equal(Array.from({ length: kept.length }, (_, i) => i + 1));
      expect((await store.append('s', [result('after')]))[0]?.seq).to.equal(kept.length + 1);
      await store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  /** Files of `earlier` written by a first process; a second one with `ttlMs` writes `recent` after a minute. */
  async function sweptByASecondProcess(ttlMs: number | undefined) {
    const dir = scratch();
    try {
      const first = fileStore({ dir });
      await first.append('earlier', [result('a')]);
      await first.close();
      const clock = new DrivenClock();
      const second = fileStore({ dir, clock, ...(ttlMs === undefined ? {} : { ttlMs }) });
      await clock.advance(60_000);
      await second.append('recent', [result('b')]);
      await clock.advance(70_000);
      const files = readdirSync(dir).sort();
      const metrics = second.metrics();
      await second.close();
      return { files, metrics };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it('ttlMs removes the files of sessions idle that long, those an earlier process wrote included (negative control: without ttlMs they stay)', async () => {
    const swept = await sweptByASecondProcess(120_000);
    expect(swept.files).to.deep.equal(['recent.idx', 'recent.jsonl', 'recent.life']);
    expect(swept.metrics.evictions).to.equal(1);
    const kept = await sweptByASecondProcess(undefined);
    expect(kept.files, 'nothing is removed without ttlMs').to.include('earlier.jsonl');
  });
});
