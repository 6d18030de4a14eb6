/**
 * The incremental publication path against a full rebuild, on random sessions that stress
 * the live end (see support/tail-scenarios.ts): after every publication, the Conversation
 * equals that of a fresh Assembler given the same events in one push, and what did not
 * change is the same object as in the publication before (nodes, groups, items, the tools
 * map, `keptEnds`).
 *
 * More seeds: `TAIL_SEEDS=2000 node --test .build/test/conversation/tail-differential.node.test.js` (the
 * Node-only variant; CONTRIBUTING.md). A failure prints its seed and a shrunk list of steps
 * to replay with `check()`.
 */
import { expect } from 'chai';
import { NodeAssembler } from '../../src/assembler/node-assembler.js';
import { assemblerProbe } from '../../src/assembler/probe.js';
import type { Conversation, ConversationNode } from '../../src/conversation/conversation.js';
import { definitionsWithTurns } from '../../src/conversation/turns.js';
import type { AssistantNode } from '../../src/definitions/assistant-definition.js';
import type { TurnNode } from '../../src/definitions/turn-definition.js';
import type { CallfoldEvent, SessionEvent } from '../../src/events/types.js';
import { Builder, type ListChanges } from '../../src/groups/builder.js';
import {
  call,
  message,
  result,
  settle,
  settledLog,
  textDelta,
  toolDelta,
} from '../assembler/support/events.js';
import { describe, it } from '../harness.js';
import {
  type Checked,
  check,
  type Publisher,
  reference,
  report,
  type Step,
  scenario,
} from './support/tail-scenarios.js';

/** Seeds every runtime checks; the Node-only variant runs more. */
const SEEDS = 12;

/**
 * A response (text, one call) that starts, then `later` programmatic calls, then its records
 * and its settle: at the settle its two Contexts move from `later + 2` Contexts before the end
 * to the end.
 */
function settleFarBack(later: number): Step[] {
  const log: SessionEvent[] = settledLog(20);
  let seq = log.length + 1;
  const calls: SessionEvent[] = [];
  for (let i = 0; i < later; i++) {
    calls.push(call(seq++, `p${i}`, 'Read', `{"file_path":"/p${i}.ts"}`));
    if (i % 2 === 0) calls.push(result(seq++, `p${i}`, 'ok'));
  }
  const args = '{"file_path":"/x.ts"}';
  const live: CallfoldEvent[] = [
    textDelta('x', 0, 'Reading'),
    toolDelta('x', 1, 'cx', args, 'Read'),
  ];
  return [
    { kind: 'push', events: log },
    { kind: 'publish' },
    { kind: 'push', events: live },
    { kind: 'publish' },
    { kind: 'push', events: calls },
    { kind: 'publish' },
    {
      kind: 'push',
      events: [
        message(seq++, 'x', [
          { type: 'text', text: 'Reading' },
          { type: 'tool-use', callId: 'cx', name: 'Read', argsText: args },
        ]),
        call(seq++, 'cx', 'Read', args),
      ],
    },
    { kind: 'publish' },
    { kind: 'push', events: [settle('x')] },
    { kind: 'publish' },
  ];
}

describe('incremental publication equals a full rebuild on adversarial live-end orders', () => {
  it(`every publication of ${SEEDS} seeded sessions (history pages, interleaved attempts, late results, settles far back, aborts, odd events) equals a rebuild, with unchanged nodes shared`, async () => {
    const total: Checked = { publications: 0, events: 0, maxTools: 0, relisted: 0, repaired: 0 };
    for (let seed = 1; seed <= SEEDS; seed++) {
      // A task between seeds: each Assembler's clock is cleared by a microtask, which holds it.
      await new Promise((resolve) => setTimeout(resolve, 0));
      const steps = scenario(seed);
      const outcome = check(steps);
      if ('failure' in outcome) expect.fail(report(seed, steps));
      total.publications += outcome.publications;
      total.relisted += outcome.relisted;
      total.repaired += outcome.repaired;
    }
    expect(total.publications).to.be.greaterThan(SEEDS * 40);
    // The sessions reach the incremental paths, not only full rebuilds: most publications are
    // patched, and a share of them put moved Contexts back in order.
    expect(total.relisted).to.be.lessThan(total.publications / 4);
    expect(total.repaired).to.be.greaterThan(SEEDS * 3);
  });

  it('settles 58–70 Contexts from the end, both sides of the tail repair’s 64, equal a rebuild; the repair takes those within 64 and a full sort the rest', () => {
    for (let later = 58; later <= 70; later++) {
      const steps = settleFarBack(later);
      const outcome = check(steps);
      if ('failure' in outcome) expect.fail(report(later, steps));
      // The settle's publication, counted on its own.
      const assembler = reference();
      for (const step of steps.slice(0, -2)) {
        if (step.kind === 'push') assembler.push(step.events);
        else if (step.kind === 'publish') assembler.publish();
      }
      assembler.push(settle('x'));
      const listed = assemblerProbe.listed;
      assembler.publish();
      const sorted = assemblerProbe.listed > listed;
      // The response's two Contexts are `later + 2` from the end.
      expect(sorted, `${later} calls after the response`).to.equal(later + 2 > 64);
    }
  });

  it('(negative control) a compose step that loses the replaced indexes publishes stale nodes: the check fails on the first seeds, and the report shrinks the steps', () => {
    const make = composing((builder, nodes, changes) =>
      builder.build(nodes, changes && { ...changes, replaced: [] }),
    );
    const seed = firstFailing(make);
    expect(seed, 'a seed among the first 4 fails').to.not.equal(undefined);
    const steps = scenario(seed as number);
    const printed = report(seed as number, steps, make, 60);
    expect(printed).to.match(new RegExp(`^seed ${seed}: `));
    expect(printed).to.not.contain('(the shrunk steps pass)');
  });

  it('(negative control) a compose step that groups every publication afresh equals a rebuild but shares nothing: the sharing check fails on the first seeds', () => {
    const make = composing((_, nodes) => new Builder<AssistantNode | TurnNode>().build(nodes));
    const seed = firstFailing(make);
    expect(seed).to.not.equal(undefined);
    const outcome = check(scenario(seed as number), make);
    expect('failure' in outcome && outcome.failure).to.match(
      /new object|replaced|new array|new map/,
    );
  });
});

type Compose = (
  builder: Builder<AssistantNode | TurnNode>,
  nodes: readonly ConversationNode<TurnNode>[],
  changes?: ListChanges,
) => Conversation<TurnNode>;

/** A NodeAssembler whose compose step is `compose` over one Builder (a broken composition). */
function composing(compose: Compose): () => Publisher {
  return () => {
    const builder = new Builder<AssistantNode | TurnNode>();
    return new NodeAssembler<ConversationNode<TurnNode>, Conversation<TurnNode>>({
      definitions: definitionsWithTurns,
      compose: (nodes, changes) => compose(builder, nodes, changes),
      now: () => 0,
    }) as unknown as Publisher;
  };
}

function firstFailing(make: () => Publisher): number | undefined {
  for (let seed = 1; seed <= 4; seed++) if ('failure' in check(scenario(seed), make)) return seed;
  return undefined;
}
