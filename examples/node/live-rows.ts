/**
 * The replay both terminal examples run (runtime-neutral: no Node or Deno API here). It feeds
 * a recorded provider stream, as bytes at a network-like pace, through the provider's adapter
 * and `assemble()`, and prints the live tool rows: stage, name, path, KiB, description.
 * `live` does the same with a request to a live endpoint (fetch is in every runtime).
 */
import { type Observable, tap } from 'rxjs';
import {
  type AssistantNode,
  assemble,
  builtinTools,
  type CallfoldEvent,
  type Conversation,
  createSession,
  fromAISDKUIStream,
  fromAnthropicMessages,
  fromOpenAIChatCompletions,
  fromOpenAIResponses,
  type ProviderSource,
  type ToolNode,
  toAnthropicTool,
  toOpenAIChatTool,
} from '../../src/index.js';

export const adapters: Record<string, (source: ProviderSource) => Observable<CallfoldEvent>> = {
  'anthropic-messages': (source) => fromAnthropicMessages(source, { session }),
  'openai-chat-completions': (source) => fromOpenAIChatCompletions(source, { session }),
  'openai-responses': (source) => fromOpenAIResponses(source, { session }),
  'ai-sdk-ui-stream': (source) => fromAISDKUIStream(source, { session }),
};
const session = createSession();

export interface ReplayOptions {
  readonly provider: string;
  /** The raw SSE body of a recorded response. */
  readonly sse: string;
  /** Playback speed: 1 sends 2 KiB every 10 ms (200 KiB/s). */
  readonly speed: number;
  /** Redraw the rows in place (a terminal), or print each row when it changes (a log). */
  readonly redraw: boolean;
  readonly write: (text: string) => void;
}

/** The SSE body as bytes, 2 KiB at a time, paced like a network. */
function paced(sse: string, speed: number): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(sse);
  let offset = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (offset >= bytes.length) return controller.close();
      await new Promise((resolve) => setTimeout(resolve, 10 / speed));
      controller.enqueue(bytes.subarray(offset, (offset += 2048)));
    },
  });
}

/** One row of a tool node. Each read is observed: the node is republished only when an answer read here changes. */
export function row(tool: ToolNode): string {
  const { args } = tool;
  const pathKey = args.has('file_path') ? 'file_path' : 'path';
  const path = args.complete(pathKey) ? (args.text(pathKey) ?? '') : '';
  const size =
    args.kind('content') === 'string'
      ? `${((args.stringLength('content', { step: 1024 }) ?? 0) / 1024).toFixed(0)} KiB`
      : '';
  const about = args.textPrefix('description', 48) || args.textPrefix('command', 48) || '';
  return [tool.stage.padEnd(9), tool.name.padEnd(6), path.padEnd(24), size.padStart(7), about]
    .join('  ')
    .trimEnd();
}

function assistantLine(node: AssistantNode): string {
  const text = node.text.replace(/\s+/g, ' ');
  return `${node.stage === 'settled' ? '✓' : '…'} ${text.length > 90 ? `${text.slice(0, 89)}…` : text}`;
}

/** Replays the recording; resolves with the last Conversation. */
export function replay(options: ReplayOptions): Promise<Conversation | undefined> {
  return show(options.provider, paced(options.sse, options.speed), options);
}

/** What `live` reads from the environment: CALLFOLD_BASE_URL, CALLFOLD_MODEL, the API key. */
export interface LiveConfig {
  readonly provider: 'openai-chat-completions' | 'anthropic-messages';
  readonly baseUrl: string;
  readonly model: string;
  readonly apiKey: string;
}

/**
 * The live config when the environment names an endpoint: CALLFOLD_BASE_URL and
 * CALLFOLD_MODEL, with OPENAI_API_KEY (an OpenAI-compatible Chat Completions endpoint), or
 * ANTHROPIC_API_KEY with CALLFOLD_PROVIDER=anthropic. Otherwise undefined (replay a fixture).
 */
export function liveConfig(env: Record<string, string | undefined>): LiveConfig | undefined {
  const baseUrl = env.CALLFOLD_BASE_URL;
  const model = env.CALLFOLD_MODEL;
  if (!baseUrl || !model) return undefined;
  const anthropic = env.CALLFOLD_PROVIDER === 'anthropic';
  const apiKey = anthropic ? env.ANTHROPIC_API_KEY : env.OPENAI_API_KEY;
  if (!apiKey) return undefined;
  return {
    provider: anthropic ? 'anthropic-messages' : 'openai-chat-completions',
    baseUrl: baseUrl.replace(/\/+$/, ''),
    model,
    apiKey,
  };
}

const prompt =
  'Read README.md and package.json in parallel, then write a short NOTES.md summarising them.';

/**
 * Streams one request with the builtin tools to a live endpoint and prints its rows like a
 * replay. The key goes only into the request header; it is never printed.
 */
export async function live(
  config: LiveConfig,
  options: Pick<ReplayOptions, 'redraw' | 'write'>,
): Promise<Conversation | undefined> {
  const tools = Object.values(builtinTools);
  const anthropic = config.provider === 'anthropic-messages';
  const response = await fetch(
    anthropic ? `${config.baseUrl}/v1/messages` : `${config.baseUrl}/chat/completions`,
    {
      method: 'POST',
      headers: anthropic
        ? {
            'content-type': 'application/json',
            'x-api-key': config.apiKey,
            'anthropic-version': '2023-06-01',
          }
        : { 'content-type': 'application/json', authorization: `Bearer ${config.apiKey}` },
      body: JSON.stringify(
        anthropic
          ? {
              model: config.model,
              max_tokens: 4096,
              stream: true,
              tools: tools.map((tool) => toAnthropicTool(tool)),
              messages: [{ role: 'user', content: prompt }],
            }
          : {
              model: config.model,
              stream: true,
              tools: tools.map((tool) => toOpenAIChatTool(tool)),
              messages: [{ role: 'user', content: prompt }],
            },
      ),
    },
  );
  // The adapter fails with a ProviderStreamError on an HTTP error status.
  return show(config.provider, response, options);
}

/** Pipes `source` through the provider's adapter and `assemble()`, printing the live rows. */
function show(
  provider: string,
  source: ProviderSource,
  options: Pick<ReplayOptions, 'redraw' | 'write'>,
): Promise<Conversation | undefined> {
  const adapter = adapters[provider];
  if (!adapter) {
    throw new Error(`unknown provider ${provider}; one of ${Object.keys(adapters).join(', ')}`);
  }
  let drawn = 0;
  const printed = new Map<string, string>();
  let events = 0;
  let last: Conversation | undefined;
  return new Promise((resolve, reject) => {
    adapter(source)
      .pipe(
        tap(() => events++),
        assemble(),
      )
      .subscribe({
        next(conversation) {
          last = conversation;
          const lines: [string, string][] = [];
          for (const item of conversation.items) {
            if (item.kind === 'assistant') lines.push([item.id, assistantLine(item)]);
            else for (const tool of item.tools) lines.push([tool.callId, row(tool)]);
          }
          if (options.redraw) {
            const up = drawn > 0 ? `\x1b[${drawn}F` : '';
            options.write(`${up}\x1b[J${lines.map(([, line]) => line).join('\n')}\n`);
            drawn = lines.length;
          } else {
            for (const [key, line] of lines) {
              if (printed.get(key) === line) continue;
              printed.set(key, line);
              options.write(`${line}\n`);
            }
          }
        },
        error: reject,
        complete() {
          options.write(`\n${events} events, ${session.history().length} durable\n`);
          resolve(last);
        },
      });
  });
}
