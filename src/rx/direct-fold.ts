import { assemblerProbe } from '../assembler/probe.js';
import { Assembler, type AssemblerOptions } from '../conversation/assembler.js';
import type { StreamedBlock } from '../direct/direct-events.js';
import { vouchJoined } from '../direct/joined-ends.js';
import type { BlockEndEvent, CallfoldEvent } from '../events/types.js';
import { parseEvent } from '../events/validate.js';
import type { KindedNode } from '../groups/builder.js';
import { DEV_MODE } from '../internal/dev-mode.js';

/**
 * The Assembler of `assemble()` over a direct source (an adapter: see `DirectEvents`), and
 * how it folds that source's events between two publications (docs/decisions/0009-direct-adapter-fold.md,
 * docs/decisions/0010-one-copy-of-streamed-text.md):
 *
 * 1. Every event is validated (`parseEvent`) before it is folded, except the continuations
 *    (`EventSink.continuation`) of a block whose delta was validated once: the source
 *    builds every delta of a block with the same fields, and only its string `args` or
 *    `text` is new.
 * 2. The clock is read at most once per provider chunk, when the chunk first folds something:
 *    the events of one chunk arrived together and share that time.
 * 3. The continuations of a block are a run: nothing is done per continuation (the source
 *    writes none while the run is held: `StreamedBlock.held`). Several blocks may hold a run
 *    at once (parallel calls whose deltas interleave, chunk by chunk), each folded as a
 *    few deltas whose `args` (or `text`) are the block's text cut since its run began
 *    (`StreamedBlock.pieces`: the block's own strings, one delta per batch of fragments,
 *    never copied into one), stamped with the time of its first chunk, in the order the runs
 *    began: before any other event is folded, and before every publication (`drain`). A
 *    reader may join fragments received between two reads anyway, and the blocks'
 *    Definitions are apart: only the number of deltas they see differs, never an answer, a
 *    node or a time.
 * 4. A block end the source vouches for (`EventSink.joinedEnd`) is marked for the Tool
 *    Definition (`vouchJoined`) once validated: every delta of its block was folded here.
 *
 * It folds what it validated itself through `pushChecked`, and publishes as any Assembler.
 */
export class DirectFold<Extra extends KindedNode = never> extends Assembler<Extra> {
  readonly #now: () => number;
  #at = 0;
  /** A chunk arrived since the clock was read. */
  #stale = true;
  /** Blocks whose delta passed validation: their continuations need none. */
  readonly #valid = new WeakSet<StreamedBlock>();
  /** The blocks whose runs are held, in the order their runs began, and each run's time. */
  readonly #runs: StreamedBlock[] = [];
  readonly #runTimes: number[] = [];

  /** As `Assembler`'s; `now` is read once per provider chunk (see 2. above). */
  constructor(options: AssemblerOptions<Extra> = {}) {
    super(options);
    this.#now = options.now ?? Date.now;
  }

  /** A provider chunk begins. */
  chunk(): void {
    this.#stale = true;
  }

  /** Validates and folds `event`. Throws an EventError, folding nothing of it, when it is malformed. */
  event(event: CallfoldEvent): void {
    this.drain();
    if (DEV_MODE) assemblerProbe.validated++;
    parseEvent(event);
    this.pushChecked(event, this.#time());
  }

  /** Folds a block end whose text is its block's deltas joined (see `EventSink`). */
  joinedEnd(event: BlockEndEvent): void {
    this.drain();
    if (DEV_MODE) assemblerProbe.validated++;
    parseEvent(event);
    vouchJoined(event);
    this.pushChecked(event, this.#time());
  }

  /**
   * Takes a continuation (see `EventSink`): starts a run of its block, which the other
   * blocks' runs do not end. The first continuation of a block not validated yet is
   * validated and folded alone (after the runs held); a malformed one throws an EventError,
   * its text cut and dropped.
   */
  continuation(block: StreamedBlock, fragment: string): void {
    if (DEV_MODE) assemblerProbe.continuations++;
    if (block.held) return;
    if (!this.#valid.has(block)) {
      const event = block.delta(block.cut());
      this.event(event);
      this.#valid.add(block);
      return;
    }
    if (fragment === '') return;
    // Until the run is cut, the source writes no more continuations of it: see `held`.
    block.held = true;
    this.#runs.push(block);
    this.#runTimes.push(this.#time());
  }

  /** Folds the runs held, if any, in the order they began. */
  drain(): void {
    if (this.#runs.length === 0) return;
    // Released before any is folded: if folding one throws, the text of those after it stays
    // in their blocks, for their next cut.
    const runs = this.#runs.splice(0);
    const times = this.#runTimes.splice(0);
    for (const run of runs) run.held = false;
    for (let i = 0; i < runs.length; i++) {
      const run = runs[i] as StreamedBlock;
      const at = times[i] as number;
      const pieces = run.pieces();
      if (pieces.length === 0) this.pushChecked(run.delta(''), at);
      // One delta per piece the block keeps: the reader keeps each piece as it is (a chunk of
      // its own: `ArgumentSource.join`), where one delta of the pieces joined would be copied
      // into one new string the first time the reader reads it.
      for (const piece of pieces) this.pushChecked(run.delta(piece), at);
    }
  }

  #time(): number {
    if (this.#stale) {
      this.#stale = false;
      this.#at = this.#now();
    }
    return this.#at;
  }
}
