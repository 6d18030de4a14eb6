/**
 * Random sessions that stress the incremental publication path at the live end (the
 * NodeAssembler's tail repair, the Builder's `#patchTail`, the ToolMap's segments and
 * overlay), and a checker that compares every publication with a full rebuild.
 *
 * A scenario is a list of host steps (push, prepend, reconnect, publish) derived from one
 * seed: an older history (turns, responses, many settled calls, calls whose results come
 * much later) loaded by `prepend` page by page, newest first, between live pushes; two or
 * three attempts streaming at once (text, reasoning and tool-call deltas interleaved block
 * by block, names that arrive late, empty fragments, block ends, conflicting authoritative
 * text); responses settled right after their records or many Contexts later; aborted
 * attempts; bursts of programmatic calls that push a live attempt far from the end; results
 * late and out of order; repeated results; duplicate durable events; stale stream events of
 * settled attempts; results of unknown calls; provider-run calls recorded before their
 * response settles; approvals; reconnections with a replay.
 *
 * `check()` runs the steps on an incremental Assembler and, at every publish step, compares
 * its Conversation with a fresh Assembler given the events of the log so far in one push,
 * then checks structural sharing against the previous publication. `shrink()` removes steps
 * and events while the check still fails, so a failure prints a short event list.
 */
import type { NodeAssembler } from '../../../src/assembler/node-assembler.js';
import { assemblerProbe } from '../../../src/assembler/probe.js';
import { Assembler } from '../../../src/conversation/assembler.js';
import type { Conversation } from '../../../src/conversation/conversation.js';
import { definitionsWithTurns } from '../../../src/conversation/turns.js';
import type { ToolNode } from '../../../src/definitions/tool-definition.js';
import type { TurnNode } from '../../../src/definitions/turn-definition.js';
import {
  type CallfoldEvent,
  isStreamEvent,
  type MessageBlock,
  type SessionEvent,
  type StreamEvent,
} from '../../../src/events/types.js';
import type { GroupNode } from '../../../src/groups/builder.js';
import { keptEnds } from '../../../src/groups/kept-ends.js';
import {
  blockEnd,
  call,
  conversationShape,
  message,
  NOW,
  result,
  settle,
  textDelta,
  toolDelta,
  turn,
} from '../../assembler/support/events.js';
import { prng, type Rng } from '../../assembler/support/sessions.js';

export type Step =
  | { readonly kind: 'push'; readonly events: readonly CallfoldEvent[] }
  | { readonly kind: 'prepend'; readonly events: readonly SessionEvent[] }
  | { readonly kind: 'reconnect' }
  | { readonly kind: 'publish' };

type Published = Conversation<TurnNode>;
/** What the checker folds with: the default composition, or a broken one for a negative control. */
export type Publisher = Pick<
  NodeAssembler<unknown, Published>,
  'push' | 'prepend' | 'reconnect' | 'publish'
>;

export function reference(): Assembler<TurnNode> {
  return new Assembler<TurnNode>({
    definitions: definitionsWithTurns,
    now: () => NOW,
    onError: (error) => {
      throw error;
    },
  });
}

// ---------------------------------------------------------------------------------------
// Generation

const names = ['Read', 'Write', 'Edit', 'Bash', 'Grep', 'WebFetch', 'TodoWrite', 'deploy_app'];

function argsFor(r: Rng, name: string, id: string): string {
  const path = `/src/${id}${r.chance(0.2) ? '/é 😀\\n' : ''}.ts`;
  switch (name) {
    case 'Read':
      return JSON.stringify({ file_path: path });
    case 'Write':
      return JSON.stringify({ file_path: path, content: 'x'.repeat(r.int(0, 80)) });
    case 'Edit':
      return JSON.stringify({ file_path: path, old_string: 'a', new_string: 'b'.repeat(9) });
    case 'Bash':
      return JSON.stringify({ description: `Run ${id}`, command: `ls ${path}` });
    case 'Grep':
      return JSON.stringify({ pattern: `${id}\\s+` });
    case 'WebFetch':
      return JSON.stringify({ url: `https://example.com/${id}` });
    default:
      return JSON.stringify({ target: id, n: r.int(0, 9) });
  }
}

interface TextBlockPlan {
  readonly kind: 'text';
  readonly index: number;
  readonly reasoning: boolean;
  readonly text: string;
  sent: number;
  ended: boolean;
}

interface ToolBlockPlan {
  readonly kind: 'tool';
  readonly index: number;
  readonly callId: string;
  readonly name: string;
  readonly args: string;
  /** The first delta carries no name (it comes on the second). */
  readonly lateName: boolean;
  sent: number;
  deltas: number;
  ended: boolean;
  /** Its tool/call was recorded (a provider-run call, before the response settles). */
  dispatched: boolean;
}

type BlockPlan = TextBlockPlan | ToolBlockPlan;

interface LiveAttempt {
  readonly id: string;
  readonly blocks: BlockPlan[];
  /** Its durable records were pushed; the settle waits (possibly many Contexts later). */
  recorded: boolean;
}

/** The simulated producer: its seqs, ids, live attempts and calls awaiting results. */
class Producer {
  readonly #r: Rng;
  seq: number;
  #ids = 0;
  readonly pending: string[] = [];
  readonly approvals: string[] = [];
  readonly attempts: LiveAttempt[] = [];
  readonly settled: LiveAttempt[] = [];
  /** Stream events of attempts not settled, in the order pushed (a reconnection's replay). */
  held: StreamEvent[] = [];
  turnOpen: string | null = null;
  lastDurable: SessionEvent | null = null;

  constructor(r: Rng, seq: number) {
    this.#r = r;
    this.seq = seq;
  }

  id(prefix: string): string {
    return `${prefix}${this.#ids++}`;
  }

  #durable<E extends SessionEvent>(event: E): E {
    this.lastDurable = event;
    return event;
  }

  #stream<E extends StreamEvent>(event: E): E {
    this.held.push(event);
    return event;
  }

  turnStart(): SessionEvent[] {
    const id = this.id('t');
    this.turnOpen = id;
    return [this.#durable(turn('turn/start', this.seq++, id))];
  }

  turnEnd(): SessionEvent[] {
    const id = this.turnOpen;
    if (id === null) return [];
    this.turnOpen = null;
    return [this.#durable(turn('turn/end', this.seq++, id))];
  }

  plan(): LiveAttempt {
    const r = this.#r;
    const id = this.id('a');
    const blocks: BlockPlan[] = [];
    const texts = r.int(0, 2);
    const tools = r.int(0, 4);
    for (let i = 0; i < texts + tools; i++) {
      if (i < texts) {
        const words = r.int(1, 6);
        const text = Array.from({ length: words }, (_, k) => `${id}w${k}`).join(' ');
        blocks.push({
          kind: 'text',
          index: i,
          reasoning: r.chance(0.3),
          text,
          sent: 0,
          ended: false,
        });
      } else {
        const callId = this.id('c');
        const name = r.pick(names);
        blocks.push({
          kind: 'tool',
          index: i,
          callId,
          name,
          args: argsFor(r, name, callId),
          lateName: r.chance(0.15),
          sent: 0,
          deltas: 0,
          ended: false,
          dispatched: false,
        });
      }
    }
    return { id, blocks, recorded: false };
  }

  /** The durable records of a response given at once (history, or no streaming). */
  complete(attempt: LiveAttempt): SessionEvent[] {
    const r = this.#r;
    const events: SessionEvent[] = [];
    const blocks: MessageBlock[] = [];
    const tools = attempt.blocks.filter((b): b is ToolBlockPlan => b.kind === 'tool');
    const cut = tools.length > 0 && r.chance(0.08) ? tools[tools.length - 1] : undefined;
    for (const block of attempt.blocks) {
      if (block.kind === 'text') {
        blocks.push({ type: block.reasoning ? 'reasoning' : 'text', text: block.text });
      } else if (block === cut) {
        const argsText = block.args.slice(0, Math.max(1, block.args.length >> 1));
        blocks.push({
          type: 'tool-use',
          callId: block.callId,
          name: block.name,
          argsText,
          incomplete: true,
        });
      } else {
        blocks.push({
          type: 'tool-use',
          callId: block.callId,
          name: block.name,
          argsText: block.args,
        });
      }
    }
    const recorded = message(this.seq++, attempt.id, blocks);
    events.push(this.#durable(cut ? { ...recorded, stopReason: 'length' } : recorded));
    for (const block of tools) {
      if (block === cut || block.dispatched) continue;
      events.push(this.#durable(this.#call(block)));
      this.pending.push(block.callId);
    }
    return events;
  }

  #call(block: ToolBlockPlan): SessionEvent {
    const r = this.#r;
    const roll = r.next();
    // Mostly the streamed text; sometimes an object, sometimes text that conflicts with it.
    const args =
      roll < 0.1
        ? (JSON.parse(block.args) as Record<string, unknown>)
        : roll < 0.15
          ? JSON.stringify({ file_path: `/conflict/${block.callId}` })
          : block.args;
    return call(this.seq++, block.callId, block.name, args);
  }

  /** One step of a live attempt: a delta of one of its unfinished blocks, maybe its end. */
  advance(attempt: LiveAttempt): StreamEvent[] {
    const r = this.#r;
    const open = attempt.blocks.filter((b) => !b.ended);
    if (open.length === 0) return [];
    const block = r.pick(open);
    const events: StreamEvent[] = [];
    const bigger = r.chance(0.2) ? 40 : 12;
    if (block.kind === 'text') {
      const size = r.int(1, bigger);
      events.push(
        this.#stream(
          block.reasoning
            ? textDelta(
                attempt.id,
                block.index,
                block.text.slice(block.sent, block.sent + size),
                true,
              )
            : textDelta(attempt.id, block.index, block.text.slice(block.sent, block.sent + size)),
        ),
      );
      block.sent += size;
      if (block.sent >= block.text.length) {
        block.ended = true;
        if (r.chance(0.7)) events.push(this.#stream(blockEnd(attempt.id, block.index, block.text)));
      }
      return events;
    }
    const size = r.chance(0.08) ? 0 : r.int(1, bigger);
    const named = block.deltas === 0 ? !block.lateName : block.deltas === 1 && block.lateName;
    const fragment = block.args.slice(block.sent, block.sent + size);
    events.push(
      this.#stream(
        toolDelta(attempt.id, block.index, block.callId, fragment, named ? block.name : undefined),
      ),
    );
    block.sent += fragment.length;
    block.deltas++;
    if (block.sent >= block.args.length && block.deltas >= 2) {
      block.ended = true;
      if (r.chance(0.8)) {
        const text = r.chance(0.05) ? JSON.stringify({ file_path: '/other' }) : block.args;
        events.push(this.#stream(blockEnd(attempt.id, block.index, text, block.callId)));
      }
    }
    return events;
  }

  /** A provider-run call of a live attempt recorded before it settles, maybe with its result. */
  providerCall(attempt: LiveAttempt): SessionEvent[] {
    const block = attempt.blocks.find(
      (b): b is ToolBlockPlan => b.kind === 'tool' && b.ended && !b.dispatched,
    );
    if (!block) return [];
    block.dispatched = true;
    const events: SessionEvent[] = [
      this.#durable({
        ...call(this.seq++, block.callId, block.name, block.args),
        executor: 'provider',
      }),
    ];
    if (this.#r.chance(0.6)) {
      events.push(
        this.#durable({ ...result(this.seq++, block.callId, 'found'), executor: 'provider' }),
      );
    } else {
      this.pending.push(block.callId);
    }
    return events;
  }

  settle(attempt: LiveAttempt): StreamEvent[] {
    this.attempts.splice(this.attempts.indexOf(attempt), 1);
    this.settled.push(attempt);
    this.held = this.held.filter((e) => e.attemptId !== attempt.id);
    return [settle(attempt.id)];
  }

  /** A result of a pending call: the oldest (far back) or any (out of order). */
  result(): SessionEvent[] {
    const r = this.#r;
    if (this.pending.length === 0) return [];
    const at = r.chance(0.35) ? 0 : r.int(0, this.pending.length - 1);
    const callId = this.pending[at] as string;
    // Sometimes a second result follows later (the later record wins).
    if (!r.chance(0.06)) this.pending.splice(at, 1);
    return [this.#durable(result(this.seq++, callId, `out ${callId} ${this.seq}`, r.chance(0.15)))];
  }

  /** Programmatic calls (no stream), some answered at once, some text between. */
  burst(size: number): SessionEvent[] {
    const r = this.#r;
    const events: SessionEvent[] = [];
    for (let i = 0; i < size; i++) {
      if (r.chance(0.2)) {
        const id = this.id('m');
        events.push(this.#durable(message(this.seq++, id, [{ type: 'text', text: `note ${id}` }])));
      }
      const callId = this.id('p');
      const name = r.pick(names);
      const text = argsFor(r, name, callId);
      const args = r.chance(0.3) ? (JSON.parse(text) as Record<string, unknown>) : text;
      events.push(this.#durable(call(this.seq++, callId, name, args)));
      if (r.chance(0.6)) events.push(this.#durable(result(this.seq++, callId, `ok ${callId}`)));
      else this.pending.push(callId);
    }
    return events;
  }

  approval(): SessionEvent[] {
    const r = this.#r;
    if (this.approvals.length > 0 && r.chance(0.6)) {
      const callId = this.approvals.shift() as string;
      const approved = r.chance(0.7);
      if (!approved) this.pending.splice(this.pending.indexOf(callId), 1);
      return [
        this.#durable({
          type: 'tool/approval',
          seq: this.seq++,
          callId,
          approved,
          reason: 'policy',
        }),
      ];
    }
    const callId = this.pending[this.pending.length - 1];
    if (callId === undefined || this.approvals.includes(callId)) return [];
    this.approvals.push(callId);
    return [this.#durable({ type: 'tool/approval-request', seq: this.seq++, callId })];
  }

  /** Events the contract says are handled: a durable event again, a stale delta, an unknown call's result. */
  odd(): CallfoldEvent[] {
    const r = this.#r;
    const roll = r.int(0, 2);
    if (roll === 0 && this.lastDurable) return [this.lastDurable];
    const old = this.settled.length > 0 ? r.pick(this.settled) : undefined;
    if (roll === 1 && old) {
      const block = r.pick(old.blocks);
      if (block?.kind === 'tool') {
        return [toolDelta(old.id, block.index, block.callId, '{"stale":1}', block.name)];
      }
      return [textDelta(old.id, 0, ' stale')];
    }
    return [this.#durable(result(this.seq++, this.id('ghost'), 'no call'))];
  }
}

/** The durable log a history page comes from: turns, responses, bursts, results. */
function history(r: Rng, producer: Producer, size: number): SessionEvent[] {
  const log: SessionEvent[] = [];
  while (log.length < size) {
    const roll = r.next();
    if (roll < 0.08) log.push(...(producer.turnOpen ? producer.turnEnd() : producer.turnStart()));
    else if (roll < 0.45) log.push(...producer.complete(producer.plan()));
    else if (roll < 0.6) log.push(...producer.burst(r.int(1, 12)));
    else if (roll < 0.9) log.push(...producer.result());
    else log.push(...producer.approval());
  }
  return log;
}

/** Contiguous pages of `log`, newest first, some overlapping the page before by a few events. */
function pagesOf(r: Rng, log: readonly SessionEvent[]): SessionEvent[][] {
  const pages: SessionEvent[][] = [];
  let end = log.length;
  while (end > 0) {
    const start = Math.max(0, end - r.int(1, 60));
    const overlap = pages.length > 0 && r.chance(0.2) ? r.int(1, 3) : 0;
    pages.push(log.slice(start, Math.min(log.length, end + overlap)));
    end = start;
  }
  return pages;
}

/**
 * The steps of one scenario: a history of `historySize` durable events (loaded by prepend
 * page by page between live steps, or pushed at once), then `liveSteps` live actions, with
 * publications after every 1–4 pushes.
 */
export function scenario(seed: number, historySize = 120, liveSteps = 80): Step[] {
  const r = prng(seed);
  const producer = new Producer(r, 1_000);
  const log = history(r, producer, r.int(historySize >> 2, historySize));
  const steps: Step[] = [];
  const pages = pagesOf(r, log);
  if (r.chance(0.25)) {
    steps.push({ kind: 'push', events: log });
    pages.length = 0;
  } else {
    steps.push({ kind: 'prepend', events: pages.shift() as SessionEvent[] });
  }
  steps.push({ kind: 'publish' });
  const publishEvery = r.int(1, 4);
  let bigBursts = 2;
  let unpublished = 0;
  // A batch of durable events held back and delivered after the next one: lower seqs
  // arriving after higher ones (placed between them, not at the live end).
  let late: CallfoldEvent[] | undefined;
  const push = (events: CallfoldEvent[]) => {
    if (events.length === 0) return;
    if (
      late === undefined &&
      r.chance(0.04) &&
      events.every((e) => !isStreamEvent(e) && e.type !== 'assistant/message')
    ) {
      late = events;
      return;
    }
    if (late !== undefined) {
      events = [...events, ...late];
      late = undefined;
    }
    // One action's events in one push, or cut in two (a publication may fall between).
    if (events.length > 1 && r.chance(0.2)) {
      const cut = r.int(1, events.length - 1);
      steps.push({ kind: 'push', events: events.slice(0, cut) });
      if (r.chance(0.5)) steps.push({ kind: 'publish' });
      steps.push({ kind: 'push', events: events.slice(cut) });
    } else {
      steps.push({ kind: 'push', events });
    }
    if (++unpublished >= r.int(1, publishEvery)) {
      steps.push({ kind: 'publish' });
      unpublished = 0;
    }
  };
  for (let i = 0; i < liveSteps; i++) {
    const roll = r.next();
    const live = producer.attempts;
    const attempt = live.length > 0 ? r.pick(live) : undefined;
    if (roll < 0.06 && pages.length > 0) {
      steps.push({ kind: 'prepend', events: pages.shift() as SessionEvent[] });
      // Sometimes two pages in one publication (the older one's Contexts come second).
      if (pages.length > 0 && r.chance(0.3)) {
        steps.push({ kind: 'prepend', events: pages.shift() as SessionEvent[] });
      }
      // Often a new call in the same publication as the page.
      if (r.chance(0.5) && attempt) push(producer.advance(attempt));
      else if (r.chance(0.5)) push(producer.burst(1));
    } else if (roll < 0.14 && live.length < 3) {
      const events: CallfoldEvent[] = [];
      if (!producer.turnOpen && r.chance(0.3)) events.push(...producer.turnStart());
      const next = producer.plan();
      live.push(next);
      events.push(...producer.advance(next));
      push(events);
    } else if (roll < 0.5 && attempt && !attempt.recorded) {
      // A few deltas, of this attempt's blocks or of the others' (parallel streams).
      const events: CallfoldEvent[] = [];
      for (let k = r.int(1, 4); k > 0; k--) {
        const any = r.pick(live);
        if (!any.recorded) events.push(...producer.advance(any));
      }
      push(events);
    } else if (roll < 0.58 && attempt) {
      // The attempt ends: recorded (the settle now or later), or aborted (settle alone).
      const done = attempt.blocks.every((b) => b.ended);
      if (attempt.recorded) push(producer.settle(attempt));
      else if (!done || r.chance(0.12)) push(producer.settle(attempt));
      else {
        attempt.recorded = true;
        const events: CallfoldEvent[] = producer.complete(attempt);
        if (r.chance(0.6)) events.push(...producer.settle(attempt));
        push(events);
      }
    } else if (roll < 0.62 && attempt) {
      push(producer.providerCall(attempt));
    } else if (roll < 0.72) {
      // Bursts push live attempts (and calls awaiting results) far from the live end.
      const large = bigBursts > 0 && r.chance(0.3);
      if (large) bigBursts--;
      push(producer.burst(large ? r.int(40, 75) : r.chance(0.2) ? r.int(8, 24) : r.int(1, 6)));
    } else if (roll < 0.86) {
      push(producer.result());
    } else if (roll < 0.9) {
      push(producer.approval());
    } else if (roll < 0.94) {
      push(producer.odd());
    } else if (roll < 0.96 && live.length === 0) {
      push(producer.turnEnd());
    } else if (roll < 0.97) {
      steps.push({ kind: 'reconnect' });
      push([...producer.held]);
    } else if (roll < 0.98) {
      const events: CallfoldEvent[] = [];
      const id = producer.id('m');
      events.push(message(producer.seq++, id, [{ type: 'text', text: `between ${id}` }]));
      push(events);
    }
  }
  steps.push({ kind: 'publish' });
  return steps;
}

// ---------------------------------------------------------------------------------------
// Checking

/** Counts of what a check compared. */
export interface Checked {
  publications: number;
  events: number;
  maxTools: number;
  /** Publications that listed every node afresh (a sort, or a page and a changed end at once). */
  relisted: number;
  /** Publications patched whose Assembler put Contexts back in order (tail repair or front merge). */
  repaired: number;
}

const isGroup = (item: { readonly kind: string }): item is GroupNode => item.kind === 'group';

function toolShape(tool: ToolNode): string {
  const { call, result } = tool;
  return [
    tool.callId,
    tool.name,
    tool.stage,
    tool.argsRaw,
    call && `${call.name} ${call.argsRaw}`,
    result && `${String(result.output)} ${result.isError}`,
    tool.incomplete ?? false,
    tool.executor ?? null,
    tool.approval?.state ?? null,
    tool.args.text('file_path') ?? null,
    tool.args.closed(),
  ].join('|');
}

/** More than `conversationShape`: every field a row shows, assistant text, turn stage. */
function deepShape(conversation: Published): unknown {
  return {
    items: conversation.items.map((item) => {
      if (isGroup(item)) {
        const counts = item.counts.map((c) => `${c.category}:${c.count}`);
        return ['group', item.id, item.tools.map(toolShape), counts];
      }
      if (item.kind === 'assistant') {
        const blocks = item.blocks.map((b) =>
          b.type === 'tool-use' ? `${b.callId} ${b.name}` : `${b.type} ${b.text}`,
        );
        return ['assistant', item.id, item.stage, item.text, item.reasoning, blocks];
      }
      return ['turn', item.id, item.stage];
    }),
    tools: [...conversation.tools].map(([callId, tool]) => [callId, toolShape(tool)]),
  };
}

/** Deep equality of shapes (arrays, plain objects, primitives). */
function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!same(a[i], b[i])) return false;
    return true;
  }
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) =>
    same((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]),
  );
}

/** The keys a batch of events may change: callIds, attemptIds, turnIds ('*': all). */
function touched(events: readonly CallfoldEvent[], log: readonly CallfoldEvent[]): Set<string> {
  const keys = new Set<string>();
  for (const event of events) {
    if ('callId' in event && event.callId !== undefined) keys.add(`tool:${event.callId}`);
    if ('attemptId' in event) keys.add(`assistant:${event.attemptId}`);
    if ('turnId' in event) keys.add(`turn:${event.turnId}`);
    if (event.type === 'assistant/message') {
      for (const block of event.blocks) {
        if (block.type === 'tool-use') keys.add(`tool:${block.callId}`);
      }
    }
    if (event.type === 'stream/settle') {
      // Withdraws the attempt's stream events from every Context that holds them.
      for (const held of log) {
        if (isStreamEvent(held) && held.attemptId === event.attemptId && 'callId' in held) {
          keys.add(`tool:${held.callId}`);
        }
      }
    }
  }
  return keys;
}

function keyOf(item: { readonly kind: string; readonly id: string }): string {
  return item.kind === 'group' ? '' : `${item.kind}:${item.id}`;
}

/**
 * What structural sharing promises between two publications, given the keys changed
 * between them: an untouched tool is the same node; a group with the same tools is the same
 * group; an untouched response or turn is the same node; items and tools are the same
 * objects when nothing in them changed. A message, or null.
 */
function sharing(
  previous: Published,
  current: Published,
  keys: ReadonlySet<string>,
): string | null {
  for (const [callId, tool] of current.tools) {
    const before = previous.tools.get(callId);
    if (before && before !== tool && !keys.has(`tool:${callId}`)) {
      return `tool ${callId} was replaced though no event touched it`;
    }
    if (current.tools.get(callId) !== tool) return `tools.get(${callId}) is not the node iterated`;
    if (!current.tools.has(callId)) return `tools.has(${callId}) is false`;
  }
  const groups = new Map<string, GroupNode>();
  const others = new Map<string, unknown>();
  for (const item of previous.items) {
    if (isGroup(item)) groups.set(item.id, item);
    else others.set(keyOf(item), item);
  }
  let tools = 0;
  for (const item of current.items) {
    if (isGroup(item)) {
      tools += item.tools.length;
      for (const tool of item.tools) {
        if (current.tools.get(tool.callId) !== tool) {
          return `group ${item.id} holds a ${tool.callId} node that tools.get() does not return`;
        }
      }
      const before = groups.get(item.id);
      if (
        before &&
        before !== item &&
        before.tools.length === item.tools.length &&
        before.tools.every((tool, i) => tool === item.tools[i])
      ) {
        return `group ${item.id} is a new object with the same tools`;
      }
      continue;
    }
    const before = others.get(keyOf(item));
    if (before && before !== item && !keys.has(keyOf(item))) {
      return `${keyOf(item)} was replaced though no event touched it`;
    }
  }
  if (tools !== current.tools.size)
    return `groups hold ${tools} tools, the map ${current.tools.size}`;
  const items = current.items;
  if (items !== previous.items) {
    const ends = keptEnds(previous.items, items);
    if (ends === undefined) return 'keptEnds does not know the items published before';
    const shorter = Math.min(items.length, previous.items.length);
    if (ends.prefix + ends.suffix > shorter) return `keptEnds ${JSON.stringify(ends)} overlap`;
    for (let i = 0; i < ends.prefix; i++) {
      if (items[i] !== previous.items[i])
        return `keptEnds prefix ${ends.prefix}: item ${i} changed`;
    }
    for (let i = 1; i <= ends.suffix; i++) {
      if (items[items.length - i] !== previous.items[previous.items.length - i]) {
        return `keptEnds suffix ${ends.suffix}: item ${i} from the end changed`;
      }
    }
  }
  if (
    items !== previous.items &&
    items.length === previous.items.length &&
    items.every((item, i) => item === previous.items[i])
  ) {
    return 'items is a new array with the same items';
  }
  if (current.tools !== previous.tools && current.tools.size === previous.tools.size) {
    const before = [...previous.tools];
    const after = [...current.tools];
    if (after.every(([id, tool], i) => before[i]?.[0] === id && before[i]?.[1] === tool)) {
      return 'tools is a new map with the same entries';
    }
  }
  return null;
}

/**
 * Runs `steps` on `make()` and compares every publication with a fresh Assembler given the
 * log so far in one push. Returns the first disagreement (with the publish step's index), or
 * the counts compared.
 */
export function check(
  steps: readonly Step[],
  make: () => Publisher = reference,
): { failure: string; at: number } | Checked {
  const counts: Checked = { publications: 0, events: 0, maxTools: 0, relisted: 0, repaired: 0 };
  const incremental = make();
  // The log as one push gives it: older pages first, then what was pushed; a reconnection
  // withdraws every stream event held (settles stay: their attempts stay settled).
  let log: CallfoldEvent[] = [];
  let batch: CallfoldEvent[] = [];
  let reconnected = false;
  let previous: Published | undefined;
  for (const [at, step] of steps.entries()) {
    try {
      switch (step.kind) {
        case 'push':
          incremental.push(step.events);
          log.push(...step.events);
          batch.push(...step.events);
          counts.events += step.events.length;
          break;
        case 'prepend':
          incremental.prepend(step.events);
          log = [...step.events, ...log];
          batch.push(...step.events);
          counts.events += step.events.length;
          break;
        case 'reconnect':
          incremental.reconnect();
          log = log.filter((event) => !isStreamEvent(event) || event.type === 'stream/settle');
          reconnected = true;
          break;
        case 'publish': {
          const { listed, ordered } = assemblerProbe;
          const published = incremental.publish();
          if (assemblerProbe.listed > listed) counts.relisted++;
          else if (assemblerProbe.ordered > ordered) counts.repaired++;
          const again = incremental.publish();
          if (again !== published) return { failure: 'a publication without news is new', at };
          const rebuilt = reference();
          rebuilt.push(log);
          const expected = rebuilt.publish();
          const got = conversationShape(published as Conversation);
          const want = conversationShape(expected as Conversation);
          if (!same(got, want)) {
            return { failure: `conversationShape differs:\n${diff(got, want)}`, at };
          }
          const deepGot = deepShape(published);
          const deepWant = deepShape(expected);
          if (!same(deepGot, deepWant)) {
            return { failure: `fields differ:\n${diff(deepGot, deepWant)}`, at };
          }
          if (previous && !reconnected) {
            const message = sharing(previous, published, touched(batch, log));
            if (message) return { failure: message, at };
          }
          counts.publications++;
          counts.maxTools = Math.max(counts.maxTools, published.tools.size);
          previous = published;
          batch = [];
          reconnected = false;
          break;
        }
        default:
          step satisfies never;
      }
    } catch (error) {
      return { failure: `threw: ${(error as Error)?.stack ?? error}`, at };
    }
  }
  return counts;
}

/** The first lines where two shapes differ (as indented JSON). */
function diff(got: unknown, want: unknown): string {
  const a = JSON.stringify(got, null, 1).split('\n');
  const b = JSON.stringify(want, null, 1).split('\n');
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] !== b[i]) {
      return `  line ${i}: incremental ${a[i]?.trim()}\n  line ${i}: rebuild     ${b[i]?.trim()}`;
    }
  }
  return '  (equal as text)';
}

/**
 * A smaller list of steps that still fails `check` (steps, then single events removed while
 * it fails; at most `budget` checks).
 */
export function shrink(steps: readonly Step[], make?: () => Publisher, budget = 1500): Step[] {
  const fails = (candidate: readonly Step[]) => {
    budget--;
    return 'failure' in check(candidate, make);
  };
  const first = check(steps, make);
  if (!('failure' in first)) return [...steps];
  let current = [...steps.slice(0, first.at + 1)];
  for (let size = current.length >> 1; size >= 1 && budget > 0; size >>= 1) {
    for (let i = 0; i + size <= current.length && budget > 0; ) {
      const candidate = [...current.slice(0, i), ...current.slice(i + size)];
      if (candidate.some((s) => s.kind === 'publish') && fails(candidate)) current = candidate;
      else i += size;
    }
  }
  for (let s = 0; s < current.length && budget > 0; s++) {
    for (let e = 0; budget > 0; ) {
      const step = current[s] as Step;
      if ((step.kind !== 'push' && step.kind !== 'prepend') || e >= step.events.length) break;
      const events = [...step.events.slice(0, e), ...step.events.slice(e + 1)];
      const candidate = [...current];
      candidate[s] = { ...step, events } as Step;
      if (fails(candidate)) current = candidate;
      else e++;
    }
  }
  return current;
}

/** A failure report: the seed, the message, and the shrunk steps one per line. */
export function report(
  seed: number,
  steps: readonly Step[],
  make?: () => Publisher,
  budget?: number,
): string {
  const small = shrink(steps, make, budget);
  const outcome = check(small, make);
  const message = 'failure' in outcome ? outcome.failure : '(the shrunk steps pass)';
  const lines = small.map((step) =>
    step.kind === 'push' || step.kind === 'prepend'
      ? `${step.kind} ${JSON.stringify(step.events)}`
      : step.kind,
  );
  return `seed ${seed}: ${message}\nminimal steps (${small.length}):\n${lines.join('\n')}`;
}
