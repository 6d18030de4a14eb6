import v8 from 'node:v8';
import { measureAllocation } from './allocation.js';
import { median } from './stats.js';

/**
 * The worker side of a benchmark: one subject measured in one fresh process.
 *
 * Inputs are built before anything is timed, every sample starts right after a forced GC
 * (outside the timed region), and every run is checked, so a broken run cannot pass for
 * a fast one. Needs `node --expose-gc`.
 *
 * The previous run's result stays reachable through each forced GC, as a live UI keeps its
 * earlier readers and nodes. Otherwise nothing of the subject's kinds of objects would be
 * alive at that GC, V8 would drop their hidden classes, and with them every optimized
 * function that checks those classes: each sample would then time the JIT compiling the
 * subject again (1 MiB code-like arguments: 15–50 ms a run instead of a steady 10 ms;
 * docs/decisions/0005-benchmark-harness.md).
 */
export interface Subject<Input, Held> {
  /** Builds the inputs (events, fragments); never timed. */
  build(): Input;
  /** The timed work; what it returns is what stays reachable for the retained-heap figure. */
  run(input: Input): Held | Promise<Held>;
  /** Throws unless `held` is the correct outcome of running on `input`. */
  check(input: Input, held: Held): void;
}

export interface SamplePlan {
  /** Warm-up runs: at least this many, and for at least `warmupMs` (background JIT tiers). */
  readonly warmup: number;
  readonly warmupMs: number;
  /** Timed samples. */
  readonly samples: number;
  /** Untimed allocation samples, besides those the retained-heap runs give. */
  readonly allocationSamples: number;
  /** Retained-heap runs (at least one); each also gives an allocation sample. */
  readonly retainedSamples: number;
}

export interface WorkerReport {
  readonly pid: number;
  /**
   * The first run in the fresh worker, inputs built and GC forced before it: what a page or
   * server pays on its first tool call, before the JIT has compiled anything of the fold.
   */
  readonly coldMs: number;
  readonly timesMs: number[];
  readonly allocatedBytes: number[];
  readonly allocationGcs: number[];
  /**
   * Heap still used, after a full GC, by what `run` returned, over the heap before it ran:
   * median of `retainedSamples` runs (one run can be off by up to ~250 KiB when V8
   * drops internal caches during it).
   */
  readonly retainedBytes: number;
  readonly retainedSamples: number[];
  /**
   * The same runs measured before the inputs are dropped: heap used after a full GC with
   * the inputs and what `run` returned both reachable, over the heap with the inputs alone.
   * What the subject adds to inputs someone else still holds (median; then the samples).
   */
  readonly retainedOverInputsBytes: number;
  readonly retainedOverInputsSamples: number[];
  /** Peak RSS once the inputs were built, before the first run. */
  readonly inputsRssBytes: number;
  /** Peak RSS of the whole worker. */
  readonly peakRssBytes: number;
}

const keepAlive: unknown[] = [];
/** The last run's result, reachable through the next sample's forced GC (see above). */
const previousRun: { held: unknown } = { held: null };

export async function measure<Input, Held>(
  subject: Subject<Input, Held>,
  plan: SamplePlan,
): Promise<WorkerReport> {
  const gc = collector();
  // Separate frames: an async function keeps its locals in a heap-allocated register file,
  // so inputs or results left in this frame would count against the retained heap.
  const samples = await sample(subject, plan, gc);
  const { allocatedBytes, allocationGcs } = samples;
  const retainedSamples: number[] = [];
  const retainedOverInputsSamples: number[] = [];
  for (let i = 0; i < Math.max(1, plan.retainedSamples); i++) {
    const run = await retained(subject, gc);
    retainedSamples.push(run.retainedBytes);
    retainedOverInputsSamples.push(run.retainedOverInputsBytes);
    allocatedBytes.push(run.allocatedBytes);
    allocationGcs.push(run.allocationGcs);
  }
  return {
    pid: process.pid,
    ...samples,
    retainedBytes: median(retainedSamples),
    retainedSamples,
    retainedOverInputsBytes: median(retainedOverInputsSamples),
    retainedOverInputsSamples,
    peakRssBytes: peakRss(),
  };
}

/** Timed samples of several subjects measured in one worker, interleaved. */
export interface PairedReport {
  readonly pid: number;
  /** One list of sample times per subject, in the order given. */
  readonly timesMs: number[][];
}

/**
 * Times several subjects in one process, one sample of each in turn, for ratios between
 * them (the same reader on two input sizes, say). Interleaving makes a slow spell of the
 * machine fall on every subject alike; separate workers run minutes apart, and on two
 * shared cores their medians drift by up to 1.5× on their own. Warm-up alternates too.
 */
export async function measurePaired<Input, Held>(
  subjects: readonly Subject<Input, Held>[],
  plan: Pick<SamplePlan, 'warmup' | 'warmupMs' | 'samples'>,
): Promise<PairedReport> {
  const gc = collector();
  const inputs = subjects.map((subject) => subject.build());
  gc();
  const warmupStart = performance.now();
  for (let i = 0; i < plan.warmup || performance.now() - warmupStart < plan.warmupMs; i++) {
    for (const [j, subject] of subjects.entries()) {
      const held = await subject.run(inputs[j] as Input);
      subject.check(inputs[j] as Input, held);
      previousRun.held = held;
    }
  }
  const timesMs = subjects.map((): number[] => []);
  for (let i = 0; i < plan.samples; i++) {
    for (const [j, subject] of subjects.entries()) {
      gc();
      const start = performance.now();
      const held = await subject.run(inputs[j] as Input);
      const elapsed = performance.now() - start;
      subject.check(inputs[j] as Input, held);
      timesMs[j]?.push(elapsed);
      previousRun.held = held;
    }
  }
  previousRun.held = null;
  return { pid: process.pid, timesMs };
}

async function sample<Input, Held>(
  subject: Subject<Input, Held>,
  plan: SamplePlan,
  gc: () => void,
): Promise<
  Pick<WorkerReport, 'coldMs' | 'timesMs' | 'allocatedBytes' | 'allocationGcs' | 'inputsRssBytes'>
> {
  const input = subject.build();
  gc();
  const inputsRssBytes = peakRss();

  const coldStart = performance.now();
  const first = await subject.run(input);
  const coldMs = performance.now() - coldStart;
  subject.check(input, first);
  previousRun.held = first;

  // TurboFan compiles on a background thread; on two busy cores a job can take tens of ms,
  // so warm-up lasts a minimum time as well as a minimum number of runs.
  const warmupStart = performance.now();
  for (let i = 0; i < plan.warmup || performance.now() - warmupStart < plan.warmupMs; i++) {
    const held = await subject.run(input);
    subject.check(input, held);
    previousRun.held = held;
  }

  const timesMs: number[] = [];
  for (let i = 0; i < plan.samples; i++) {
    gc();
    const start = performance.now();
    const held = await subject.run(input);
    const elapsed = performance.now() - start;
    subject.check(input, held);
    timesMs.push(elapsed);
    previousRun.held = held;
  }

  const allocatedBytes: number[] = [];
  const allocationGcs: number[] = [];
  for (let i = 0; i < plan.allocationSamples; i++) {
    gc();
    const { bytes, gcs, result } = await measureAllocation(() => subject.run(input));
    subject.check(input, result);
    allocatedBytes.push(bytes);
    allocationGcs.push(gcs);
    previousRun.held = result;
  }
  previousRun.held = null;
  return { coldMs, timesMs, allocatedBytes, allocationGcs, inputsRssBytes };
}

/**
 * Heap still used, after a full GC, by what one run returned, over the heap before its
 * inputs were built. The inputs are dropped once the run is over, so whatever the reader
 * keeps of them (its fragments, say) counts against it, as in a real stream where nobody
 * else holds the fragments. The run doubles as one more allocation sample.
 */
async function retained<Input, Held>(
  subject: Subject<Input, Held>,
  gc: () => void,
): Promise<{
  retainedBytes: number;
  retainedOverInputsBytes: number;
  allocatedBytes: number;
  allocationGcs: number;
}> {
  gc();
  const before = usedHeap();
  const { held, bytes, gcs, overInputs } = await runDetached(subject, gc);
  keepAlive.push(held);
  gc();
  const retainedBytes = usedHeap() - before;
  keepAlive.length = 0;
  return {
    retainedBytes,
    retainedOverInputsBytes: overInputs,
    allocatedBytes: bytes,
    allocationGcs: gcs,
  };
}

async function runDetached<Input, Held>(
  subject: Subject<Input, Held>,
  gc: () => void,
): Promise<{ held: Held; bytes: number; gcs: number; overInputs: number }> {
  const input = subject.build();
  gc();
  const withInputs = usedHeap();
  const { bytes, gcs, result } = await measureAllocation(() => subject.run(input));
  subject.check(input, result);
  // Inputs and result both reachable: what the run adds to inputs someone else holds.
  keepAlive.push(input);
  gc();
  const overInputs = usedHeap() - withInputs;
  keepAlive.pop();
  return { held: result, bytes, gcs, overInputs };
}

function collector(): () => void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('benchmark workers need `node --expose-gc`');
  // Twice: the first full GC can leave objects that only die after weak callbacks run.
  return () => {
    gc();
    gc();
  };
}

function usedHeap(): number {
  return v8.getHeapStatistics().used_heap_size;
}

function peakRss(): number {
  return process.resourceUsage().maxRSS * 1024;
}
