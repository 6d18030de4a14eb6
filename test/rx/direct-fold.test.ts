import { expect } from 'chai';
import fc from 'fast-check';
import {
  lastValueFrom,
  map,
  type Observable,
  type OperatorFunction,
  tap,
  VirtualTimeScheduler,
} from 'rxjs';
import { argumentProbe } from '../../src/arguments/probe.js';
import type { Definition } from '../../src/assembler/definition.js';
import { assemblerProbe } from '../../src/assembler/probe.js';
import { defaultDefinitions } from '../../src/conversation/assembler.js';
import type { Conversation } from '../../src/conversation/conversation.js';
import type { CallfoldEvent } from '../../src/events/types.js';
import type { EventError } from '../../src/events/validate.js';
import { TextBuffer } from '../../src/internal/text-buffer.js';
import type { AdapterOptions } from '../../src/providers/adapter-run.js';
import { fromAnthropicMessages } from '../../src/providers/anthropic-messages.js';
import { fromOpenAIChatCompletions } from '../../src/providers/openai-chat-completions.js';
import { type AssembleOptions, assemble } from '../../src/rx/assemble.js';
import { describe, it } from '../harness.js';
import { fixedSession } from '../providers/support/cases.js';

/** An Anthropic message: optional text, then a Write whose arguments come in `fragments`. */
function anthropicChunks(fragments: readonly string[], prose: readonly string[] = []): unknown[] {
  const chunks: unknown[] = [{ type: 'message_start', message: { id: 'msg_1', content: [] } }];
  if (prose.length > 0) {
    chunks.push({
      type: 'content_block_start',
      index: 0,
      content_block: { type: 'text', text: '' },
    });
    for (const text of prose) {
      chunks.push({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } });
    }
    chunks.push({ type: 'content_block_stop', index: 0 });
  }
  const index = prose.length > 0 ? 1 : 0;
  chunks.push({
    type: 'content_block_start',
    index,
    content_block: { type: 'tool_use', id: 'toolu_1', name: 'Write', input: {} },
  });
  for (const partial_json of fragments) {
    chunks.push({
      type: 'content_block_delta',
      index,
      delta: { type: 'input_json_delta', partial_json },
    });
  }
  chunks.push({ type: 'content_block_stop', index });
  chunks.push({ type: 'message_delta', delta: { stop_reason: 'tool_use' } });
  chunks.push({ type: 'message_stop' });
  return chunks;
}

/**
 * The chunks as an official SDK yields them: an async iterator, one chunk per microtask.
 * After each chunk in `turns`, `turn()` runs: the event loop turning between two network
 * reads, which runs what the publication scheduler holds.
 */
async function* sdkStream(
  chunks: readonly unknown[],
  turns: ReadonlySet<number> = new Set(),
  turn: () => void = () => {},
) {
  for (let i = 0; i < chunks.length; i++) {
    yield chunks[i];
    if (turns.has(i)) turn();
  }
}

function writeFragments(count: number): string[] {
  const content = 'x'.repeat(count * 16);
  const text = JSON.stringify({ file_path: '/src/a.ts', content });
  const fragments: string[] = [];
  for (let i = 0; i < text.length; i += 16) fragments.push(text.slice(i, i + 16));
  return fragments;
}

/** An operator that passes every event on unchanged: what turns the direct path off. */
const passOn: OperatorFunction<CallfoldEvent, CallfoldEvent> = map((event) => event);

interface Work {
  readonly received: number;
  readonly validated: number;
  readonly continuations: number;
  readonly clockTasks: number;
  readonly clockReads: number;
  readonly conversation: Conversation;
}

async function work(
  events: Observable<CallfoldEvent>,
  options: AssembleOptions = {},
): Promise<Work> {
  let clockReads = 0;
  const before = { ...assemblerProbe };
  const conversation = await lastValueFrom(
    events.pipe(assemble({ now: () => ++clockReads * 1000, ...options })),
  );
  return {
    received: assemblerProbe.received - before.received,
    validated: assemblerProbe.validated - before.validated,
    continuations: assemblerProbe.continuations - before.continuations,
    clockTasks: assemblerProbe.clockTasks - before.clockTasks,
    clockReads,
    conversation,
  };
}

/** What a row and the groups show of a Conversation, answers read as a row reads them. */
function seen(conversation: Conversation): unknown {
  return {
    items: conversation.items.map((item) =>
      item.kind === 'group'
        ? { kind: item.kind, summary: item.summary, detail: item.detail }
        : { kind: item.kind, text: item.text, stage: item.stage },
    ),
    tools: [...conversation.tools.values()].map((node) => ({
      callId: node.callId,
      name: node.name,
      stage: node.stage,
      argsRaw: node.argsRaw,
      path: node.args.text('file_path'),
      length: node.args.stringLength('content'),
      closed: node.args.closed(),
      startedAt: node.startedAt,
      firstTokenAt: node.firstTokenAt,
    })),
  };
}

describe('assemble() over an adapter (the direct path)', () => {
  it('folds a long call as a few runs: validation, clock and continuations written do not grow with its deltas, folded events only by one per batch of 256 (negative control: an operator between them folds every delta)', async () => {
    const deltas = 2_000;
    const chunks = anthropicChunks(writeFragments(deltas));
    const direct = await work(
      fromAnthropicMessages(sdkStream(chunks), { session: fixedSession() }),
    );
    const control = await work(
      fromAnthropicMessages(sdkStream(chunks), { session: fixedSession() }).pipe(passOn),
    );

    expect(seen(direct.conversation)).to.deep.equal(seen(control.conversation));
    expect(direct.conversation.tools.get('toolu_1')?.stage).to.equal('start');

    // The direct path: the first delta, the run of the others (a delta per batch the adapter
    // flattened), the block end, the records.
    expect(direct.received).to.be.below(10 + deltas / TextBuffer.BATCH);
    // The adapter writes a run's first continuation only: the others it appends (`held`).
    expect(direct.continuations).to.be.below(10);
    expect(direct.validated).to.be.below(10);
    expect(direct.clockReads).to.be.below(10);
    expect(direct.clockTasks).to.equal(0);
    // The control, over the same chunks: every delta folded, validated, and a clock task per chunk.
    expect(control.received).to.be.at.least(deltas);
    expect(control.validated).to.be.at.least(deltas);
    expect(control.clockTasks).to.be.at.least(deltas);
  });

  it("keeps one copy of a call's text: the block end and the call record seal the streamed reader without comparing a character (negative control: through an operator, the whole text is compared)", async () => {
    const fragments = writeFragments(500);
    const text = fragments.join('');
    const chunks = anthropicChunks(fragments);
    const compared = async (events: Observable<CallfoldEvent>) => {
      const before = argumentProbe.compared;
      const { conversation } = await work(events);
      return { compared: argumentProbe.compared - before, conversation };
    };
    const direct = await compared(
      fromAnthropicMessages(sdkStream(chunks), { session: fixedSession() }),
    );
    const control = await compared(
      fromAnthropicMessages(sdkStream(chunks), { session: fixedSession() }).pipe(passOn),
    );
    expect(seen(direct.conversation)).to.deep.equal(seen(control.conversation));
    expect(direct.conversation.tools.get('toolu_1')?.argsRaw).to.equal(text);
    expect(direct.compared).to.equal(0);
    expect(control.compared).to.be.at.least(text.length);
  });

  // Failed before: one delta of 16,000 characters for the run, which the reader flattened into a copy.
  it("hands the reader the adapter's own batches, one delta each, never the run joined into one string (negative control: through an operator, every 16-character delta)", async () => {
    const deltas = 1_000;
    const fragments = writeFragments(deltas);
    const chunks = anthropicChunks(fragments);
    /** A Definition that only records the length of each tool-call delta's arguments. */
    const spy = (lengths: number[]): Definition<never, never> => ({
      name: 'spy',
      match(event) {
        if (event.type === 'stream/tool-call-delta') lengths.push(event.args.length);
      },
      start: () => {
        throw new Error('never started');
      },
      update: (state) => state,
      build: () => undefined,
    });
    const folded = async (events: Observable<CallfoldEvent>) => {
      const lengths: number[] = [];
      const { conversation } = await work(events, {
        definitions: [...defaultDefinitions, spy(lengths)],
      });
      return { lengths, conversation };
    };
    const direct = await folded(
      fromAnthropicMessages(sdkStream(chunks), { session: fixedSession() }),
    );
    const control = await folded(
      fromAnthropicMessages(sdkStream(chunks), { session: fixedSession() }).pipe(passOn),
    );
    expect(seen(direct.conversation)).to.deep.equal(seen(control.conversation));
    const batch = TextBuffer.BATCH * 16;
    // The call shown (no text yet), its first fragment (validated alone), then the run: every
    // batch of 256 fragments, then the rest.
    expect(direct.lengths).to.deep.equal([
      0,
      16,
      ...Array(Math.floor((deltas - 1) / TextBuffer.BATCH)).fill(batch),
      fragments.slice(1).join('').length % batch,
    ]);
    expect(control.lengths.length).to.equal(fragments.length + 1);
  });

  it('gives the times the ordinary path gives: a chunk is stamped when it arrives', async () => {
    const chunks = anthropicChunks(writeFragments(50));
    // The host dispatches: no settle, so the node keeps the times of its live events.
    const options = (): AdapterOptions => ({ session: fixedSession(), dispatch: 'host' });
    const direct = await work(fromAnthropicMessages(sdkStream(chunks), options()));
    const control = await work(fromAnthropicMessages(sdkStream(chunks), options()).pipe(passOn));
    const node = direct.conversation.tools.get('toolu_1');
    // content_block_start names the call (the first reading), the first fragment's chunk is the second.
    expect(node?.startedAt).to.equal(1000);
    expect(node?.firstTokenAt).to.equal(2000);
    expect(control.conversation.tools.get('toolu_1')?.firstTokenAt).to.equal(2000);
  });

  it('publishes what the ordinary path publishes, at the same points, for any fragmentation and any network reads', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.string({ maxLength: 6 }), { maxLength: 6 }),
        fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 30 }),
        fc.uniqueArray(fc.nat(60), { maxLength: 8 }),
        async (prose, cuts, turnsAt) => {
          const text = JSON.stringify({ file_path: 'a.ts', content: 'é\\"x'.repeat(30) });
          const fragments: string[] = [];
          let at = 0;
          for (const cut of cuts) {
            if (at >= text.length) break;
            fragments.push(text.slice(at, at + cut));
            at += cut;
          }
          if (at < text.length) fragments.push(text.slice(at));
          const chunks = anthropicChunks(fragments, prose);
          const turns = new Set(turnsAt);
          const views = async (passThrough: boolean) => {
            const shown: unknown[] = [];
            // A virtual scheduler, so that publications fall at the turns in every runtime.
            const scheduler = new VirtualTimeScheduler();
            const source = fromAnthropicMessages(
              sdkStream(chunks, turns, () => scheduler.flush()),
              { session: fixedSession() },
            );
            await lastValueFrom(
              (passThrough ? source.pipe(passOn) : source).pipe(
                assemble({ now: () => 1000, scheduler }),
                tap((conversation) => shown.push(seen(conversation))),
              ),
            );
            return shown;
          };
          expect(await views(false)).to.deep.equal(await views(true));
        },
      ),
      { numRuns: 25 },
    );
  });

  it('still rejects each malformed event an adapter builds (an empty attemptId), as the ordinary path does', async () => {
    const chunks = anthropicChunks(writeFragments(20));
    const outcome = async (passThrough: boolean, onInvalid: boolean) => {
      const inputs: unknown[] = [];
      const source = fromAnthropicMessages(sdkStream(chunks), {
        attemptId: '',
        session: fixedSession(),
      });
      const error = await lastValueFrom(
        (passThrough ? source.pipe(passOn) : source).pipe(
          assemble({
            now: () => 1000,
            ...(onInvalid && {
              onInvalid: (invalid: EventError, input: unknown) =>
                inputs.push([invalid.field, input]),
            }),
          }),
        ),
        { defaultValue: undefined },
      ).then(
        () => undefined,
        (failure: unknown) =>
          failure instanceof Error ? `${failure.name}: ${failure.message}` : failure,
      );
      return { inputs, error };
    };
    const direct = await outcome(false, true);
    // Every delta and the block end are skipped one by one; the Session refuses the message.
    expect(direct.inputs.length).to.be.at.least(20);
    expect(direct).to.deep.equal(await outcome(true, true));
    const failed = await outcome(false, false);
    expect(failed.error).to.match(/^EventError: stream\/tool-call-delta event: "attemptId"/);
    expect(failed).to.deep.equal(await outcome(true, false));
  });

  // Failed before: every interleaved delta folded alone.
  it('folds text and interleaved calls of an OpenAI stream as the ordinary path does, each call as one run (negative control: an operator between folds every delta)', async () => {
    const chunk = (delta: unknown, finish_reason: string | null = null) => ({
      choices: [{ index: 0, delta, finish_reason }],
    });
    const chunks: unknown[] = [chunk({ role: 'assistant', content: 'Writing ' })];
    chunks.push(chunk({ content: 'two files.' }));
    for (const index of [0, 1]) {
      chunks.push(
        chunk({
          tool_calls: [
            {
              index,
              id: `call_${index}`,
              type: 'function',
              function: { name: 'Write', arguments: '' },
            },
          ],
        }),
      );
    }
    const fragments = writeFragments(30);
    for (const args of fragments) {
      for (const index of [0, 1])
        chunks.push(chunk({ tool_calls: [{ index, function: { arguments: args } }] }));
    }
    chunks.push(chunk({}, 'tool_calls'));
    const direct = await work(
      fromOpenAIChatCompletions(sdkStream(chunks), { session: fixedSession() }),
    );
    const control = await work(
      fromOpenAIChatCompletions(sdkStream(chunks), { session: fixedSession() }).pipe(passOn),
    );
    expect(seen(direct.conversation)).to.deep.equal(seen(control.conversation));
    expect(direct.conversation.tools.size).to.equal(2);
    // Two runs held at once: each call's deltas reach its Definition as one, whatever the
    // interleaving (first deltas, two runs, two block ends, the records).
    expect(direct.received).to.be.below(20);
    expect(direct.validated).to.be.below(20);
    expect(control.received).to.be.at.least(fragments.length * 2);
  });
});
