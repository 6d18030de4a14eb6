import { availableParallelism } from 'node:os';

/**
 * The closing lines both benchmarks print under their method notes: how peak RSS was taken,
 * and how long the run took with the highest load seen (a loaded machine means noisy times).
 */
export function printRunFooter(workers: number, elapsedSeconds: number, maxLoad: number): void {
  console.log(
    `- peak RSS: process.resourceUsage().maxRSS of each worker (inputs included), median of ${workers}.`,
  );
  const cores = availableParallelism();
  console.log(
    `- total benchmark time ${elapsedSeconds.toFixed(0)} s; highest 1-minute load average seen ` +
      `${maxLoad.toFixed(1)} on ${cores} cores` +
      (maxLoad > cores ? ' — other processes competed for the CPU; expect noisy timings.' : '.'),
  );
}
