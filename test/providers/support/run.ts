import type { CallfoldEvent, ToolCallDeltaEvent } from '../../../src/events/types.js';
import type { AdapterOptions } from '../../../src/providers/adapter-run.js';
import type { Adapter } from './cases.js';
import { fixedSession } from './cases.js';
import { collect, type Outcome } from './fixtures.js';
import { checkInvariants } from './invariants.js';

/** Runs `adapter` over `chunks` with a fixed session (attempt `a1`) and checks the invariants. */
export async function run(
  adapter: Adapter,
  chunks: readonly unknown[],
  options: AdapterOptions = {},
): Promise<Outcome> {
  const outcome = await collect(adapter(chunks, { session: fixedSession(), ...options }));
  checkInvariants(outcome.events, { hostDispatch: options.dispatch === 'host' });
  return outcome;
}

export function ofType<T extends CallfoldEvent['type']>(
  events: readonly CallfoldEvent[],
  type: T,
): Extract<CallfoldEvent, { type: T }>[] {
  return events.filter((e): e is Extract<CallfoldEvent, { type: T }> => e.type === type);
}

/** The tool-call deltas, as `callId name? args` lines: what a quirk test compares. */
export function toolDeltas(events: readonly CallfoldEvent[]): string[] {
  return ofType(events, 'stream/tool-call-delta').map(
    (e: ToolCallDeltaEvent) => `${e.callId}${e.name === undefined ? '' : ` ${e.name}`} ${e.args}`,
  );
}

/** The event types in order, stream deltas collapsed: the shape of a run. */
export function shape(events: readonly CallfoldEvent[]): string[] {
  return events
    .map((e) => e.type)
    .filter((type, i, all) => !(type.endsWith('-delta') && all[i - 1] === type));
}
