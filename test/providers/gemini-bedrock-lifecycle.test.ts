/**
 * The lifecycle rules every adapter keeps (`AdapterOptions`), for fromGemini and
 * fromBedrockConverse: unsubscribing cancels the body's reader at once (even while a read is
 * pending) and emits nothing more; `dispatch: 'host'` stops after the message; a source that
 * throws settles the live attempt, then fails with its own error.
 */
import { expect } from 'chai';
import type { Subscription } from 'rxjs';
import type { CallfoldEvent } from '../../src/events/types.js';
import { fromBedrockConverse } from '../../src/providers/bedrock-converse.js';
import { fromGemini } from '../../src/providers/gemini.js';
import { describe, it } from '../harness.js';
import { type Adapter, fixedSession } from './support/cases.js';
import { collect } from './support/fixtures.js';
import { checkInvariants } from './support/invariants.js';
import { ofType } from './support/run.js';

const gemini = {
  adapter: fromGemini as Adapter,
  open: [
    {
      candidates: [
        { content: { parts: [{ functionCall: { name: 'write', willContinue: true } }] } },
      ],
    },
    {
      candidates: [
        {
          content: {
            parts: [
              {
                functionCall: {
                  partialArgs: [{ jsonPath: '$.content', stringValue: 'a', willContinue: true }],
                  willContinue: true,
                },
              },
            ],
          },
        },
      ],
    },
  ],
  close: [{ candidates: [{ content: { parts: [{ functionCall: {} }] }, finishReason: 'STOP' }] }],
  /** The same chunks as SSE bytes. */
  bytes: (chunks: readonly unknown[]) =>
    chunks.map((c) => new TextEncoder().encode(`data: ${JSON.stringify(c)}\n\n`)),
};
const bedrock = {
  adapter: fromBedrockConverse as Adapter,
  open: [
    {
      contentBlockStart: {
        contentBlockIndex: 0,
        start: { toolUse: { toolUseId: 't1', name: 'write' } },
      },
    },
    { contentBlockDelta: { contentBlockIndex: 0, delta: { toolUse: { input: '{"content":"a' } } } },
  ],
  close: [
    { contentBlockDelta: { contentBlockIndex: 0, delta: { toolUse: { input: '"}' } } } },
    { contentBlockStop: { contentBlockIndex: 0 } },
    { messageStop: { stopReason: 'tool_use' } },
  ],
  /** The SDK's objects, as a byte stream cannot be written here without the frame encoder. */
  bytes: (chunks: readonly unknown[]) => [...chunks],
};

for (const [name, { adapter, open, close, bytes }] of Object.entries({ gemini, bedrock })) {
  describe(`${name}: lifecycle`, () => {
    it('unsubscribing cancels the body at once, while a read is pending, and emits nothing more', async () => {
      let cancelled!: () => void;
      const cancel = new Promise<void>((resolve) => {
        cancelled = resolve;
      });
      const items = bytes(open);
      const body = new ReadableStream<unknown>({
        pull(controller) {
          const item = items.shift();
          if (item !== undefined) controller.enqueue(item);
          // Then never again: the read stays pending until the cancel.
        },
        cancel() {
          cancelled();
        },
      });
      const events: CallfoldEvent[] = [];
      let subscription: Subscription | undefined;
      const shown = new Promise<void>((resolve) => {
        subscription = adapter(body, { session: fixedSession() }).subscribe((event) => {
          events.push(event);
          if (event.type === 'stream/tool-call-delta') resolve();
        });
      });
      await shown;
      subscription?.unsubscribe();
      await cancel;
      // Nothing after the unsubscribe: not even the settle a cut stream would get.
      expect(events.some((e) => e.type === 'stream/settle')).to.equal(false);
    });

    it("dispatch: 'host' stops after the assistant/message", async () => {
      const { events } = await collect(
        adapter([...open, ...close], { session: fixedSession(), dispatch: 'host' }),
      );
      checkInvariants(events, { hostDispatch: true });
      expect(events.at(-1)?.type).to.equal('assistant/message');
      expect(ofType(events, 'tool/call')).to.have.length(0);
    });

    it('a source that throws: the live attempt settles, then the error passes unchanged', async () => {
      const failure = new Error('connection reset');
      async function* source() {
        yield* open;
        throw failure;
      }
      const { events, error } = await collect(adapter(source(), { session: fixedSession() }));
      expect(error).to.equal(failure);
      expect(events.at(-1)?.type).to.equal('stream/settle');
      checkInvariants(events);
    });
  });
}
