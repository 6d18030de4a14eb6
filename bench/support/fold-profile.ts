import { Session } from 'node:inspector/promises';
import { fileURLToPath } from 'node:url';
import type { Contestant, FoldScenario } from './fold-contestants.js';
import { MiB } from './stats.js';

/**
 * Helpers to see where a contestant's time and allocation go, outside the measured runs:
 *
 *   node --cpu-prof .build/bench/fold.bench.js --repeat write callfold 200
 *   node .build/bench/fold.bench.js --allocation-sites write callfold 20
 *
 * The first only repeats the run (profile it with --cpu-prof); the second samples every
 * allocation, collected objects included, and prints the top allocation sites.
 */
export async function repeat(scenario: FoldScenario, contestant: Contestant, runs: number) {
  const input = scenario.build();
  contestant.prepare?.(input);
  const first = performance.now();
  contestant.check(input, await contestant.run(input));
  const firstMs = performance.now() - first;
  const start = performance.now();
  for (let i = 0; i < runs; i++) await contestant.run(input);
  const each =
    runs > 0
      ? `, then ${runs} runs, ${((performance.now() - start) / runs).toFixed(2)} ms a run`
      : '';
  console.log(`${scenario.id} · ${contestant.name}: the first run ${firstMs.toFixed(2)} ms${each}`);
}

interface SamplingNode {
  readonly callFrame: { functionName: string; url: string; lineNumber: number };
  readonly selfSize: number;
  readonly children: readonly SamplingNode[];
}

/** The top allocation sites of `runs` runs, collected objects included (sampled every 256 bytes). */
export async function allocationSites(
  scenario: FoldScenario,
  contestant: Contestant,
  runs: number,
  top = 25,
) {
  const input = scenario.build();
  contestant.prepare?.(input);
  for (let i = 0; i < 10; i++) await contestant.run(input);
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 256,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  for (let i = 0; i < runs; i++) await contestant.run(input);
  const { profile } = (await session.post('HeapProfiler.stopSampling')) as unknown as {
    profile: { head: SamplingNode };
  };
  session.disconnect();
  const root = fileURLToPath(new URL('../../', import.meta.url));
  const sites = new Map<string, number>();
  let total = 0;
  // Builtins (push, join, Map…) are named with their caller, where the cause is.
  const walk = (node: SamplingNode, caller: string) => {
    const { functionName, url, lineNumber } = node.callFrame;
    const file = url.startsWith('file://') ? fileURLToPath(url).replace(root, '') : url;
    const name = `${functionName || '(anonymous)'} ${file}:${lineNumber + 1}`;
    const site = file === '' ? `${functionName} ← ${caller}` : name;
    sites.set(site, (sites.get(site) ?? 0) + node.selfSize);
    total += node.selfSize;
    for (const child of node.children) walk(child, name);
  };
  walk(profile.head, '');
  console.log(
    `${scenario.id} · ${contestant.name}: ${(total / runs / MiB).toFixed(2)} MiB sampled a run`,
  );
  for (const [site, bytes] of [...sites].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    const share = ((100 * bytes) / total).toFixed(1).padStart(5);
    console.log(`${(bytes / runs / MiB).toFixed(3).padStart(8)} MiB ${share}%  ${site}`);
  }
}
