import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Assembler } from '../../../src/conversation/assembler.js';
import { type CallfoldEvent, isDurableEvent } from '../../../src/events/types.js';
import type { AssemblerCommand } from '../../../src/rx/assembler-command.js';
import type { SessionStore, UnnumberedEvent } from '../../../src/server/session-store.js';
import { decodeTranscript } from '../../../src/wire/transcript.js';
import { project } from '../../assembler/support/driver.js';
import { repositoryRoot } from '../../support/repository.js';

/** The demo's recorded session: attempts (one retried), tool calls and results. */
export function demoEvents(): CallfoldEvent[] {
  const text = readFileSync(
    join(repositoryRoot(), 'examples/transcripts/demo-session.jsonl'),
    'utf8',
  );
  return decodeTranscript(text).map((entry) => entry.event);
}

/** Writes `events` into the store in order: runs of durable events appended, stream events made live. */
export async function produce(
  store: SessionStore,
  sessionId: string,
  events: readonly CallfoldEvent[],
  pace: (index: number) => Promise<void>,
): Promise<void> {
  for (const [index, event] of events.entries()) {
    if (isDurableEvent(event)) {
      const { seq: _seq, at: _at, ...rest } = event;
      await store.append(sessionId, [rest as UnnumberedEvent]);
    } else await store.live(sessionId, [event]);
    await pace(index);
  }
}

/** An Assembler fed as `assemble()` would be: events pushed, commands applied. */
export function follower() {
  const assembler = new Assembler();
  const durable: number[] = [];
  let reconnects = 0;
  return {
    assembler,
    durable,
    get reconnects() {
      return reconnects;
    },
    take(input: CallfoldEvent | AssemblerCommand) {
      if (input.type === 'connection/reconnect') {
        reconnects++;
        assembler.reconnect();
      } else if (input.type === 'history/prepend') assembler.prepend(input.events);
      else {
        if (isDurableEvent(input)) durable.push(input.seq);
        assembler.push(input);
      }
    },
  };
}

/** The uninterrupted fold: every durable event of the session, once, in order. */
export async function uninterrupted(store: SessionStore, sessionId: string): Promise<unknown> {
  const assembler = new Assembler();
  assembler.push(await store.page(sessionId, { limit: 1_000_000 }));
  return project(assembler.publish());
}
