import v8 from 'node:v8';

/**
 * Cumulative allocation on the V8 heap while `run` executes, collected objects included.
 *
 * Node 20 has no allocation counter (`total_allocated_bytes` arrived in later V8s), so this
 * balances the books with `v8.GCProfiler`: allocated = used(end) − used(start) + Σ over
 * every GC in between of used(before GC) − used(after GC). It covers all V8 heap spaces
 * (strings, objects, large-object space) but not external memory (ArrayBuffer backing
 * stores, e.g. TextEncoder output). The profiler costs ~50 µs per GC, so callers measure
 * allocation in iterations separate from the timed ones.
 */
export async function measureAllocation<T>(
  run: () => T | Promise<T>,
): Promise<{ bytes: number; gcs: number; result: T }> {
  const profiler = new v8.GCProfiler();
  profiler.start();
  const start = v8.getHeapStatistics().used_heap_size;
  const result = await run();
  const end = v8.getHeapStatistics().used_heap_size;
  const { statistics } = profiler.stop();
  let freed = 0;
  for (const gc of statistics) {
    freed += gc.beforeGC.heapStatistics.usedHeapSize - gc.afterGC.heapStatistics.usedHeapSize;
  }
  return { bytes: end - start + freed, gcs: statistics.length, result };
}

export const allocationMethod =
  'V8 heap only, via v8.GCProfiler: used(end) − used(start) + Σ per GC (used before − used after); ' +
  'excludes external ArrayBuffer memory; measured in separate untimed iterations';
