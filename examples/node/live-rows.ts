/**
 * The replay both terminal examples run (runtime-neutral: no Node or Deno API here). It feeds
 * a recorded provider stream, as bytes at a network-like pace, through the provider's adapter
 * and `assemble()`, and prints the live tool rows: stage, name, path, KiB, description.
 */
import { type Observable, tap } from 'rxjs';
import {
  type AssistantNode,
  assemble,
  type CallfoldEvent,
  type Conversation,
  createSession,
  fromAISDKUIStream,
  fromAnthropicMessages,
  fromOpenAIChatCompletions,
  fromOpenAIResponses,
  type ProviderSource,
  type ToolNode,
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
  const adapter = adapters[options.provider];
  if (!adapter) {
    throw new Error(
      `unknown provider ${options.provider}; one of ${Object.keys(adapters).join(', ')}`,
    );
  }
  let drawn = 0;
  const printed = new Map<string, string>();
  let events = 0;
  let last: Conversation | undefined;
  return new Promise((resolve, reject) => {
    adapter(paced(options.sse, options.speed))
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
