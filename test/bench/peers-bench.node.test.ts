/**
 * `npm run bench:peers` at a tiny size, in process, one round: every contestant runs its
 * client over the wire and ends with every call's whole content, so the benchmark cannot rot
 * between runs. Nothing here is timed.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { CONTESTANTS, type Contestant } from '../../bench/peers/contestants.js';
import {
  floorLines,
  measureOnce,
  peersGoals,
  peersTable,
  runPeers,
} from '../../bench/peers/harness.js';
import { expectedOf, scenarioById } from '../../bench/peers/streams.js';

describe('bench:peers harness', () => {
  it('runs every contestant on a 1 KiB write and a 3-call session, and tables a row for each', async () => {
    const result = await runPeers({
      sizes: [1],
      sessionCalls: 3,
      rounds: 1,
      limitS: 60,
      script: fileURLToPath(import.meta.url),
      inProcess: true,
      progress: () => {},
    });
    assert.deepEqual(result.scenarios, ['write-1', 'session-3']);
    const table = peersTable(result).split('\n');
    for (const contestant of CONTESTANTS) {
      assert.equal(table.filter((line) => line.startsWith(contestant.name)).length, 1);
    }
    for (const cell of result.cells) {
      assert.equal(cell.over, undefined, `${cell.contestant.name} on ${cell.scenario}`);
      assert.equal(cell.samples.length, 1);
    }
    assert.equal(peersGoals(result).length, CONTESTANTS.filter(isPeer).length);
    // The floor has a line per scenario, set against callfold and the peer on its wire.
    const floor = floorLines(result);
    assert.equal(floor.length, 2);
    for (const line of floor) assert.match(line, /callfold \(ui-sse\).*assistant-stream/);
  });

  it("callfold's reads on every wire, and the floor's, see each call's whole content and its path", async () => {
    const scenario = 'session-3';
    const expected = expectedOf(scenarioById(scenario));
    for (const contestant of CONTESTANTS.filter((c) => !isPeer(c))) {
      const { outcome } = await measureOnce(contestant, scenario);
      assert.equal(outcome.calls, 3, contestant.name);
      assert.equal(outcome.contentLength, expected.contentLength, contestant.name);
      assert.equal(outcome.path, expected.path, contestant.name);
      assert.ok(outcome.reads >= 3, `${contestant.name} read ${outcome.reads} times`);
    }
  });

  it('a contestant that misses part of the content fails its run (negative control of the check)', async () => {
    const honest = CONTESTANTS.find((c) => c.name === 'callfold (ui)') as Contestant;
    const short: Contestant = {
      ...honest,
      prepare(scenario) {
        const run = honest.prepare(scenario);
        return async () => {
          const outcome = await run();
          return { ...outcome, contentLength: outcome.contentLength - 1 };
        };
      },
    };
    await assert.rejects(measureOnce(short, 'write-1'), /expected/);
  });
});

/** A peer's client (the goals' rows): not callfold, not the floor. */
function isPeer(contestant: Contestant): boolean {
  return !contestant.name.startsWith('callfold') && !contestant.name.startsWith('floor');
}
