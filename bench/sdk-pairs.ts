/**
 * `node --expose-gc .build/bench/sdk-pairs.js [openai|anthropic] [rounds] [variants]`: the sdk
 * rows of `bench:sessions` (bench/support/sdk-streams.ts) in one process, alternated run by
 * run, for comparing what adapter + `assemble()` adds to iterating the SDK's stream with what
 * the SDK's helper adds, on a machine too loaded for the separate workers of `bench:sessions`
 * to agree with each other. It prints each variant's medians and, per variant, the median of
 * its paired differences from iterating alone (same round, back to back): wall time, main-thread CPU
 * (Linux `/proc/self/task/<pid>/schedstat`: what wall time is made of when the second core is
 * free), CPU of every thread, and GC pauses. For an A/B between two trees, run it in each
 * checkout in turn, several times, alternating. Default: openai, 12 rounds,
 * iterate,callfold,helper,response. Not part of `npm run bench:sessions` or any goal.
 */
import { loadavg } from 'node:os';
import {
  SDK_VARIANTS,
  type SdkProvider,
  type SdkVariant,
  sdkPairs,
} from './support/sdk-streams.js';
import { median } from './support/stats.js';

const [providerArg = 'openai', roundsArg = '12', variantsArg] = process.argv.slice(2);
const provider = providerArg as SdkProvider;
const variants = (variantsArg?.split(',') ?? SDK_VARIANTS) as SdkVariant[];
if (!variants.includes('iterate')) variants.unshift('iterate');
const cells = await sdkPairs(provider, variants, Number(roundsArg));
const base = cells.find((cell) => cell.variant === 'iterate');
const fmt = (n: number) => n.toFixed(1).padStart(7);
console.log(
  `${provider}, ${roundsArg} alternated rounds; ms, medians (paired: minus iterating alone in the same round)`,
);
console.log(
  'variant       wall  main-thread  CPU (all)  GC pauses | paired:    wall  main-thread  CPU (all)  GC pauses',
);
for (const cell of cells) {
  const paired = (key: 'wallMs' | 'mainMs' | 'cpuMs' | 'gcMs') =>
    median(cell[key].map((value, i) => value - (base?.[key][i] ?? 0)));
  console.log(
    `${cell.variant.padEnd(10)} ${fmt(median(cell.wallMs))}      ${fmt(median(cell.mainMs))}    ${fmt(median(cell.cpuMs))}    ${fmt(median(cell.gcMs))} |` +
      `  ${fmt(paired('wallMs'))}      ${fmt(paired('mainMs'))}    ${fmt(paired('cpuMs'))}    ${fmt(paired('gcMs'))}`,
  );
}
console.log(`1-minute load average at the end: ${loadavg()[0]?.toFixed(1)} on the machine's cores`);
