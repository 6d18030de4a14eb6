/**
 * The bytes and chunks of `npm run bench:peers`: one scenario (a streamed `write` at a size,
 * or a session of many smaller writes) in each wire format a peer's client reads, built
 * before timing. Every wire carries the same calls, each call's argument text in the same
 * 16-character deltas. Delivery is paced as a socket would deliver it: a macrotask after
 * every `GROUP` chunks, so batching readers (callfold's scheduler) see the same arrivals.
 */
import { anthropicWriteChunks, contestant } from '../support/adapter-chunks.js';
import { buildWriteArguments, type WriteArguments } from '../support/content.js';

/** Chunks delivered between two macrotasks. */
export const GROUP = 64;

export type ScenarioId = `write-${number}` | `session-${number}`;

export interface Scenario {
  readonly id: ScenarioId;
  readonly title: string;
  /** The calls, in order; the session's calls stream one after another. */
  readonly calls: readonly WriteArguments[];
}

/** One `write` whose content is `kib` KiB (code-like, dense in escapes). */
export function writeScenario(kib: number): Scenario {
  const call = buildWriteArguments({ kind: 'code', contentLength: Math.round(kib * 1024) });
  return { id: `write-${kib}`, title: `write ${kib} KiB`, calls: [call] };
}

/** `count` writes of 1 KiB each, one after another in one assistant turn. */
export function sessionScenario(count: number): Scenario {
  const calls = Array.from({ length: count }, (_, k) =>
    buildWriteArguments({ kind: 'code', contentLength: 1024, seed: 0x5eed + k }),
  );
  return { id: `session-${count}`, title: `session of ${count} calls`, calls };
}

/** Parses `write-16` / `session-200` back into its scenario. */
export function scenarioById(id: string): Scenario {
  const [kind, size] = id.split('-');
  const n = Number(size);
  if (!(n > 0)) throw new Error(`unknown scenario ${id}`);
  if (kind === 'write') return writeScenario(n);
  if (kind === 'session') return sessionScenario(n);
  throw new Error(`unknown scenario ${id}`);
}

/** What every reader must end with: the calls, the last path, the content lengths summed. */
export interface Expected {
  readonly calls: number;
  readonly path: string;
  readonly contentLength: number;
}

export function expectedOf(scenario: Scenario): Expected {
  const last = scenario.calls[scenario.calls.length - 1];
  return {
    calls: scenario.calls.length,
    path: last?.path ?? '',
    contentLength: scenario.calls.reduce((sum, call) => sum + call.content.length, 0),
  };
}

/** The id of call `k` on every wire. */
export const callId = (k: number): string => `call_${k}`;

/** AI SDK 6 `UIMessageChunk`s: one `tool-input-delta` per fragment, then the parsed input. */
export function uiMessageChunks(scenario: Scenario): unknown[] {
  const chunks: unknown[] = [{ type: 'start', messageId: 'msg_bench' }, { type: 'start-step' }];
  for (const [k, call] of scenario.calls.entries()) {
    const toolCallId = callId(k);
    chunks.push({ type: 'tool-input-start', toolCallId, toolName: 'Write' });
    for (const inputTextDelta of call.fragments) {
      chunks.push({ type: 'tool-input-delta', toolCallId, inputTextDelta });
    }
    chunks.push({
      type: 'tool-input-available',
      toolCallId,
      toolName: 'Write',
      input: { file_path: call.path, content: call.content },
    });
  }
  chunks.push({ type: 'finish-step' }, { type: 'finish' });
  return chunks;
}

/** Chat Completions chunks as SSE `data:` messages; each call its own `index`. */
export function openaiMessages(scenario: Scenario): string[] {
  const chunk = (delta: unknown, finish_reason: string | null = null) =>
    `data: ${JSON.stringify({
      id: 'chatcmpl-bench',
      object: 'chat.completion.chunk',
      created: 1_700_000_000,
      model: 'gpt-bench',
      choices: [{ index: 0, delta, logprobs: null, finish_reason }],
    })}\n\n`;
  const messages = [chunk({ role: 'assistant', content: null })];
  for (const [index, call] of scenario.calls.entries()) {
    const opening = { index, id: callId(index), type: 'function' };
    messages.push(
      chunk({ tool_calls: [{ ...opening, function: { name: 'Write', arguments: '' } }] }),
    );
    for (const args of call.fragments) {
      messages.push(chunk({ tool_calls: [{ index, function: { arguments: args } }] }));
    }
  }
  messages.push(chunk({}, 'tool_calls'), 'data: [DONE]\n\n');
  return messages;
}

/** Anthropic Messages events as SSE messages; each call its own content block. */
export function anthropicMessages(scenario: Scenario): string[] {
  const perCall = scenario.calls.map((call, k) => {
    const events = anthropicWriteChunks(call) as Record<string, unknown>[];
    // One call's events: message_start, block start, deltas, block stop, message_delta, stop.
    return events.slice(1, -2).map((event) => {
      const block = event.content_block as Record<string, unknown> | undefined;
      return {
        ...event,
        index: k,
        ...(block ? { content_block: { ...block, id: callId(k) } } : {}),
      };
    });
  });
  const first = anthropicWriteChunks(scenario.calls[0] as WriteArguments);
  const events = [first[0], ...perCall.flat(), ...first.slice(-2)];
  return events.map(
    (event) => `event: ${(event as { type: string }).type}\ndata: ${JSON.stringify(event)}\n\n`,
  );
}

/** `@ag-ui/core` events as `HttpAgent` emits them: one `TOOL_CALL_ARGS` per fragment. */
export function aguiEvents(scenario: Scenario): unknown[] {
  const perCall = scenario.calls.map((call, k) =>
    ((contestant(call, 'agui')?.chunks ?? []) as Record<string, unknown>[])
      .slice(1, -1)
      .map((event) => ({ ...event, toolCallId: callId(k) })),
  );
  const ids = { threadId: 'thread_bench', runId: 'run_bench' };
  return [{ type: 'RUN_STARTED', ...ids }, ...perCall.flat(), { type: 'RUN_FINISHED', ...ids }];
}

/** Each SSE message turned into `data:` form (the UI message stream's own SSE encoding). */
export function uiMessageSSE(chunks: readonly unknown[]): string[] {
  return [...chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`), 'data: [DONE]\n\n'];
}

/** Groups of `GROUP` items: what one macrotask delivers. */
export function grouped<T>(items: readonly T[]): T[][] {
  const groups: T[][] = [];
  for (let i = 0; i < items.length; i += GROUP) groups.push(items.slice(i, i + GROUP));
  return groups;
}

/** SSE messages as byte groups, encoded before timing. */
export function byteGroups(messages: readonly string[]): Uint8Array[] {
  const encoder = new TextEncoder();
  return grouped(messages).map((group) => encoder.encode(group.join('')));
}

/** A fresh stream over prebuilt groups, each delivered in a macrotask of its own. */
export function paced<T>(groups: readonly (readonly T[])[]): ReadableStream<T> {
  let next = 0;
  return new ReadableStream<T>(
    {
      async pull(controller) {
        await new Promise((resolve) => setImmediate(resolve));
        const group = groups[next++];
        if (group === undefined) return controller.close();
        for (const item of group) controller.enqueue(item);
      },
    },
    { highWaterMark: 0 },
  );
}

/** The same groups as an async iterable, each in a macrotask of its own. */
export async function* pacedIterable<T>(groups: readonly (readonly T[])[]): AsyncGenerator<T> {
  for (const group of groups) {
    await new Promise((resolve) => setImmediate(resolve));
    yield* group;
  }
}

/** Every item of a stream, in order (Node's streams are async iterable; the DOM typings are not). */
export async function* items<T>(stream: ReadableStream<T>): AsyncGenerator<T> {
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    yield value;
  }
}

/** A fresh stream of byte groups, one per macrotask, as a socket delivers a body. */
export function pacedBytes(groups: readonly Uint8Array[]): ReadableStream<Uint8Array> {
  let next = 0;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        await new Promise((resolve) => setImmediate(resolve));
        const group = groups[next++];
        if (group === undefined) return controller.close();
        controller.enqueue(group);
      },
    },
    { highWaterMark: 0 },
  );
}

/** A `fetch` that answers every request with the SSE body, paced. */
export function sseFetch(groups: readonly Uint8Array[]): typeof fetch {
  return async () =>
    new Response(pacedBytes(groups), {
      status: 200,
      headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' },
    });
}
