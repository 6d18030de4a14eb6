/**
 * Definition wrappers that record what the Assembler hands a Definition, and the detector for
 * the Match-sharing rule: one immutable Match per input and role, shared by every Definition
 * and Context that matched it, and reused when a Context is replayed.
 */

import type { Definition } from '../../../src/assembler/definition.js';
import type { Match } from '../../../src/assembler/match.js';
import type { AssemblerOptions } from '../../../src/conversation/assembler.js';
import type { CallfoldEvent } from '../../../src/events/types.js';

export interface Receipt {
  readonly definition: string;
  readonly via: 'start' | 'update';
  readonly match: Match;
  /** The time the Assembler handed with the Match. */
  readonly at: number;
}

/** `inner`, recording every Match its `start` and `update` receive. */
export function recording<State, Node>(
  inner: Definition<State, Node>,
  receipts: Receipt[],
  name = inner.name,
): Definition<State, Node> {
  return {
    name,
    match: (event, emit) => inner.match(event, emit),
    start(match, at, key) {
      receipts.push({ definition: name, via: 'start', match, at });
      return inner.start(match, at, key);
    },
    update(state, match, at) {
      receipts.push({ definition: name, via: 'update', match, at });
      return inner.update(state, match, at);
    },
    build: (state, previous) => inner.build(state, previous),
  };
}

/** `inner`, handed a fresh copy of every Match: what the sharing rule forbids. */
export function cloning<State, Node>(inner: Definition<State, Node>): Definition<State, Node> {
  return {
    name: inner.name,
    match: (event, emit) => inner.match(event, emit),
    start: (match, at, key) => inner.start({ ...match }, at, key),
    update: (state, match, at) => inner.update(state, { ...match }, at),
    build: (state, previous) => inner.build(state, previous),
  };
}

/**
 * A Definition that shows nothing and keeps one Context per attempt for every stream event,
 * and one per seq for durable ones: a second matcher of the same inputs.
 */
export const observer: Definition<number, never> = {
  name: 'observer',
  match(event, emit) {
    const key = 'attemptId' in event ? event.attemptId : `seq:${event.seq}`;
    emit(key, event.type === 'stream/block-end' ? 'update' : 'start');
  },
  start: () => 1,
  update: (count) => count + 1,
  build: () => undefined,
};

/**
 * Every way `receipts` break the rule: more than one Match object for one event in one role,
 * or one whose event, role or location disagree.
 */
export function sharingViolations(receipts: readonly Receipt[]): string[] {
  const violations: string[] = [];
  const byInput = new Map<CallfoldEvent, Map<string, Set<Match>>>();
  for (const { match } of receipts) {
    let roles = byInput.get(match.event);
    if (!roles) {
      roles = new Map();
      byInput.set(match.event, roles);
    }
    let matches = roles.get(match.role);
    if (!matches) {
      matches = new Set();
      roles.set(match.role, matches);
    }
    matches.add(match);
  }
  for (const [event, roles] of byInput) {
    for (const [role, matches] of roles) {
      if (matches.size > 1) {
        violations.push(`${matches.size} Matches for one ${event.type} event as ${role}`);
      }
      const locations = new Set([...matches].map((m) => m.location));
      if (locations.size > 1) violations.push(`one ${event.type} event at two locations`);
    }
  }
  return violations;
}

/** The `definitions` option from any Definitions (for the Definitions typed loosely here). */
export function definitionsOption(
  ...list: readonly Pick<Definition, 'name' | 'match'>[]
): NonNullable<AssemblerOptions['definitions']> {
  return list as unknown as NonNullable<AssemblerOptions['definitions']>;
}
