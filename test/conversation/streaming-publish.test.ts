/**
 * A publication while one call streams in a long session costs what changed, not the whole
 * session: the Assembler hands its compose step the indexes of the replaced nodes, and the
 * Builder patches the live group and the tools map. Work is counted (nodes the Builder
 * visited, map entries copied), never timed.
 */
import { expect } from 'chai';
import { NodeAssembler } from '../../src/assembler/node-assembler.js';
import { Assembler, defaultDefinitions } from '../../src/conversation/assembler.js';
import type { Conversation, ConversationNode } from '../../src/conversation/conversation.js';
import type { AssistantNode } from '../../src/definitions/assistant-definition.js';
import type { CallfoldEvent } from '../../src/events/types.js';
import { Builder } from '../../src/groups/builder.js';
import { groupProbe } from '../../src/tools/probe.js';
import {
  conversationShape,
  NOW,
  settle,
  settledLog,
  toolDelta,
} from '../assembler/support/events.js';
import { describe, it } from '../harness.js';

/** `tools` settled calls in groups of 1–4 with assistant text between. */
const settled = settledLog;

/** A write streaming in 16-character fragments after the log, 64 fragments per publication. */
function* streaming(): Generator<CallfoldEvent[]> {
  const text = JSON.stringify({ file_path: '/src/live.ts', content: 'x'.repeat(16 * 1024) });
  const fragments: CallfoldEvent[] = [];
  for (let i = 0; i < text.length; i += 16) {
    fragments.push(
      toolDelta('live', 0, 'w1', text.slice(i, i + 16), i === 0 ? 'Write' : undefined),
    );
  }
  for (let i = 0; i < fragments.length; i += 64) yield fragments.slice(i, i + 64);
}

type Publisher = { push(e: CallfoldEvent | CallfoldEvent[]): void; publish(): Conversation };

/** Builder work per publication while the write streams (the row reads path and KiB). */
function workPerPublication(
  assembler: Publisher,
  tools: number,
): { composed: number[]; entries: number[] } {
  assembler.push(settled(tools));
  assembler.publish();
  const composed: number[] = [];
  const entries: number[] = [];
  for (const batch of streaming()) {
    assembler.push(batch);
    const before = [groupProbe.composed, groupProbe.toolEntries];
    const conversation = assembler.publish();
    composed.push(groupProbe.composed - (before[0] as number));
    entries.push(groupProbe.toolEntries - (before[1] as number));
    const node = conversation.tools.get('w1');
    node?.args.text('file_path');
    node?.args.stringLength('content', { step: 1024 });
  }
  return { composed, entries };
}

/** The default composition, with a compose step that ignores the `replaced` hint. */
function rebuilding(): Publisher {
  const builder = new Builder<AssistantNode>();
  return new NodeAssembler<ConversationNode, Conversation>({
    definitions: defaultDefinitions,
    compose: (nodes) => builder.build(nodes),
    now: () => NOW,
  });
}

const median = (list: readonly number[]) =>
  [...list].sort((a, b) => a - b)[list.length >> 1] as number;

describe('publishing while one call streams costs what changed', () => {
  it('with 2,000 settled tools, a publication visits the live group and copies a few map entries', () => {
    const { composed, entries } = workPerPublication(new Assembler({ now: () => NOW }), 2_000);
    expect(median(composed)).to.be.at.most(8);
    expect(median(entries)).to.be.at.most(2 * Math.sqrt(2_000));
    const small = workPerPublication(new Assembler({ now: () => NOW }), 100);
    expect(median(composed)).to.be.at.most(median(small.composed) + 4);
  });

  it('(negative control) a compose step that ignores the hint visits every tool at every publication', () => {
    const { composed, entries } = workPerPublication(rebuilding(), 2_000);
    expect(median(composed)).to.be.at.least(2_000);
    expect(median(entries)).to.be.at.least(2_000);
  });

  it('patched publications equal rebuilt ones, and unchanged tools and groups stay the same objects', () => {
    const patched = new Assembler({ now: () => NOW });
    const rebuilt = rebuilding();
    const log = settled(40);
    for (const a of [patched, rebuilt]) a.push(log.slice(0, 60));
    let previous = patched.publish();
    let step = 0;
    for (const batch of streaming()) {
      step++;
      for (const a of [patched, rebuilt]) {
        a.push(batch);
        if (step === 5) a.push(log.slice(60));
        if (step === 9) a.push([settle('live')]);
      }
      const [p, r] = [patched.publish(), rebuilt.publish()];
      for (const c of [p, r]) c.tools.get('w1')?.args.stringLength('content', { step: 1024 });
      expect(conversationShape(p)).to.deep.equal(conversationShape(r));
      if (step === 5 || step === 9) {
        previous = p; // the rest of the log, and the withdrawal, change other items on purpose
        continue;
      }
      for (const [callId, tool] of previous.tools) {
        if (callId !== 'w1' && p.tools.has(callId)) expect(p.tools.get(callId)).to.equal(tool);
      }
      for (const [i, item] of p.items.entries()) {
        const live = item.kind === 'group' && item.tools.some((t) => t.callId === 'w1');
        if (!live && i < previous.items.length) expect(item).to.equal(previous.items[i]);
      }
      previous = p;
    }
    expect(step).to.be.greaterThan(10);
  });
});
