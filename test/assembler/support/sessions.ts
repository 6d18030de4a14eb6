/**
 * Random agent sessions for the convergence properties: the durable log a server persists,
 * the order in which a live client receives it with the stream events of every attempt, and
 * the ways a host feeds an Assembler (history pages, live pushes, reconnections with replay).
 *
 * Everything is derived from one seed through a small deterministic generator, so a failing
 * case is reproduced by its seed and its size.
 */
import type {
  CallfoldEvent,
  MessageBlock,
  SessionEvent,
  StreamEvent,
  ToolCallDeltaEvent,
} from '../../../src/events/types.js';
import { isDurableEvent, isStreamEvent } from '../../../src/events/types.js';
import { prng as uniform } from '../../support/prng.js';
import { blockEnd, call, message, result, settle, textDelta, toolDelta, turn } from './events.js';

/** A deterministic random source (mulberry32). */
export interface Rng {
  /** In [0, 1). */
  next(): number;
  /** An integer in [min, max]. */
  int(min: number, max: number): number;
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
  shuffle<T>(items: T[]): T[];
}

export function prng(seed: number): Rng {
  const next = uniform(seed);
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  return {
    next,
    int,
    chance: (p) => next() < p,
    pick: (items) => items[int(0, items.length - 1)] as (typeof items)[number],
    shuffle(items) {
      for (let i = items.length - 1; i > 0; i--) {
        const j = int(0, i);
        [items[i], items[j]] = [
          items[j] as (typeof items)[number],
          items[i] as (typeof items)[number],
        ];
      }
      return items;
    },
  };
}

/** Argument keys the generator uses; readers in the drivers look these up. */
export const argumentKeys: readonly string[] = [
  'file_path',
  'content',
  'command',
  'description',
  'pattern',
  'nested',
  'é',
  'a"b',
  '',
  '__proto__',
];

const toolNames = ['read', 'write', 'bash', 'Grep', 'mcp__fs__list'] as const;
const alphabet = [
  'a',
  'b',
  ' ',
  '\n',
  '"',
  '\\',
  '/',
  'é',
  '😀',
  '\u2028',
  '{',
  '}',
  ',',
  ':',
  '\t',
];

function randomString(r: Rng, max: number): string {
  let s = '';
  const n = r.int(0, max);
  for (let i = 0; i < n; i++) s += r.chance(0.6) ? 'x' : r.pick(alphabet);
  return s;
}

function randomValue(r: Rng, depth: number): unknown {
  const kind = r.int(0, depth > 0 ? 7 : 5);
  switch (kind) {
    case 0:
    case 1:
      return randomString(r, 12);
    case 2:
      return r.chance(0.5) ? r.int(-1000, 1000) : r.int(-1e6, 1e6) / 64;
    case 3:
      return r.chance(0.5);
    case 4:
      return null;
    case 5:
      // Sometimes a long field, as a file's content is.
      return r.chance(0.3) ? randomString(r, 400) : randomString(r, 30);
    case 6:
      return Array.from({ length: r.int(0, 3) }, () => randomValue(r, depth - 1));
    default:
      return Object.fromEntries(
        Array.from({ length: r.int(0, 3) }, (_, i) => [`k${i}`, randomValue(r, depth - 1)]),
      );
  }
}

/**
 * A tool call's argument text: a JSON object with distinct keys (`__proto__` among them,
 * written as text so it stays an own key), compact or indented.
 */
function randomArgsText(r: Rng): string {
  const keys = r.shuffle([...argumentKeys]).slice(0, r.int(0, 4));
  const text = `{${keys.map((k) => `${JSON.stringify(k)}:${JSON.stringify(randomValue(r, 2))}`).join(',')}}`;
  return r.chance(0.25) ? JSON.stringify(JSON.parse(text), null, r.int(1, 2)) : text;
}

/** Cuts `text` into fragments, sizes down to 1, sometimes with empty fragments between. */
function cut(r: Rng, text: string, atLeastOne: boolean): string[] {
  const most = r.pick([1, 3, 8, 32, 128]);
  const fragments: string[] = [];
  let at = 0;
  while (at < text.length) {
    const size = r.int(1, most);
    fragments.push(text.slice(at, at + size));
    at += size;
    if (r.chance(0.05)) fragments.push('');
  }
  if (atLeastOne && fragments.length === 0) fragments.push('');
  return fragments;
}

type PlannedBlock =
  | { readonly kind: 'text' | 'reasoning'; readonly text: string }
  | {
      readonly kind: 'tool';
      readonly callId: string;
      readonly name: string;
      readonly argsText: string;
      /** The dispatched call carries the parsed object instead of the text. */
      readonly objectArgs: boolean;
      /** A tool-use block may end the message without a `tool/call` (never dispatched). */
      readonly dispatched: boolean;
    };

/** The stream events of one attempt, blocks interleaved as parallel calls stream. */
function renderAttempt(r: Rng, attemptId: string, blocks: readonly PlannedBlock[]): StreamEvent[] {
  const perBlock: StreamEvent[][] = blocks.map((block, index) => {
    if (block.kind !== 'tool') {
      const reasoning = block.kind === 'reasoning' ? true : r.chance(0.5) ? undefined : false;
      const events: StreamEvent[] = cut(r, block.text, true).map((text) =>
        textDelta(attemptId, index, text, reasoning),
      );
      if (r.chance(0.7)) {
        const text = r.chance(0.1) ? `${block.text}~` : block.text;
        events.push(blockEnd(attemptId, index, text));
      }
      return events;
    }
    const fragments = cut(r, block.argsText, true);
    const placement = r.next();
    // The name on the first delta, on a later one (after argument text, maybe), or never.
    const named = placement < 0.6 ? 0 : placement < 0.93 ? r.int(0, fragments.length - 1) : -1;
    const events: StreamEvent[] = fragments.map((args, i) =>
      toolDelta(attemptId, index, block.callId, args, i === named ? block.name : undefined),
    );
    if (named > 0 && r.chance(0.3)) {
      // Some providers repeat the name on every later delta.
      for (let i = named + 1; i < events.length; i++) {
        events[i] = { ...(events[i] as ToolCallDeltaEvent), name: block.name };
      }
    }
    const end = r.next();
    if (end < 0.65) events.push(blockEnd(attemptId, index, block.argsText, block.callId));
    else if (end < 0.72)
      events.push(blockEnd(attemptId, index, `${block.argsText} `, block.callId));
    return events;
  });
  const merged: StreamEvent[] = [];
  let current = -1;
  for (;;) {
    const open = perBlock.map((list, i) => (list.length > 0 ? i : -1)).filter((i) => i >= 0);
    if (open.length === 0) return merged;
    if (!open.includes(current) || r.chance(0.3)) current = r.pick(open);
    merged.push((perBlock[current] as StreamEvent[]).shift() as StreamEvent);
  }
}

export interface Session {
  /** The persisted log: seq strictly increasing. */
  readonly durable: readonly SessionEvent[];
  /**
   * What a client connected throughout receives, in order: each attempt's stream events,
   * its durable records before its settle, and results (and turn ends) later, out of seq order.
   */
  readonly live: readonly CallfoldEvent[];
  /** The turn each attempt belongs to. */
  readonly turnOfAttempt: ReadonlyMap<string, number>;
  /** The seq of each turn's `turn/start`. */
  readonly turnSeqs: readonly number[];
}

/**
 * A session of `turns` user turns. Each turn has 0–2 retried attempts (cut short and settled
 * without durable records, sometimes reusing the callIds of the final attempt) and one final
 * attempt of text, reasoning and parallel tool-use blocks, whose dispatched calls carry
 * string or object arguments. Results come in any order, some calls get none, some two
 * (the later wins), and some results answer a call that is not in the log.
 */
export function generateSession(seed: number, turns: number): Session {
  const r = prng(seed);
  let seq = r.int(-3, 5);
  const nextSeq = () => (seq += r.int(1, 3));
  const durable: SessionEvent[] = [];
  const immediate: CallfoldEvent[] = [];
  const pending: { event: SessionEvent; earliest: number }[] = [];
  const turnOfAttempt = new Map<string, number>();
  const turnSeqs: number[] = [];
  let calls = 0;
  const now = (event: SessionEvent) => {
    durable.push(event);
    immediate.push(event);
  };
  const later = (event: SessionEvent) => {
    durable.push(event);
    pending.push({ event, earliest: immediate.length });
  };
  const plan = (reuse: readonly string[]): PlannedBlock[] =>
    Array.from({ length: r.int(0, 5) }, () => {
      const kind = r.pick(['text', 'reasoning', 'tool', 'tool', 'tool'] as const);
      if (kind !== 'tool') {
        return { kind, text: r.chance(0.1) ? '' : randomString(r, 40) };
      }
      const callId = reuse.length > 0 && r.chance(0.5) ? r.pick(reuse) : `call-${++calls}`;
      return {
        kind,
        callId,
        name: r.pick(toolNames),
        argsText: randomArgsText(r),
        objectArgs: r.chance(0.2),
        dispatched: r.chance(0.9),
      };
    });

  for (let t = 0; t < turns; t++) {
    turnSeqs.push(nextSeq());
    now(turn('turn/start', seq, `turn-${t}`));
    const finalBlocks = plan([]);
    const finalCallIds = finalBlocks.flatMap((b) => (b.kind === 'tool' ? [b.callId] : []));
    const retries = r.pick([0, 0, 0, 1, 1, 2]);
    for (let k = 0; k < retries; k++) {
      const attemptId = `t${t}.retry${k}`;
      turnOfAttempt.set(attemptId, t);
      const events = renderAttempt(r, attemptId, plan(finalCallIds));
      immediate.push(...events.slice(0, r.int(0, events.length)), settle(attemptId));
    }
    const attemptId = `t${t}.final`;
    turnOfAttempt.set(attemptId, t);
    immediate.push(...renderAttempt(r, attemptId, finalBlocks));
    const blocks: MessageBlock[] = finalBlocks.map((b) =>
      b.kind === 'tool'
        ? { type: 'tool-use', callId: b.callId, name: b.name, argsText: b.argsText }
        : { type: b.kind, text: b.text },
    );
    now(message(nextSeq(), attemptId, blocks));
    const dispatched: string[] = [];
    for (const b of finalBlocks) {
      if (b.kind !== 'tool' || !b.dispatched) continue;
      dispatched.push(b.callId);
      const args = b.objectArgs ? (JSON.parse(b.argsText) as Record<string, unknown>) : b.argsText;
      now(call(nextSeq(), b.callId, b.name, args));
    }
    immediate.push(settle(attemptId));
    const answered: string[] = dispatched.filter(() => r.chance(0.8));
    for (const callId of dispatched) if (r.chance(0.15)) answered.push(callId);
    if (r.chance(0.25)) answered.push(`elsewhere-${t}`);
    for (const callId of r.shuffle(answered)) {
      const output = r.chance(0.5) ? randomString(r, 20) : randomValue(r, 2);
      const isError = r.pick([undefined, undefined, false, true]);
      later(result(nextSeq(), callId, output, isError));
    }
    later(turn('turn/end', nextSeq(), `turn-${t}`));
  }

  // Each late event arrives at some point after it happened; late events pass each other.
  const placed = pending.map(({ event, earliest }) => ({
    event,
    at: r.chance(0.5) ? earliest : r.int(earliest, immediate.length),
    tie: r.next(),
  }));
  placed.sort((a, b) => a.at - b.at || a.tie - b.tie);
  const live: CallfoldEvent[] = [];
  let next = 0;
  for (let i = 0; i <= immediate.length; i++) {
    while (next < placed.length && (placed[next] as (typeof placed)[number]).at === i) {
      live.push((placed[next] as (typeof placed)[number]).event);
      next++;
    }
    if (i < immediate.length) live.push(immediate[i] as CallfoldEvent);
  }
  return { durable, live, turnOfAttempt, turnSeqs };
}

/** What a host does to an Assembler, in order. */
export type Op =
  | { readonly kind: 'push'; readonly events: CallfoldEvent | readonly CallfoldEvent[] }
  | { readonly kind: 'prepend'; readonly events: readonly SessionEvent[] }
  | { readonly kind: 'reconnect' }
  /** Publish, then read some arguments of some tools (`reads` seeds which). */
  | { readonly kind: 'publish'; readonly reads: number };

/**
 * Contiguous pages of `events` (a seq-ordered durable log), newest first, as a host loads
 * history while scrolling back. Neighbouring pages sometimes overlap by a few events.
 */
export function pages(r: Rng, events: readonly SessionEvent[]): SessionEvent[][] {
  const result: SessionEvent[][] = [];
  let end = events.length;
  while (end > 0) {
    const start = Math.max(0, end - r.int(1, 8));
    const overlap = r.chance(0.3) ? r.int(1, 2) : 0;
    result.push(events.slice(start, Math.min(events.length, end + overlap)));
    end = start;
  }
  return result;
}

/** Joins runs of adjacent deltas of one block into one delta, as a server's replay may. */
function coalesce(events: readonly StreamEvent[]): StreamEvent[] {
  const out: StreamEvent[] = [];
  for (const event of events) {
    const last = out[out.length - 1];
    if (
      last?.type === 'stream/text-delta' &&
      event.type === 'stream/text-delta' &&
      last.attemptId === event.attemptId &&
      last.block === event.block &&
      last.reasoning === event.reasoning
    ) {
      out[out.length - 1] = { ...last, text: last.text + event.text };
    } else if (
      last?.type === 'stream/tool-call-delta' &&
      event.type === 'stream/tool-call-delta' &&
      last.attemptId === event.attemptId &&
      last.block === event.block &&
      last.callId === event.callId
    ) {
      const name = last.name ?? event.name;
      out[out.length - 1] = toolDelta(
        last.attemptId,
        last.block,
        last.callId,
        last.args + event.args,
        name,
      );
    } else {
      out.push(event);
    }
  }
  return out;
}

/**
 * A live client's history over `live`: pushes in batches of 1–4 (single events or arrays),
 * publications at random points, and reconnections. A reconnection loses the next 0–6
 * events, calls `reconnect()`, then pushes the durable events it missed (sometimes with a
 * few it already held) and a replay of every attempt still live at that point, from its
 * first stream event, sometimes with adjacent deltas joined.
 */
export function liveOps(r: Rng, live: readonly CallfoldEvent[], reconnects = 0.03): Op[] {
  const ops: Op[] = [];
  const settledAt = new Map<string, number>();
  for (const [i, event] of live.entries()) {
    if (event.type === 'stream/settle') settledAt.set(event.attemptId, i);
  }
  const publishRate = r.pick([0, 0.05, 0.3, 1]);
  let i = 0;
  while (i < live.length) {
    if (r.chance(reconnects)) {
      const to = Math.min(live.length, i + r.int(0, 6));
      ops.push({ kind: 'reconnect' });
      const missed = live.slice(i, to).filter(isDurableEvent);
      const held = live.slice(0, i).filter(isDurableEvent);
      const again = r.chance(0.3) ? held.slice(Math.max(0, held.length - r.int(1, 3))) : [];
      if (again.length + missed.length > 0)
        ops.push({ kind: 'push', events: [...again, ...missed] });
      const replay = live
        .slice(0, to)
        .filter(isStreamEvent)
        .filter((e) => (settledAt.get(e.attemptId) ?? Number.POSITIVE_INFINITY) >= to);
      const replayed = r.chance(0.5) ? coalesce(replay) : replay;
      for (let at = 0; at < replayed.length; ) {
        const n = r.int(1, 16);
        ops.push({ kind: 'push', events: replayed.slice(at, at + n) });
        at += n;
      }
      if (r.chance(0.5)) ops.push({ kind: 'publish', reads: r.int(0, 2 ** 30) });
      i = to;
      continue;
    }
    const n = r.int(1, 4);
    const batch = live.slice(i, i + n);
    i += batch.length;
    ops.push({
      kind: 'push',
      events: batch.length === 1 && r.chance(0.5) ? (batch[0] as CallfoldEvent) : batch,
    });
    if (r.chance(publishRate)) ops.push({ kind: 'publish', reads: r.int(0, 2 ** 30) });
  }
  return ops;
}

/** Pushes the first page and prepends the older ones, newest first, publishing at random. */
export function historyOps(r: Rng, durable: readonly SessionEvent[]): Op[] {
  const ops: Op[] = [];
  for (const [i, page] of pages(r, durable).entries()) {
    ops.push(
      i === 0 && r.chance(0.5) ? { kind: 'push', events: page } : { kind: 'prepend', events: page },
    );
    if (r.chance(0.4)) ops.push({ kind: 'publish', reads: r.int(0, 2 ** 30) });
  }
  return ops;
}

/**
 * A client that opens the session at turn `from`: it receives the live stream from there on,
 * while the host prepends the older history (and a little overlap) page by page, newest
 * first, at random points of the live stream.
 */
export function joinedOps(r: Rng, session: Session, from: number): Op[] {
  const since = session.turnSeqs[from] ?? Number.POSITIVE_INFINITY;
  const live = session.live.filter((e) =>
    isStreamEvent(e) ? (session.turnOfAttempt.get(e.attemptId) as number) >= from : e.seq >= since,
  );
  const cutAt = session.durable.findIndex((e) => e.seq >= since);
  const older = cutAt === -1 ? session.durable.length : cutAt;
  const history = session.durable.slice(0, Math.min(session.durable.length, older + r.int(0, 2)));
  const ops = liveOps(r, live);
  for (const page of pages(r, history)) {
    const at = r.int(0, ops.length);
    // Pages go in newest first: each one after the one before it.
    let previous = ops.length - 1;
    while (previous >= 0 && (ops[previous] as Op).kind !== 'prepend') previous--;
    ops.splice(Math.max(at, previous + 1), 0, { kind: 'prepend', events: page });
  }
  return ops;
}
