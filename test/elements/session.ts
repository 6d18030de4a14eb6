/**
 * A live session for element tests, folded by the real Assembler: tests push the events a
 * provider adapter would, publish, and hand the published nodes to elements, so every row
 * reads through a real `PartialArguments`.
 */
import { Assembler, type AssemblerOptions } from '../../src/conversation/assembler.js';
import type { Conversation } from '../../src/conversation/conversation.js';
import type { ToolNode } from '../../src/definitions/tool-definition.js';
import type { CallfoldEvent, StopReason } from '../../src/events/types.js';
import type { GroupNode } from '../../src/groups/builder.js';

export class Session {
  readonly assembler: Assembler;
  readonly attemptId: string;
  #seq = 0;
  #blocks = new Map<string, number>();
  conversation: Conversation;

  /** `options` go to the Assembler (e.g. `groups: { categories }`); the clock is fixed. */
  constructor(attemptId = 'a1', options: AssemblerOptions = {}) {
    this.assembler = new Assembler({ now: () => 1_000, ...options });
    this.attemptId = attemptId;
    this.conversation = this.assembler.publish();
  }

  push(...events: CallfoldEvent[]): this {
    this.assembler.push(events);
    return this;
  }

  /** The block of call `callId` in the attempt: numbered in order of first sight. */
  #blockOf(callId: string): number {
    let block = this.#blocks.get(callId);
    if (block === undefined) {
      block = this.#blocks.size;
      this.#blocks.set(callId, block);
    }
    return block;
  }

  /** One argument fragment of a streaming call; the name goes with the first one. */
  delta(callId: string, args: string, name?: string): this {
    const base = {
      type: 'stream/tool-call-delta',
      attemptId: this.attemptId,
      block: this.#blockOf(callId),
      callId,
      args,
    } as const;
    return this.push(name === undefined ? base : { ...base, name });
  }

  /** The whole argument text streamed in fragments of `size` characters. */
  stream(callId: string, name: string, text: string, size = 7): this {
    for (let at = 0; at < text.length; at += size) {
      this.delta(callId, text.slice(at, at + size), at === 0 ? name : undefined);
    }
    return this;
  }

  text(text: string, block = 99): this {
    return this.push({ type: 'stream/text-delta', attemptId: this.attemptId, block, text });
  }

  call(callId: string, name: string, args: string | Record<string, unknown>): this {
    return this.push({ type: 'tool/call', seq: ++this.#seq, callId, name, args });
  }

  /** A dispatched free-form (`input: 'text'`) call. */
  freeFormCall(callId: string, name: string, text: string): this {
    return this.push({
      type: 'tool/call',
      seq: ++this.#seq,
      callId,
      name,
      args: text,
      input: 'text',
    });
  }

  result(callId: string, output: unknown, isError = false): this {
    return this.push({ type: 'tool/result', seq: ++this.#seq, callId, output, isError });
  }

  /** A free-form (`input: 'text'`) fragment of a streaming call. */
  textDelta(callId: string, text: string, name?: string): this {
    const base = {
      type: 'stream/tool-call-delta',
      attemptId: this.attemptId,
      block: this.#blockOf(callId),
      callId,
      args: text,
      input: 'text',
    } as const;
    return this.push(name === undefined ? base : { ...base, name });
  }

  /** The message of this attempt, cut by `stopReason` inside the streamed call `callId`. */
  cut(callId: string, name: string, argsText: string, stopReason: StopReason = 'length'): this {
    return this.push({
      type: 'assistant/message',
      seq: ++this.#seq,
      messageId: `m-${this.attemptId}`,
      attemptId: this.attemptId,
      blocks: [{ type: 'tool-use', callId, name, argsText, incomplete: true }],
      stopReason,
    });
  }

  /** A dispatched call that waits for approval. */
  approvalRequest(callId: string): this {
    return this.push({ type: 'tool/approval-request', seq: ++this.#seq, callId });
  }

  approval(callId: string, approved: boolean, reason?: string): this {
    const event = { type: 'tool/approval', seq: ++this.#seq, callId, approved } as const;
    return this.push(reason === undefined ? event : { ...event, reason });
  }

  /** A call the provider ran: its `tool/call` and, when given, its result. */
  providerCall(
    callId: string,
    name: string,
    args: Record<string, unknown>,
    output?: unknown,
  ): this {
    this.push({ type: 'tool/call', seq: ++this.#seq, callId, name, args, executor: 'provider' });
    if (output === undefined) return this;
    return this.push({
      type: 'tool/result',
      seq: ++this.#seq,
      callId,
      output,
      executor: 'provider',
    });
  }

  publish(): Conversation {
    this.conversation = this.assembler.publish();
    return this.conversation;
  }

  /** The published node of a call (publishes first). */
  tool(callId: string): ToolNode {
    const node = this.publish().tools.get(callId);
    if (!node) throw new Error(`no published tool ${callId}`);
    return node;
  }

  /** The published group holding a call (publishes first). */
  group(callId: string): GroupNode {
    for (const item of this.publish().items) {
      if (item.kind === 'group' && item.tools.some((tool) => tool.callId === callId)) return item;
    }
    throw new Error(`no group holds ${callId}`);
  }
}

/** The text of a shadow tree: the element's shadow root and every nested one, whitespace collapsed. */
export function deepText(root: Element): string {
  const texts: string[] = [];
  const visit = (node: Node) => {
    if (node.nodeType === Node.TEXT_NODE) texts.push(node.textContent ?? '');
    const element = node as Element;
    if (element.shadowRoot) visit(element.shadowRoot);
    for (const child of node.childNodes) visit(child);
  };
  visit(root);
  return texts.join(' ').replace(/\s+/g, ' ');
}

/** A shadow root's text, whitespace collapsed. */
export function textOf(element: Element): string {
  return (element.shadowRoot?.textContent ?? '').replace(/\s+/g, ' ').trim();
}

/** The first element of a shadow root with the given part. */
export function part(element: Element, name: string): HTMLElement | null {
  return element.shadowRoot?.querySelector<HTMLElement>(`[part~="${name}"]`) ?? null;
}
