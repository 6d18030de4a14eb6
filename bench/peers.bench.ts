/**
 * `npm run bench:peers`: the same streamed `write` (16, 64, 128, 512 KiB, 16-character deltas)
 * and a session of 200 calls through each peer's own client code path — the AI SDK's
 * `readUIMessageStream`, assistant-ui's `assistant-stream` accumulator, the OpenAI SDK's
 * `chat.completions.stream()`, the Anthropic SDK's `messages.stream()` with an `inputJson`
 * listener, `@ag-ui/client`'s `runAgent` — against callfold's adapter + `assemble()` on the
 * same wire, each reading what a row shows every time it is handed something new. One worker
 * per (scenario, contestant) per round, rounds alternated; medians of CPU time, the ratio to
 * callfold, growth from the smallest to the largest write. A worker past `BENCH_LIMIT_S`
 * (60) is killed and printed "> 60 s". `BENCH_ROUNDS` (3), `BENCH_SIZES` (16,64,128,512),
 * `BENCH_SESSION` (200; 0 leaves the session out). `-- --browser` runs the Chromium part
 * instead (bench/peers/browser.ts). See bench/README.md, "Peers benchmark".
 */
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { CONTESTANTS } from './peers/contestants.js';
import { floorLines, peersGoals, peersTable, runPeers, runWorkerMode } from './peers/harness.js';
import { goalTable } from './support/goals.js';

const [mode, contestant, scenario] = process.argv.slice(2);
if (mode === '--worker' && contestant !== undefined && scenario !== undefined) {
  await runWorkerMode(contestant, scenario);
} else if (mode === '--browser') {
  const { runBrowser } = await import('./peers/browser.js');
  await runBrowser();
} else {
  const sizes = (process.env.BENCH_SIZES ?? '16,64,128,512').split(',').map(Number);
  const options = {
    sizes,
    sessionCalls: Number(process.env.BENCH_SESSION ?? 200),
    rounds: Number(process.env.BENCH_ROUNDS ?? 3),
    limitS: Number(process.env.BENCH_LIMIT_S ?? 60),
    script: fileURLToPath(import.meta.url),
  };
  const result = await runPeers(options);
  console.log(
    `bench:peers — CPU time per run (median of ${options.rounds} alternated rounds, a fresh ` +
      `worker each, after a warm-up at 1 KiB); in brackets, ÷ callfold on the same wire\n`,
  );
  console.log(peersTable(result));
  console.log(`\n${goalTable(peersGoals(result), 'text')}`);
  console.log("\nThe floor of the UI message stream's SSE (decode + JSON.parse, nothing else):");
  for (const line of floorLines(result)) console.log(line);
  console.log('\nContestants:');
  for (const c of CONTESTANTS) console.log(`- ${c.name}: ${c.note}`);
  console.log(
    `\n- total ${result.seconds.toFixed(0)} s; highest 1-minute load average ${result.maxLoad.toFixed(1)} ` +
      `on ${availableParallelism()} cores; limit ${options.limitS} s a run ("> ${options.limitS} s": ` +
      'killed, or not run because a smaller write already was).',
  );
  console.log(`\n## Markdown (README)\n\n${peersTable(result, 'markdown')}`);
}
