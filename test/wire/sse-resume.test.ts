import { expect } from 'chai';
import { asapScheduler, from, lastValueFrom } from 'rxjs';
import type { Conversation } from '../../src/conversation/conversation.js';
import { type CallfoldEvent, isDurableEvent } from '../../src/events/types.js';
import { fromOpenAIChatCompletions } from '../../src/providers/openai-chat-completions.js';
import { assemble } from '../../src/rx/assemble.js';
import { type AssembleInput, reconnectCommand } from '../../src/rx/assembler-command.js';
import { decodeSSE, encodeSSE, parseLastEventId } from '../../src/wire/sse.js';
import { describe, it } from '../harness.js';
import { fixedSession } from '../providers/support/cases.js';
import { collect, loadFixture } from '../providers/support/fixtures.js';

const now = () => 0;

/** What must converge: items' kinds and ids, and each tool's visible state. */
function projection(conversation: Conversation): unknown {
  return {
    items: conversation.items.map((item) => [item.kind, item.id]),
    tools: [...conversation.tools.values()].map((t) => ({
      callId: t.callId,
      name: t.name,
      stage: t.stage,
      argsRaw: t.argsRaw,
      result: t.result,
    })),
  };
}

/**
 * Everything a server broadcasts for one session, in order: a finished attempt with parallel
 * calls, the host's results, then a second attempt still streaming (never settled).
 */
async function sessionEvents(): Promise<CallfoldEvent[]> {
  const { sse } = await loadFixture('openai-chat-completions');
  const session = fixedSession();
  const first = await collect(fromOpenAIChatCompletions(sse, { session }));
  const results = first.events.flatMap((e) =>
    e.type === 'tool/call' ? [session.result(e.callId, `output of ${e.callId}`)] : [],
  );
  const second = await collect(fromOpenAIChatCompletions(sse, { session }));
  const streaming = second.events.slice(
    0,
    second.events.findIndex((e) => isDurableEvent(e)),
  );
  // The retry's calls get their own ids (the fixture's ids would name the finished calls).
  const live = streaming
    .slice(0, Math.floor(streaming.length * 0.6))
    .map((e) => ('callId' in e ? { ...e, callId: `${e.callId}-retry` } : e));
  return [...first.events, ...results, ...live];
}

/**
 * The server's answer to a request with `Last-Event-ID` after `broadcast` events: the durable
 * events after that seq, then a replay of the stream events of the attempts still live.
 */
function resume(broadcast: readonly CallfoldEvent[], lastEventId: string | null): string {
  const after = parseLastEventId(lastEventId) ?? 0;
  const settled = new Set(
    broadcast.flatMap((e) => (e.type === 'stream/settle' ? [e.attemptId] : [])),
  );
  const durable = broadcast.filter((e) => isDurableEvent(e) && e.seq > after);
  const replay = broadcast.filter(
    (e) => !isDurableEvent(e) && 'attemptId' in e && !settled.has(e.attemptId),
  );
  return [...durable, ...replay].map(encodeSSE).join('');
}

/** The events of an SSE body, and the last event ID the client holds after reading it. */
async function read(text: string): Promise<{ events: CallfoldEvent[]; lastEventId: string }> {
  let lastEventId = '';
  const events: CallfoldEvent[] = [];
  await new Promise<void>((resolve, reject) => {
    decodeSSE(new Response(text), { onEventId: (id) => (lastEventId = id) }).subscribe({
      next: (event) => events.push(event),
      error: reject,
      complete: resolve,
    });
  });
  return { events, lastEventId };
}

const fold = (inputs: readonly AssembleInput[]): Promise<Conversation> =>
  lastValueFrom(from(inputs).pipe(assemble({ now, scheduler: asapScheduler })));

describe('SSE resume from Last-Event-ID', () => {
  it('round-trips a session through encodeSSE and decodeSSE unchanged', async () => {
    const events = await sessionEvents();
    const { events: decoded, lastEventId } = await read(events.map(encodeSSE).join(''));
    expect(decoded).to.deep.equal(events);
    const lastSeq = events.filter(isDurableEvent).at(-1)?.seq;
    expect(parseLastEventId(lastEventId)).to.equal(lastSeq);
  });

  it('converges to the uninterrupted Conversation after a cut at any event and a resume', async () => {
    const events = await sessionEvents();
    const whole = projection(await fold(events));
    // The baseline holds what a resume must restore: results and the live attempt's rows.
    const tools = [...(await fold(events)).tools.values()];
    expect(tools.filter((t) => t.stage === 'result').length).to.be.at.least(2);
    expect(tools.some((t) => t.stage === 'preparing')).to.equal(true);

    // Every cut next to a durable event or a settle, and every 23rd event in between.
    const cuts = [...events.keys()].filter(
      (i) =>
        i > 0 &&
        (i % 23 === 0 ||
          [events[i - 1], events[i]].some(
            (e) => e !== undefined && (isDurableEvent(e) || e.type === 'stream/settle'),
          )),
    );
    expect(cuts.length).to.be.above(50);
    for (const cut of cuts) {
      const sent = events.slice(0, cut);
      const before = await read(sent.map(encodeSSE).join(''));
      expect(before.events).to.deep.equal(sent);
      const lastSeq = sent.filter(isDurableEvent).at(-1)?.seq;
      expect(parseLastEventId(before.lastEventId), `last id at cut ${cut}`).to.equal(lastSeq);
      // The client reconnects: the server is still at `cut`, then goes on broadcasting.
      const after = await read(
        resume(sent, before.lastEventId || null) + events.slice(cut).map(encodeSSE).join(''),
      );
      const resumed = await fold([...before.events, reconnectCommand(), ...after.events]);
      expect(projection(resumed), `cut after event ${cut}`).to.deep.equal(whole);
    }
  });

  it('(negative control) a resume that skips the live attempt’s replay does not converge', async () => {
    const events = await sessionEvents();
    const whole = projection(await fold(events));
    const cut = events.length - 1;
    const sent = events.slice(0, cut);
    const before = await read(sent.map(encodeSSE).join(''));
    const after = parseLastEventId(before.lastEventId) ?? 0;
    const durableOnly = sent.filter((e) => isDurableEvent(e) && e.seq > after);
    const resumed = await fold([
      ...before.events,
      reconnectCommand(),
      ...durableOnly,
      ...events.slice(cut),
    ]);
    expect(projection(resumed)).to.not.deep.equal(whole);
  });
});
