/**
 * The incremental publication path against a full rebuild, on random sessions that stress
 * the live end (see support/tail-scenarios.ts): after every publication, the Conversation
 * equals that of a fresh Assembler given the same events in one push, and what did not
 * change is the same object as in the publication before.
 *
 * More seeds: `TAIL_SEEDS=2000 node --test .build/test/node/tail-differential.test.js` (the
 * Node-only variant; `TAIL_SEED=1234` runs that one seed). A failure prints its seed and a
 * shrunk list of steps to replay.
 */
import { expect } from 'chai';
import { describe, it } from '../harness.js';
import { check, report, scenario } from './support/tail-scenarios.js';

/** Seeds every runtime checks; the Node-only variant runs more. */
const SEEDS = 12;

describe('incremental publication equals a full rebuild on adversarial live-end orders', () => {
  it(`every publication of ${SEEDS} seeded sessions (history pages, interleaved attempts, late results, settles far back, aborts, odd events) equals a rebuild, with unchanged nodes shared`, async () => {
    let publications = 0;
    for (let seed = 1; seed <= SEEDS; seed++) {
      // A task between seeds: each Assembler's clock is cleared by a microtask, which holds it.
      await new Promise((resolve) => setTimeout(resolve, 0));
      const steps = scenario(seed);
      const outcome = check(steps);
      if ('failure' in outcome) expect.fail(report(seed, steps));
      publications += outcome.publications;
    }
    expect(publications).to.be.greaterThan(SEEDS * 40);
  });
});
