// `npm run test:stress`: the node layer (or the layers named) with both cores kept busy by
// two busy-looping processes at normal priority, as on a loaded CI machine. A test whose
// verdict depends on the machine's speed shows here or on a quiet run; CONTRIBUTING,
// "Tests that do not depend on speed", says how to write one that does not.
// `node scripts/test-stress.mjs [--runs N] [--busy N] [layer…]`.
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';

const argv = process.argv.slice(2);
/** @param {string} flag @param {number} fallback */
const option = (flag, fallback) => {
  const at = argv.indexOf(flag);
  if (at < 0) return fallback;
  const value = Number(argv[at + 1]);
  argv.splice(at, 2);
  if (!Number.isInteger(value) || value < 0) {
    console.error(`${flag} takes a whole number`);
    process.exit(2);
  }
  return value;
};
const runs = option('--runs', 1);
const busy = option('--busy', availableParallelism());
const layers = argv.length ? argv : ['node'];

const loops = Array.from({ length: busy }, () =>
  spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }),
);
const stop = () => {
  for (const loop of loops) loop.kill('SIGKILL');
};
process.on('exit', stop);
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
  process.on(signal, () => process.exit(130));
}
console.log(`test:stress: ${busy} busy-looping processes; ${runs} run(s) of ${layers.join(', ')}`);

let failedRuns = 0;
for (let run = 1; run <= runs; run++) {
  const code = await new Promise((resolve) => {
    const child = spawn(process.execPath, ['scripts/test.mjs', ...layers], { stdio: 'inherit' });
    child.on('close', (status) => resolve(status ?? 1));
  });
  if (code !== 0) failedRuns++;
  console.log(`test:stress: run ${run} of ${runs} ${code === 0 ? 'passed' : 'FAILED'}`);
}
stop();
console.log(`test:stress: ${runs - failedRuns} of ${runs} run(s) passed`);
process.exit(failedRuns ? 1 : 0);
