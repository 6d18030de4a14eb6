import { decodedLengthsAt } from './content.js';
import {
  bashInput,
  editInput,
  type FoldInput,
  interleavedInput,
  type StreamedCall,
  writeInput,
} from './fold-content.js';
import {
  checkFold,
  eagerControl,
  type FoldDriver,
  type FoldOutcome,
  fold,
  foldWithoutRows,
  readerOnly,
} from './fold-drivers.js';
import type { SamplePlan } from './measure.js';
import {
  checkReadings,
  type FlushPlan,
  floor,
  jsonriver,
  type Peer,
  type PeerOutcome,
  partialJson,
  streamparserPartial,
} from './peers.js';

/** The scenarios and who runs in each, with how many samples each gets. */

export interface FoldScenario {
  readonly id: string;
  readonly title: string;
  build(): FoldInput;
}

export const SCENARIOS: readonly FoldScenario[] = [
  {
    id: 'write',
    title: 'write: file_path, then 512 KiB of prose content',
    build: () => writeInput('prose', 512 * 1024),
  },
  {
    id: 'write-code',
    title: 'write: file_path, then 512 KiB of code-like content (dense in escapes)',
    build: () => writeInput('code', 512 * 1024),
  },
  {
    id: 'bash',
    title: 'bash: a 240-character description, then a 128 KiB command (a heredoc of code)',
    build: () => bashInput(128 * 1024),
  },
  {
    id: 'edit',
    title: 'edit: file_path, then old_string and new_string of 64 KiB code each',
    build: () => editInput(64 * 1024),
  },
  {
    id: 'interleaved',
    title: '16 writes of 32 KiB (prose and code alternating), deltas interleaved round-robin',
    build: () => interleavedInput(16, 32 * 1024),
  },
];

/** Runs of 5–50 ms. */
export const FOLD_PLAN: SamplePlan = {
  warmup: 10,
  warmupMs: 500,
  samples: 20,
  allocationSamples: 2,
  retainedSamples: 3,
};
/** Runs of 50–500 ms. */
export const SLOW_PLAN: SamplePlan = {
  warmup: 2,
  warmupMs: 500,
  samples: 8,
  allocationSamples: 0,
  retainedSamples: 2,
};
/** partial-json on 512 KiB takes seconds a run: its first run is long enough to warm up. */
export const QUADRATIC_PLAN: SamplePlan = {
  warmup: 0,
  warmupMs: 0,
  samples: 2,
  allocationSamples: 0,
  retainedSamples: 1,
};

export type ContestantRole = 'subject' | 'piece' | 'control' | 'peer';

export interface Contestant {
  readonly name: string;
  readonly role: ContestantRole;
  readonly note: string;
  readonly plan: SamplePlan;
  readonly scenarios: readonly string[];
  /** Untimed preparation after the input is built (peers: their flush plan). */
  prepare?(input: FoldInput): void;
  /** The timed work; what it returns stays reachable for the retained-heap figures. */
  run(input: FoldInput): unknown;
  /** Throws unless `outcome` (what `run` returned) holds the right answers. */
  check(input: FoldInput, outcome: unknown): void;
}

const ALL = SCENARIOS.map((s) => s.id);
const PEERED = ['write', 'bash'];

function fromDriver(
  driver: FoldDriver,
  role: ContestantRole,
  plan: SamplePlan,
  scenarios: readonly string[],
): Contestant {
  return {
    name: driver.name,
    role,
    note: driver.note,
    plan,
    scenarios,
    run: (input) => driver.run(input),
    check: (input, outcome) => checkFold(driver, input, outcome as FoldOutcome),
  };
}

/** Peers read the single call's label (path or description) and the length of its big field. */
function peerPlan(call: StreamedCall, flushEvery: number): FlushPlan {
  return {
    fragments: call.fragments,
    flushEvery,
    textKey: call.row === 'bash' ? 'description' : 'file_path',
    lengthKey: call.row === 'bash' ? 'command' : 'content',
  };
}

const flushPlans = new WeakMap<FoldInput, FlushPlan>();

function flushPlanOf(input: FoldInput): FlushPlan {
  let plan = flushPlans.get(input);
  if (plan === undefined) {
    plan = peerPlan(input.calls[0]!, input.flushEvery);
    flushPlans.set(input, plan);
  }
  return plan;
}

function fromPeer(peer: Peer, plan: SamplePlan): Contestant {
  return {
    name: peer.name,
    role: 'peer',
    note: peer.note,
    plan,
    scenarios: PEERED,
    prepare: (input) => void flushPlanOf(input),
    run: (input) => peer.run(flushPlanOf(input)),
    check(input, outcome) {
      const call = input.calls[0]!;
      const { textKey, lengthKey, fragments } = flushPlanOf(input);
      const value = call.values[lengthKey]!;
      const head = `${JSON.stringify(lengthKey)}:"`;
      const valueStart = call.text.indexOf(head) + head.length;
      const offsets: number[] = [];
      let offset = 0;
      for (let i = 0; i < fragments.length; i++) {
        offset += fragments[i]!.length;
        if ((i + 1) % input.flushEvery === 0) offsets.push(offset);
      }
      checkReadings(`${peer.name} on ${input.id}`, (outcome as PeerOutcome).readings, {
        text: call.values[textKey]!,
        length: value.length,
        lengths: decodedLengthsAt(call.text, valueStart, offsets),
        fragmentSize: 16,
        partial: peer.partialLengths,
      });
    },
  };
}

export const CONTESTANTS: readonly Contestant[] = [
  fromDriver(fold, 'subject', FOLD_PLAN, ALL),
  fromDriver(foldWithoutRows, 'piece', FOLD_PLAN, ['write']),
  fromDriver(readerOnly, 'piece', FOLD_PLAN, ['write']),
  fromDriver(eagerControl, 'control', SLOW_PLAN, PEERED),
  fromPeer(jsonriver, SLOW_PLAN),
  fromPeer(streamparserPartial, SLOW_PLAN),
  fromPeer(partialJson, QUADRATIC_PLAN),
  fromPeer(floor, FOLD_PLAN),
];

export function scenarioById(id: string): FoldScenario {
  const found = SCENARIOS.find((s) => s.id === id);
  if (found === undefined) throw new Error(`unknown scenario ${id}`);
  return found;
}

export function contestantByName(name: string): Contestant {
  const found = CONTESTANTS.find((c) => c.name === name);
  if (found === undefined) throw new Error(`unknown contestant ${name}`);
  return found;
}
