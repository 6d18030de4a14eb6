/** Measures the work counters of PartialArguments around an operation. */
import { argumentProbe } from '../../../src/arguments/probe.js';

export interface Work<T> {
  result: T;
  /** Characters the boundary scanner indexed. */
  scanned: number;
  /** Raw characters string cursors walked. */
  decoded: number;
  /** Raw characters the scanner counted for a length being read, as it indexed them. */
  counted: number;
  /** Native JSON.parse calls. */
  parsed: number;
}

export function work<T>(run: () => T): Work<T> {
  const before = { ...argumentProbe };
  const result = run();
  return {
    result,
    scanned: argumentProbe.scanned - before.scanned,
    decoded: argumentProbe.decoded - before.decoded,
    counted: argumentProbe.counted - before.counted,
    parsed: argumentProbe.parsed - before.parsed,
  };
}
