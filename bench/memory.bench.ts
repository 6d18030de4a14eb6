/**
 * `npm run bench:memory`: what the Assembler keeps per settled attempt beyond its durable
 * events (issue 13, item 6).
 *
 * 2,000 attempts, each a `write` call streamed in 64 deltas, every delta in its own task with
 * the clock moved (the worst case for stream timing: one time run per delta), then its
 * `assistant/message`, `tool/call`, `stream/settle` and `tool/result`, published once per
 * attempt. The same durable events are folded by a second Assembler that never saw a stream
 * event. Each fold runs in a fresh `node --expose-gc` worker, three workers a fold; the heap
 * is read after forced GCs with the Assembler (and its events) still reachable. The figure
 * is (streamed − durable only) / 2,000: bytes a settled attempt keeps for having streamed.
 */
import { fileURLToPath } from 'node:url';
import { Assembler } from '../src/conversation/assembler.js';
import type { CallfoldEvent } from '../src/events/types.js';
import { median } from './support/stats.js';
import { runRounds, sendReport } from './support/workers.js';

const ATTEMPTS = 2000;
const DELTAS = 64;
const FRAGMENT = 16;
type Fold = 'streamed' | 'durable';

function attemptEvents(index: number): { stream: CallfoldEvent[]; durable: CallfoldEvent[] } {
  const attemptId = `attempt-${index}`;
  const callId = `call-${index}`;
  const content = String(index).padEnd(FRAGMENT * DELTAS - 40, '.');
  const argsText = JSON.stringify({ file_path: `src/f${index}.ts`, content });
  const stream: CallfoldEvent[] = [];
  for (let i = 0; i < argsText.length; i += FRAGMENT) {
    stream.push({
      type: 'stream/tool-call-delta',
      attemptId,
      block: 0,
      callId,
      ...(i === 0 ? { name: 'write' } : {}),
      args: argsText.slice(i, i + FRAGMENT),
    });
  }
  stream.push({ type: 'stream/block-end', attemptId, block: 0, callId, text: argsText });
  const seq = index * 4;
  const durable: CallfoldEvent[] = [
    {
      type: 'assistant/message',
      seq: seq + 1,
      at: index,
      messageId: `m-${index}`,
      attemptId,
      blocks: [{ type: 'tool-use', callId, name: 'write', argsText }],
    },
    { type: 'tool/call', seq: seq + 2, at: index, callId, name: 'write', args: argsText },
    { type: 'stream/settle', attemptId },
    { type: 'tool/result', seq: seq + 3, at: index, callId, output: 'ok' },
  ];
  return { stream, durable };
}

function heapAfterGC(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with node --expose-gc');
  for (let i = 0; i < 4; i++) gc();
  return process.memoryUsage().heapUsed;
}

async function worker(fold: Fold): Promise<void> {
  const attempts = Array.from({ length: ATTEMPTS }, (_, i) => attemptEvents(i));
  let clock = 0;
  const assembler = new Assembler({ now: () => ++clock });
  const before = heapAfterGC();
  for (const { stream, durable } of attempts) {
    if (fold === 'streamed') {
      for (const event of stream) {
        assembler.push(event);
        // After the Assembler's clock-clearing microtask: it reads its clock again, which moved.
        await null;
      }
    }
    assembler.push(durable);
    assembler.publish();
  }
  const conversation = assembler.publish();
  if (conversation.tools.size !== ATTEMPTS) throw new Error('every call must be folded');
  for (const node of conversation.tools.values()) {
    if (node.stage !== 'result') throw new Error(`${node.callId} is at ${node.stage}`);
  }
  const after = heapAfterGC();
  sendReport({ fold, retainedBytes: after - before, keep: [assembler, attempts].length });
}

async function main(): Promise<void> {
  const script = fileURLToPath(import.meta.url);
  const folds = ['streamed', 'durable'] as const;
  const { reports } = await runRounds<{ retainedBytes: number }>(
    folds.map((fold) => ({ label: fold, run: { script, args: ['--worker', fold] } })),
    3,
  );
  const [streamedReports = [], durableReports = []] = reports;
  const results: Record<Fold, number[]> = {
    streamed: streamedReports.map((r) => r.retainedBytes),
    durable: durableReports.map((r) => r.retainedBytes),
  };
  const streamed = median(results.streamed);
  const durable = median(results.durable);
  const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
  console.log(`${ATTEMPTS} settled attempts, ${DELTAS} deltas each, one clock tick per delta`);
  console.log(
    `retained, streamed then settled: ${kib(streamed)} (samples ${results.streamed.map(kib).join(', ')})`,
  );
  console.log(
    `retained, durable events only:   ${kib(durable)} (samples ${results.durable.map(kib).join(', ')})`,
  );
  console.log(
    `per settled attempt beyond its durable events: ${((streamed - durable) / ATTEMPTS).toFixed(1)} B`,
  );
}

const workerAt = process.argv.indexOf('--worker');
if (workerAt >= 0) await worker(process.argv[workerAt + 1] as Fold);
else await main();
