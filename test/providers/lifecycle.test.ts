import { expect } from 'chai';
import { Assembler } from '../../src/conversation/assembler.js';
import type { CallfoldEvent } from '../../src/events/types.js';
import { ProviderStreamError } from '../../src/providers/provider-stream-error.js';
import { describe, it } from '../harness.js';
import { waitFor } from '../support/wait-for.js';
import { fixedSession, providerCases } from './support/cases.js';
import {
  asyncIterable,
  bytePieces,
  byteStream,
  collect,
  loadFixture,
  type ProviderName,
  sdkChunks,
} from './support/fixtures.js';
import { checkInvariants } from './support/invariants.js';

/** A mid-stream error event in each provider's own shape. */
const errorChunks: Record<ProviderName, unknown> = {
  'openai-chat-completions': { error: { message: 'Overloaded', type: 'server_error' } },
  'openai-responses': { type: 'error', code: 'server_error', message: 'Overloaded', param: null },
  'anthropic-messages': {
    type: 'error',
    error: { type: 'overloaded_error', message: 'Overloaded' },
  },
  'ai-sdk-ui-stream': { type: 'error', errorText: 'Overloaded' },
};

/** The durable records of attempt `attemptId`: its message, and tool/calls of its calls. */
const durable = (events: readonly CallfoldEvent[], attemptId: string) => {
  const calls = new Set(
    events.flatMap((e) =>
      e.type === 'stream/tool-call-delta' && e.attemptId === attemptId ? [e.callId] : [],
    ),
  );
  return events.filter(
    (e) =>
      (e.type === 'assistant/message' && e.attemptId === attemptId) ||
      (e.type === 'tool/call' && calls.has(e.callId)),
  );
};

for (const { provider, adapter } of providerCases) {
  /** The fixture's chunks and the position of the middle of the Write call's arguments. */
  const midWrite = async () => {
    const { sse, expected } = await loadFixture(provider);
    const chunks = sdkChunks(sse);
    const write = expected.attempts
      .flatMap((a) => a.blocks)
      .find((b) => b.type === 'tool-use' && b.name === 'Write');
    const marker = JSON.stringify(write?.type === 'tool-use' ? write.argsText.slice(200, 230) : '');
    const at = chunks.findIndex((c) => JSON.stringify(c).includes(marker.slice(1, 12)));
    return { sse, chunks, at: at + 40 };
  };

  describe(`${provider}: cut, failed and host-dispatched responses`, () => {
    it('settles a stream cut mid-call without durable records, then completes', async () => {
      const { chunks, at, sse } = await midWrite();
      const cut = await collect(
        adapter(asyncIterable(chunks.slice(0, at)), { session: fixedSession() }),
      );
      expect(cut.completed).to.equal(true);
      checkInvariants(cut.events);
      const last = cut.events.at(-1);
      expect(last?.type).to.equal('stream/settle');
      const attemptId = (last as { attemptId: string }).attemptId;
      expect(
        cut.events.some((e) => 'attemptId' in e && e.attemptId === attemptId && 'seq' in e),
      ).to.equal(false);
      expect(
        cut.events.filter((e) => e.type === 'stream/settle' && e.attemptId === attemptId),
      ).to.have.length(1);

      // The same cut as bytes: the body ends inside a chunk.
      const bytes = new TextEncoder().encode(sse);
      const half = bytePieces(sse, 9, 1000);
      let size = 0;
      const pieces = half.filter((p) => (size += p.length) < bytes.length * 0.6);
      const raw = await collect(adapter(byteStream(pieces), { session: fixedSession() }));
      expect(raw.completed).to.equal(true);
      expect(raw.events.at(-1)?.type).to.equal('stream/settle');
      expect(raw.events.filter((e) => e.type === 'stream/settle')).to.have.length(
        provider === 'ai-sdk-ui-stream' ? 2 : 1,
      );
    });

    it('withdraws the cut attempt’s preparing rows from an Assembler', async () => {
      const { chunks, at } = await midWrite();
      const { events } = await collect(adapter(chunks.slice(0, at), { session: fixedSession() }));
      const assembler = new Assembler({ now: () => 0 });
      assembler.push(events.slice(0, -1));
      const live = assembler.publish();
      expect(
        [...live.tools.values()].some((t) => t.stage === 'preparing' && t.name === 'Write'),
      ).to.equal(true);
      assembler.push(events.slice(-1));
      const after = assembler.publish();
      expect([...after.tools.values()].every((t) => t.stage !== 'preparing')).to.equal(true);
    });

    it('settles, then fails with a ProviderStreamError, on the provider’s error event', async () => {
      const { chunks, at } = await midWrite();
      const input = [...chunks.slice(0, at), errorChunks[provider], ...chunks.slice(at)];
      const { events, error } = await collect(adapter(input, { session: fixedSession() }));
      expect(error).to.be.instanceOf(ProviderStreamError);
      expect((error as ProviderStreamError).message).to.equal('Overloaded');
      expect((error as ProviderStreamError).provider).to.equal(provider);
      expect((error as ProviderStreamError).payload).to.deep.equal(errorChunks[provider]);
      const last = events.at(-1);
      expect(last?.type).to.equal('stream/settle');
      expect(durable(events, (last as { attemptId: string }).attemptId)).to.deep.equal([]);
      checkInvariants(events);
    });

    it('settles, then fails with the source’s own error when the source throws', async () => {
      const { chunks, at } = await midWrite();
      const failure = new Error('connection reset');
      async function* source() {
        yield* chunks.slice(0, at);
        throw failure;
      }
      const { events, error } = await collect(adapter(source(), { session: fixedSession() }));
      expect(error).to.equal(failure);
      expect(events.at(-1)?.type).to.equal('stream/settle');
      checkInvariants(events);
    });

    it('fails with the status on an HTTP error response, before reading its body', async () => {
      const response = new Response('{"error":"overloaded"}', { status: 529 });
      const { events, error } = await collect(adapter(response));
      expect(error).to.be.instanceOf(ProviderStreamError);
      expect((error as ProviderStreamError).status).to.equal(529);
      expect(events).to.deep.equal([]);
    });

    it('skips SSE data that is not JSON, reports it to onMalformed and completes', async () => {
      const reported: ProviderStreamError[] = [];
      const { events, error, completed } = await collect(
        adapter('data: {"type":\n\n', { onMalformed: (e) => reported.push(e) }),
      );
      expect(error).to.equal(undefined);
      expect(completed).to.equal(true);
      expect(reported).to.have.length(1);
      expect(reported[0]).to.be.instanceOf(ProviderStreamError);
      expect(reported[0]?.provider).to.equal(provider);
      expect(reported[0]?.payload).to.equal('{"type":');
      expect(events).to.deep.equal([]);
    });

    it('a garbage data: line between the parallel calls’ deltas: both calls still reach tool/call', async () => {
      const { sse, at } = await midWrite();
      const clean = await collect(adapter(sse, { session: fixedSession() }));
      const messages = sse.split('\n\n');
      // The garbage goes right after the message that holds chunk `at` (mid Write).
      let seen = 0;
      const index =
        messages.findIndex((m) => {
          const data = m.split('\n').find((line) => line.startsWith('data: '));
          return data !== undefined && data !== 'data: [DONE]' && seen++ === at;
        }) + 1;
      messages.splice(index, 0, 'data: {"choices":[{"delta": garbage!!');
      const reported: ProviderStreamError[] = [];
      const dirty = await collect(
        adapter(messages.join('\n\n'), {
          session: fixedSession(),
          onMalformed: (e) => reported.push(e),
        }),
      );
      expect(dirty.completed).to.equal(true);
      expect(reported).to.have.length(1);
      expect(reported[0]).to.be.instanceOf(ProviderStreamError);
      expect(reported[0]?.message).to.equal('SSE data is not JSON');
      const calls = dirty.events.filter((e) => e.type === 'tool/call');
      expect(calls.length).to.be.at.least(2);
      // Tool-call deltas come both before and after the garbage.
      const before = await collect(adapter(messages.slice(0, index).join('\n\n')));
      const deltas = (events: readonly CallfoldEvent[]) =>
        events.filter((e) => e.type === 'stream/tool-call-delta').length;
      expect(deltas(before.events)).to.be.above(0).and.below(deltas(clean.events));
      expect(dirty.events).to.deep.equal(clean.events);
      checkInvariants(dirty.events);
    });

    it('skips a chunk object that is not an object (a number, an array) and goes on', async () => {
      const { chunks, at } = await midWrite();
      const clean = await collect(adapter(chunks, { session: fixedSession() }));
      const reported: ProviderStreamError[] = [];
      const input = [...chunks.slice(0, at), 42, ['x'], ...chunks.slice(at)];
      const dirty = await collect(
        adapter(input, { session: fixedSession(), onMalformed: (e) => reported.push(e) }),
      );
      expect(reported.map((e) => e.payload)).to.deep.equal([42, ['x']]);
      expect(reported.every((e) => e instanceof ProviderStreamError)).to.equal(true);
      expect(dirty.events).to.deep.equal(clean.events);
    });

    it('by default warns on the console in one line, and goes on', async () => {
      const warnings: unknown[][] = [];
      const original = console.warn;
      console.warn = (...data: unknown[]) => void warnings.push(data);
      try {
        const { completed } = await collect(adapter('data: nope\n\n'));
        expect(completed).to.equal(true);
      } finally {
        console.warn = original;
      }
      expect(warnings).to.have.length(1);
      const line = String(warnings[0]?.[0]);
      expect(line).to.contain(provider).and.to.contain('malformed').and.to.contain('nope');
      expect(line).to.not.contain('\n');
    });

    it('fails after settling when onMalformed throws', async () => {
      const { chunks, at } = await midWrite();
      const input = [...chunks.slice(0, at), 'data: garbage\n\n', ...chunks.slice(at)];
      const { events, error } = await collect(
        adapter(input, {
          session: fixedSession(),
          onMalformed: (e) => {
            throw e;
          },
        }),
      );
      expect(error).to.be.instanceOf(ProviderStreamError);
      expect((error as ProviderStreamError).message).to.equal('SSE data is not JSON');
      const last = events.at(-1);
      expect(last?.type).to.equal('stream/settle');
      expect(durable(events, (last as { attemptId: string }).attemptId)).to.deep.equal([]);
      checkInvariants(events);
    });

    it('with dispatch: host, stops after the assistant/message; the host’s calls and settle keep the rows', async () => {
      const { sse } = await loadFixture(provider);
      const session = fixedSession();
      const assembler = new Assembler({ now: () => 0 });
      const all: CallfoldEvent[] = [];
      const take = (event: CallfoldEvent) => {
        all.push(event);
        assembler.push(event);
      };
      // The host acts as each assistant/message arrives, before the adapter numbers anything else.
      await new Promise<void>((resolve, reject) => {
        adapter(sse, { session, dispatch: 'host' }).subscribe({
          next(event) {
            try {
              expect(event.type).to.not.be.oneOf(['tool/call', 'tool/result', 'stream/settle']);
              take(event);
              if (event.type !== 'assistant/message') return;
              for (const block of event.blocks) {
                if (block.type === 'tool-use') {
                  take(session.call(block.callId, block.name, block.argsText));
                }
              }
              const tools = [...assembler.publish().tools.values()];
              expect(tools.filter((t) => t.stage === 'preparing')).to.have.length(0);
              take(session.settle(event.attemptId));
            } catch (error) {
              reject(error);
            }
          },
          error: reject,
          complete: resolve,
        });
      });
      checkInvariants(all, { exact: true });
      const tools = [...assembler.publish().tools.values()];
      expect(tools.length).to.be.above(2);
      expect(tools.every((t) => t.stage === 'start')).to.equal(true);
    });

    it('stops reading when unsubscribed: the body is cancelled and nothing more is emitted', async () => {
      const { sse } = await loadFixture(provider);
      const pieces = bytePieces(sse, 11, 256);
      let cancelled: unknown = 'not cancelled';
      let next = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          const piece = pieces[next++];
          if (piece) controller.enqueue(piece);
          else controller.close();
        },
        cancel(reason) {
          cancelled = reason;
        },
      });
      const events: CallfoldEvent[] = [];
      await new Promise<void>((resolve) => {
        const subscription = adapter(body).subscribe((event) => {
          events.push(event);
          if (events.length === 3) {
            subscription.unsubscribe();
            resolve();
          }
        });
      });
      await waitFor(() => cancelled !== 'not cancelled', 'the body cancelled');
      expect(events).to.have.length(3);
      expect(next).to.be.below(pieces.length);
    });

    it('numbers the durable events of runs that share a session in one sequence, one attemptId per run', async () => {
      const { sse } = await loadFixture(provider);
      const session = fixedSession();
      const first = await collect(adapter(sse, { session }));
      const result = session.result('x1', 'host output');
      const second = await collect(adapter(sse, { session, attemptId: 'chosen' }));
      const all = [...first.events, result, ...second.events];
      const seqs = all.flatMap((e) => ('seq' in e ? [e.seq] : []));
      expect(seqs).to.deep.equal(seqs.map((_, i) => i + 1));
      expect(result).to.deep.include({ type: 'tool/result', callId: 'x1', output: 'host output' });
      expect(second.events[0]).to.have.property('attemptId', 'chosen');
      expect(session.history()).to.deep.equal(all.filter((e) => 'seq' in e));
    });
  });
}
