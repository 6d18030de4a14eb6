/**
 * The differential test of the live end (test/conversation/tail-differential.test.ts) on
 * more seeds, in Node only, with larger sessions: longer histories and more live steps.
 *
 * - `TAIL_SEEDS=2000 node --test .build/test/conversation/tail-differential.node.test.js` runs 2,000
 *   seeds from `TAIL_FROM` (default 1001) on.
 * - `TAIL_SEED=1234` runs that seed alone (a seed a failure printed; the shared test's seeds
 *   use the default sizes, so pass `TAIL_SIZE=small` for those).
 *
 * A failure prints its seed and a shrunk list of steps (push / prepend / reconnect / publish)
 * to replay with `check()` from test/conversation/support/tail-scenarios.ts.
 */
import { expect } from 'chai';
import { describe, it } from '../harness.js';
import { check, report, scenario } from './support/tail-scenarios.js';

const env = process.env;
const single = env.TAIL_SEED === undefined ? undefined : Number(env.TAIL_SEED);
const from = single ?? Number(env.TAIL_FROM ?? 1001);
const count = single === undefined ? Number(env.TAIL_SEEDS ?? 2) : 1;
const small = env.TAIL_SIZE === 'small';

describe('incremental publication equals a full rebuild on more seeds (Node)', () => {
  it(`seeds ${from}..${from + count - 1}: every publication equals a rebuild, unchanged nodes shared`, async () => {
    let publications = 0;
    for (let seed = from; seed < from + count; seed++) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      const steps = small ? scenario(seed) : scenario(seed, 260, 170);
      const outcome = check(steps);
      if ('failure' in outcome) expect.fail(report(seed, steps));
      publications += outcome.publications;
    }
    expect(publications).to.be.greaterThan(count * 40);
  });
});
