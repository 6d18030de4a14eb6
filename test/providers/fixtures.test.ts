import { expect } from 'chai';
import { Assembler } from '../../src/conversation/assembler.js';
import type { AssistantNode } from '../../src/definitions/assistant-definition.js';
import type { CallfoldEvent, ToolUseBlock } from '../../src/events/types.js';
import { describe, it } from '../harness.js';
import { fixedSession, providerCases } from './support/cases.js';
import {
  asyncIterable,
  bytePieces,
  byteStream,
  collect,
  loadFixture,
  sdkChunks,
} from './support/fixtures.js';
import { checkInvariants } from './support/invariants.js';

for (const { provider, adapter, interleaved } of providerCases) {
  /** The fixture read through the SDK-object path, with a deterministic session. */
  const fromSdk = async () => {
    const { sse } = await loadFixture(provider);
    return collect(adapter(asyncIterable(sdkChunks(sse)), { session: fixedSession() }));
  };

  describe(`${provider}: recorded stream`, () => {
    it('emits each attempt’s assistant/message with the recorded blocks, then its tool/calls, then settle', async () => {
      const { expected } = await loadFixture(provider);
      const { events, error, completed } = await fromSdk();
      expect(error).to.equal(undefined);
      expect(completed).to.equal(true);
      checkInvariants(events, { exact: true });

      const messages = events.filter((e) => e.type === 'assistant/message');
      expect(messages.map((m) => m.blocks)).to.deep.equal(expected.attempts.map((a) => a.blocks));
      expect(messages.every((m) => m.messageId === expected.messageId)).to.equal(true);

      for (const message of messages) {
        const at = events.indexOf(message);
        const uses = message.blocks.filter((b): b is ToolUseBlock => b.type === 'tool-use');
        const after = events.slice(at + 1, at + 2 + uses.length);
        expect(after.map((e) => e.type)).to.deep.equal([
          ...uses.map(() => 'tool/call'),
          'stream/settle',
        ]);
        expect(after.slice(0, -1)).to.deep.include.members(
          uses.map((use) => ({
            type: 'tool/call',
            callId: use.callId,
            name: use.name,
            args: use.argsText,
            seq: (
              after.find((e) => e.type === 'tool/call' && e.callId === use.callId) as {
                seq: number;
              }
            ).seq,
            at: 0,
          })),
        );
      }
      const results = events.filter((e) => e.type === 'tool/result');
      expect(results.map((r) => ({ callId: r.callId, output: r.output }))).to.deep.equal(
        expected.results,
      );
    });

    it('shows every call by name before any of its arguments, with the provider’s id as callId', async () => {
      const { expected } = await loadFixture(provider);
      const { events } = await fromSdk();
      const firsts = new Map<string, CallfoldEvent>();
      for (const e of events) {
        if (e.type === 'stream/tool-call-delta' && !firsts.has(e.callId)) firsts.set(e.callId, e);
      }
      const uses = expected.attempts.flatMap((a) =>
        a.blocks.filter((b): b is ToolUseBlock => b.type === 'tool-use'),
      );
      expect([...firsts.keys()]).to.deep.equal(uses.map((u) => u.callId));
      for (const use of uses) {
        expect(firsts.get(use.callId)).to.include({ name: use.name, args: '' });
      }
    });

    if (interleaved) {
      it('keeps interleaved parallel calls apart', async () => {
        const { events } = await fromSdk();
        const order = events
          .filter((e) => e.type === 'stream/tool-call-delta')
          .map((e) => e.callId)
          .filter((id, i, all) => i === 0 || all[i - 1] !== id);
        const [a, b] = [order[0], order[1]];
        expect(
          order.indexOf(a as string, 2),
          'the first call resumes after the second',
        ).to.be.above(1);
        expect(b).to.not.equal(a);
      });
    }

    it('gives the same events from raw SSE bytes cut anywhere (inside UTF-8 sequences too)', async () => {
      const { sse } = await loadFixture(provider);
      const { events: reference } = await fromSdk();
      for (const [seed, max] of [
        [1, 7],
        [2, 64],
        [3, 4096],
        [4, 1 << 16],
      ] as const) {
        const stream = byteStream(bytePieces(sse, seed, max));
        const { events, error } = await collect(adapter(stream, { session: fixedSession() }));
        expect(error).to.equal(undefined);
        expect(events, `seed ${seed}, pieces up to ${max} bytes`).to.deep.equal(reference);
      }
    });

    it('reads a fetch Response, the SSE text as one string, and an array of chunk objects', async () => {
      const { sse } = await loadFixture(provider);
      const { events: reference } = await fromSdk();
      const response = new Response(byteStream(bytePieces(sse, 5, 512)));
      const inputs = [response, sse, sdkChunks(sse)];
      for (const input of inputs) {
        const { events } = await collect(adapter(input, { session: fixedSession() }));
        expect(events).to.deep.equal(reference);
      }
    });

    it('folds into the expected Conversation, with preparing rows named mid-stream', async () => {
      const { expected } = await loadFixture(provider);
      const { events } = await fromSdk();
      const uses = expected.attempts.flatMap((a) =>
        a.blocks.filter((b): b is ToolUseBlock => b.type === 'tool-use'),
      );
      const write = uses.find((u) => u.name === 'Write') as ToolUseBlock;
      const writeDeltas = events.flatMap((e, i) =>
        e.type === 'stream/tool-call-delta' && e.callId === write.callId ? [i] : [],
      );
      const halfway = writeDeltas[Math.floor(writeDeltas.length / 2)] as number;

      const assembler = new Assembler({ now: () => 0 });
      assembler.push(events.slice(0, halfway + 1));
      const live = assembler.publish();
      const row = live.tools.get(write.callId);
      expect(row?.stage).to.equal('preparing');
      expect(row?.name).to.equal('Write');
      expect(row?.args.text('file_path')).to.equal('src/greetings/table.ts');
      const streamed = row?.args.stringLength('content') ?? 0;
      const content = (JSON.parse(write.argsText) as { content: string }).content;
      expect(streamed).to.be.within(1, content.length - 1);
      for (const use of uses.slice(0, uses.indexOf(write))) {
        expect(live.tools.get(use.callId)?.name).to.equal(use.name);
      }

      assembler.push(events.slice(halfway + 1));
      const final = assembler.publish();
      const answered = new Set(expected.results.map((r) => r.callId));
      expect([...final.tools.keys()]).to.have.members(uses.map((u) => u.callId));
      for (const use of uses) {
        const node = final.tools.get(use.callId);
        expect(node?.stage).to.equal(answered.has(use.callId) ? 'result' : 'start');
        expect(node?.name).to.equal(use.name);
        expect(node?.argsRaw).to.equal(use.argsText);
      }
      expect(final.tools.get(write.callId)?.args.stringLength('content')).to.equal(content.length);
      const assistants = final.items.filter((i): i is AssistantNode => i.kind === 'assistant');
      const texts = expected.attempts.map((a) =>
        a.blocks.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n\n'),
      );
      expect(assistants.map((a) => a.text)).to.deep.equal(texts.filter((t) => t !== ''));
      expect(assistants.every((a) => a.stage === 'settled')).to.equal(true);
    });
  });
}
