/**
 * The contestants of `npm run bench:peers`: each peer's own client code path, and callfold's
 * adapter + `assemble()` over the same wire. Every contestant reads what a tool row shows —
 * the path and the content's size — each time its client hands it something new, and ends
 * with what it saw last of every call (checked against the scenario by the worker).
 */

import { AbstractAgent, type BaseEvent, type RunAgentInput } from '@ag-ui/client';
import Anthropic from '@anthropic-ai/sdk';
import { readUIMessageStream, type UIMessageChunk } from 'ai';
import { AssistantMessageAccumulator, UIMessageStreamDecoder } from 'assistant-stream';
import OpenAI from 'openai';
import { from, type Observable } from 'rxjs';
import type { Conversation } from '../../src/conversation/conversation.js';
import type { CallfoldEvent } from '../../src/events/types.js';
import { fromAGUI } from '../../src/providers/ag-ui.js';
import { fromAISDKUIStream } from '../../src/providers/ai-sdk-ui-stream.js';
import { fromAnthropicMessages } from '../../src/providers/anthropic-messages.js';
import { fromOpenAIChatCompletions } from '../../src/providers/openai-chat-completions.js';
import { assemble } from '../../src/rx/assemble.js';
import {
  aguiEvents,
  anthropicMessages,
  byteGroups,
  grouped,
  items,
  openaiMessages,
  paced,
  pacedIterable,
  type Scenario,
  sseFetch,
  uiMessageChunks,
  uiMessageSSE,
} from './streams.js';

/** What a contestant saw: reads made, calls seen, the last path, content lengths summed. */
export interface Outcome {
  readonly reads: number;
  readonly calls: number;
  readonly path: string | undefined;
  readonly contentLength: number;
}

export interface Contestant {
  readonly name: string;
  /** The wire it reads, and the callfold row it is divided by. */
  readonly wire: 'ui' | 'ui-sse' | 'openai' | 'anthropic' | 'agui';
  /** What it runs, for the notes. */
  readonly note: string;
  /** Builds the wire (untimed); the returned function is one timed run. */
  prepare(scenario: Scenario): () => Promise<Outcome>;
}

/** The row a UI keeps per call: the path and content size it shows. */
class Rows {
  reads = 0;
  readonly #lengths = new Map<string, number>();
  #path: string | undefined;

  read(id: string, input: unknown): void {
    this.reads++;
    if (typeof input !== 'object' || input === null) return;
    const { file_path, content } = input as { file_path?: unknown; content?: unknown };
    if (typeof file_path === 'string') this.#path = file_path;
    this.#lengths.set(id, typeof content === 'string' ? content.length : 0);
  }

  outcome(): Outcome {
    let contentLength = 0;
    for (const length of this.#lengths.values()) contentLength += length;
    return { reads: this.reads, calls: this.#lengths.size, path: this.#path, contentLength };
  }
}

const aiSdk: Contestant = {
  name: 'AI SDK readUIMessageStream',
  wire: 'ui',
  note: '`ai` `readUIMessageStream` (what `useChat` runs) over the UI message stream chunks; every yielded message snapshot read, every tool part',
  prepare(scenario) {
    const groups = grouped(uiMessageChunks(scenario) as UIMessageChunk[]);
    return async () => {
      const rows = new Rows();
      for await (const message of readUIMessageStream({ stream: paced(groups) })) {
        for (const part of message.parts) {
          if ('toolCallId' in part) rows.read(part.toolCallId, part.input);
        }
      }
      return rows.outcome();
    };
  },
};

const assistantStream: Contestant = {
  name: 'assistant-stream accumulator',
  wire: 'ui-sse',
  note: "assistant-ui's stream layer (`assistant-stream`): `UIMessageStreamDecoder` over the SSE bytes, then `AssistantMessageAccumulator`; every snapshot's tool-call parts read (`args`)",
  prepare(scenario) {
    const groups = byteGroups(uiMessageSSE(uiMessageChunks(scenario)));
    return async () => {
      const rows = new Rows();
      const body = (await sseFetch(groups)('')).body as ReadableStream<Uint8Array<ArrayBuffer>>;
      const messages = body
        .pipeThrough(new UIMessageStreamDecoder())
        .pipeThrough(new AssistantMessageAccumulator());
      for await (const message of items(messages)) {
        for (const part of message.parts) {
          if (part.type === 'tool-call') rows.read(part.toolCallId, part.args);
        }
      }
      return rows.outcome();
    };
  },
};

/**
 * The floor of the UI message stream's SSE: the bytes decoded, split into events, every
 * `data:` payload `JSON.parse`d, and nothing else — what any client of that wire must do
 * before it can fold anything. Its outcome comes from each call's `tool-input-available`
 * (the whole input, already in the parsed chunk), so that it is checked like the others.
 */
const sseFloor: Contestant = {
  name: 'floor: SSE decode + JSON.parse',
  wire: 'ui-sse',
  note: 'no client: the same SSE bytes as assistant-stream and callfold (ui-sse), decoded (`TextDecoder`, streaming), split at blank lines, each `data:` payload `JSON.parse`d; the path and size taken from each `tool-input-available` only',
  prepare(scenario) {
    const groups = byteGroups(uiMessageSSE(uiMessageChunks(scenario)));
    return async () => {
      const rows = new Rows();
      const body = (await sseFetch(groups)('')).body as ReadableStream<Uint8Array>;
      const decoder = new TextDecoder();
      let buffer = '';
      const take = (event: string) => {
        if (!event.startsWith('data: ')) return;
        const data = event.slice('data: '.length);
        if (data === '[DONE]') return;
        const chunk = JSON.parse(data) as { type?: unknown; toolCallId?: unknown; input?: unknown };
        if (chunk.type === 'tool-input-available') rows.read(String(chunk.toolCallId), chunk.input);
      };
      for await (const bytes of items(body)) {
        buffer += decoder.decode(bytes, { stream: true });
        let start = 0;
        for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n', start)) {
          take(buffer.slice(start, end));
          start = end + 2;
        }
        buffer = buffer.slice(start);
      }
      take(buffer + decoder.decode());
      return rows.outcome();
    };
  },
};

const tools = [
  {
    type: 'function' as const,
    function: {
      name: 'Write',
      strict: true,
      parameters: {
        type: 'object',
        properties: { file_path: { type: 'string' }, content: { type: 'string' } },
        required: ['file_path', 'content'],
        additionalProperties: false,
      },
    },
  },
];

const openai: Contestant = {
  name: 'OpenAI SDK chat.completions.stream',
  wire: 'openai',
  note: '`openai` `chat.completions.stream()` with a strict tool (so it parses arguments as they stream), fed the SSE through its `fetch` option; every `tool_calls.function.arguments.delta` read (`parsed_arguments`)',
  prepare(scenario) {
    const client = new OpenAI({
      apiKey: 'bench',
      maxRetries: 0,
      fetch: sseFetch(byteGroups(openaiMessages(scenario))),
    });
    return async () => {
      const rows = new Rows();
      const stream = client.chat.completions.stream({
        model: 'gpt-bench',
        messages: [{ role: 'user', content: 'Write the file.' }],
        tools,
      });
      stream.on('tool_calls.function.arguments.delta', (event) =>
        rows.read(String(event.index), event.parsed_arguments),
      );
      await stream.done();
      return rows.outcome();
    };
  },
};

const anthropic: Contestant = {
  name: 'Anthropic SDK messages.stream',
  wire: 'anthropic',
  note: "`@anthropic-ai/sdk` `messages.stream()` fed the SSE through its `fetch` option; every `inputJson` event's snapshot read (what a UI showing partial input subscribes to)",
  prepare(scenario) {
    const client = new Anthropic({
      apiKey: 'bench',
      maxRetries: 0,
      fetch: sseFetch(byteGroups(anthropicMessages(scenario))),
    });
    return async () => {
      const rows = new Rows();
      const stream = client.messages.stream({
        model: 'claude-bench',
        max_tokens: 64_000,
        messages: [{ role: 'user', content: 'Write the file.' }],
      });
      let block = -1;
      stream.on('streamEvent', (event) => {
        if (event.type === 'content_block_start') block = event.index;
      });
      stream.on('inputJson', (_delta, snapshot) => rows.read(String(block), snapshot));
      await stream.done();
      return rows.outcome();
    };
  },
};

/** What `AbstractAgent.run` returns: an Observable of `@ag-ui/client`'s own (nested) rxjs. */
type AgentEvents = ReturnType<AbstractAgent['run']>;

/**
 * An agent whose run is the prepared events, applied by `@ag-ui/client`'s own `runAgent`.
 * The Observable comes from the project's rxjs; the client's nested copy pipes it through
 * its operators like its own (they only subscribe to it).
 */
class ReplayAgent extends AbstractAgent {
  constructor(readonly events: () => Observable<BaseEvent>) {
    super({ threadId: 'thread_bench' });
  }
  run(_input: RunAgentInput): AgentEvents {
    return this.events() as unknown as AgentEvents;
  }
}

const agui: Contestant = {
  name: '@ag-ui/client runAgent',
  wire: 'agui',
  note: "`@ag-ui/client` `AbstractAgent.runAgent()` applying the events (verify, apply, message mutations); a subscriber reads every `onToolCallArgsEvent`'s `partialToolCallArgs` and `onToolCallEndEvent`'s final arguments",
  prepare(scenario) {
    const groups = grouped(aguiEvents(scenario) as BaseEvent[]);
    return async () => {
      const rows = new Rows();
      const agent = new ReplayAgent(() => from(pacedIterable(groups)));
      await agent.runAgent(
        {},
        {
          onToolCallArgsEvent: ({ event, partialToolCallArgs }) =>
            rows.read(event.toolCallId, partialToolCallArgs),
          onToolCallEndEvent: ({ event, toolCallArgs }) =>
            rows.read(event.toolCallId, toolCallArgs),
        },
      );
      return rows.outcome();
    };
  },
};

/** callfold: the adapter + `assemble()`, every publication reading each call's row. */
function callfold(
  wire: Contestant['wire'],
  adapt: (
    scenario: Scenario,
  ) => () => Observable<CallfoldEvent> | Promise<Observable<CallfoldEvent>>,
  note: string,
): Contestant {
  return {
    name: `callfold (${wire})`,
    wire,
    note,
    prepare(scenario) {
      const events = adapt(scenario);
      return async () => {
        let reads = 0;
        let last: Conversation | undefined;
        let path: string | undefined;
        const source = await events();
        await new Promise<void>((resolve, reject) => {
          source.pipe(assemble()).subscribe({
            next: (conversation) => {
              for (const tool of conversation.tools.values()) {
                reads++;
                path = tool.args.text('file_path') ?? path;
                tool.args.stringLength('content', { step: 1024 });
              }
              last = conversation;
            },
            error: reject,
            complete: resolve,
          });
        });
        let contentLength = 0;
        for (const tool of last?.tools.values() ?? []) {
          contentLength += tool.args.stringLength('content', { step: 1024 }) ?? 0;
        }
        return { reads, calls: last?.tools.size ?? 0, path, contentLength };
      };
    },
  };
}

const viaFetch = (groups: readonly Uint8Array[]) => sseFetch(groups)('');

export const CONTESTANTS: readonly Contestant[] = [
  aiSdk,
  callfold(
    'ui',
    (scenario) => {
      const groups = grouped(uiMessageChunks(scenario));
      return () => fromAISDKUIStream(paced(groups));
    },
    '`fromAISDKUIStream` over the UI message stream chunks + `assemble()`',
  ),
  assistantStream,
  sseFloor,
  callfold(
    'ui-sse',
    (scenario) => {
      const groups = byteGroups(uiMessageSSE(uiMessageChunks(scenario)));
      return async () => fromAISDKUIStream(await viaFetch(groups));
    },
    "`fromAISDKUIStream` over the same SSE `Response` as assistant-stream's + `assemble()` (the browser's path: `fetch`'s body)",
  ),
  openai,
  callfold(
    'openai',
    (scenario) => {
      const groups = byteGroups(openaiMessages(scenario));
      return async () => fromOpenAIChatCompletions(await viaFetch(groups));
    },
    '`fromOpenAIChatCompletions` over the same SSE `Response` + `assemble()`',
  ),
  anthropic,
  callfold(
    'anthropic',
    (scenario) => {
      const groups = byteGroups(anthropicMessages(scenario));
      return async () => fromAnthropicMessages(await viaFetch(groups));
    },
    '`fromAnthropicMessages` over the same SSE `Response` + `assemble()`',
  ),
  agui,
  callfold(
    'agui',
    (scenario) => {
      const groups = grouped(aguiEvents(scenario));
      return () => fromAGUI(pacedIterable(groups));
    },
    '`fromAGUI` over the same events + `assemble()`',
  ),
];

export function contestantByName(name: string): Contestant {
  const found = CONTESTANTS.find((contestant) => contestant.name === name);
  if (found === undefined) throw new Error(`unknown contestant ${name}`);
  return found;
}
