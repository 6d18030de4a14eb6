import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GCProfiler } from 'node:v8';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { lastValueFrom } from 'rxjs';
import { fromAnthropicMessages } from '../../src/providers/anthropic-messages.js';
import { fromOpenAIChatCompletions } from '../../src/providers/openai-chat-completions.js';
import { assemble } from '../../src/rx/assemble.js';
import { anthropicWriteChunks } from './adapter-chunks.js';
import { buildWriteArguments } from './content.js';

/**
 * Goal 5 of the sessions benchmark: one 512 KiB `write` streamed by a local node:http server
 * over loopback in a provider's documented wire format, read by the official SDK three ways
 * in the same worker, alternated run by run (`sdkPairs`): iterating the SDK's stream alone,
 * adapter + `assemble()` (default scheduler), and the SDK's own stream helper
 * (`messages.stream().finalMessage()`, `chat.completions.stream().finalChatCompletion()`).
 *
 * A fourth variant, not part of goal 5, is adapter + `assemble()` over the same request's raw
 * response (`create({ stream: true }).asResponse()`): callfold's own SSE decoder instead of
 * the SDK's, which copies what is left of its buffer for every SSE message (76,000 copies,
 * ~550 MB, per 512 KiB write; docs/decisions/0011-sdk-stream-costs.md).
 */
export type SdkProvider = 'anthropic' | 'openai';
export type SdkVariant = 'iterate' | 'callfold' | 'helper' | 'response';
export const SDK_VARIANTS: readonly SdkVariant[] = ['iterate', 'callfold', 'helper', 'response'];

/** The SSE body: the write's arguments in 16-character fragments. */
function sseBody(provider: SdkProvider): { body: string; fragments: number; argsLength: number } {
  const write = buildWriteArguments({ kind: 'code', contentLength: 512 * 1024 });
  const { fragments, text } = write;
  const lines: string[] = [];
  const event = (type: string, data: unknown) =>
    lines.push(`event: ${type}\ndata: ${JSON.stringify(data)}\n\n`);
  const data = (payload: unknown) => lines.push(`data: ${JSON.stringify(payload)}\n\n`);
  if (provider === 'anthropic') {
    for (const chunk of anthropicWriteChunks(write)) event((chunk as { type: string }).type, chunk);
  } else {
    const chunk = (delta: unknown, finish_reason: string | null = null) =>
      data({
        id: 'chatcmpl-bench',
        object: 'chat.completion.chunk',
        created: 1_700_000_000,
        model: 'gpt-bench',
        choices: [{ index: 0, delta, logprobs: null, finish_reason }],
      });
    chunk({
      role: 'assistant',
      content: null,
      tool_calls: [
        {
          index: 0,
          id: 'call_bench',
          type: 'function',
          function: { name: 'Write', arguments: '' },
        },
      ],
    });
    for (const args of fragments)
      chunk({ tool_calls: [{ index: 0, function: { arguments: args } }] });
    chunk({}, 'tool_calls');
    lines.push('data: [DONE]\n\n');
  }
  return { body: lines.join(''), fragments: fragments.length, argsLength: text.length };
}

/** Serves `body` as an SSE response to every POST, written in 16 KiB chunks. */
async function serve(body: string): Promise<{ server: Server; url: string }> {
  const bytes = Buffer.from(body, 'utf8');
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      for (let i = 0; i < bytes.length; i += 16 * 1024)
        response.write(bytes.subarray(i, i + 16 * 1024));
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}` };
}

/** One variant's figures from `sdkPairs`, per timed round. */
export interface SdkPairCell {
  readonly variant: SdkVariant;
  /** Wall time of each run, request to the stream's end, in ms. */
  readonly wallMs: number[];
  /** CPU time of the main thread, in ms (Linux schedstat; the process's CPU time elsewhere). */
  readonly mainMs: number[];
  /** CPU time of the process, every thread. */
  readonly cpuMs: number[];
  /** Time the main thread spent in GC pauses (`v8.GCProfiler`). */
  readonly gcMs: number[];
}

/**
 * The variants of one provider in one process, alternated run by run (the order reversed
 * every other round) after two untimed rounds: the figures of a round were taken back to
 * back, under the same load, so their differences are paired (`bench/sdk-pairs.ts`).
 */
export async function sdkPairs(
  provider: SdkProvider,
  variants: readonly SdkVariant[],
  rounds: number,
): Promise<SdkPairCell[]> {
  const { body, argsLength } = sseBody(provider);
  const { server, url } = await serve(body);
  const cells = variants.map((variant) => ({
    variant,
    once: provider === 'anthropic' ? anthropicRun(url, variant) : openaiRun(url, variant),
    wallMs: [] as number[],
    mainMs: [] as number[],
    cpuMs: [] as number[],
    gcMs: [] as number[],
  }));
  try {
    for (let round = -2; round < rounds; round++) {
      for (const cell of round % 2 === 0 ? cells : [...cells].reverse()) {
        const profiler = new GCProfiler();
        profiler.start();
        const cpu = process.cpuUsage();
        const main = mainThreadMs();
        const start = performance.now();
        const length = await cell.once();
        const wallMs = performance.now() - start;
        const mainMs = mainThreadMs() - main;
        const used = process.cpuUsage(cpu);
        const gcMs = profiler.stop().statistics.reduce((sum, gc) => sum + gc.cost / 1000, 0);
        if (length !== argsLength) {
          throw new Error(`${provider} ${cell.variant}: read ${length} of ${argsLength}`);
        }
        if (round < 0) continue;
        cell.wallMs.push(wallMs);
        cell.mainMs.push(mainMs);
        cell.cpuMs.push((used.user + used.system) / 1000);
        cell.gcMs.push(gcMs);
      }
    }
  } finally {
    server.closeAllConnections();
    server.close();
  }
  return cells.map(({ variant, wallMs, mainMs, cpuMs, gcMs }) => ({
    variant,
    wallMs,
    mainMs,
    cpuMs,
    gcMs,
  }));
}

/** CPU time of this process's main thread so far, in ms (the process's where schedstat is missing). */
function mainThreadMs(): number {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8');
    return Number(stat.split(' ')[0]) / 1e6;
  } catch {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  }
}

const request = {
  max_tokens: 64_000,
  messages: [{ role: 'user' as const, content: 'Write the file.' }],
};

/** One run: resolves with the length of the argument text the reader ended with. */
function anthropicRun(url: string, variant: SdkVariant): () => Promise<number> {
  const client = new Anthropic({ apiKey: 'bench', baseURL: url, maxRetries: 0 });
  const params = { ...request, model: 'claude-bench' };
  return async () => {
    if (variant === 'helper') {
      const message = await client.messages.stream(params).finalMessage();
      const block = message.content[0];
      return block?.type === 'tool_use' ? JSON.stringify(block.input).length : -1;
    }
    if (variant === 'response') {
      const response = await client.messages.create({ ...params, stream: true }).asResponse();
      const conversation = await lastValueFrom(fromAnthropicMessages(response).pipe(assemble()));
      return conversation.tools.get('toolu_bench')?.argsRaw?.length ?? -1;
    }
    const stream = await client.messages.create({ ...params, stream: true });
    if (variant === 'iterate') {
      let length = 0;
      for await (const event of stream) {
        if (event.type === 'content_block_delta' && event.delta.type === 'input_json_delta') {
          length += event.delta.partial_json.length;
        }
      }
      return length;
    }
    const conversation = await lastValueFrom(fromAnthropicMessages(stream).pipe(assemble()));
    return conversation.tools.get('toolu_bench')?.argsRaw?.length ?? -1;
  };
}

function openaiRun(url: string, variant: SdkVariant): () => Promise<number> {
  const client = new OpenAI({ apiKey: 'bench', baseURL: `${url}/v1`, maxRetries: 0 });
  const params = { ...request, model: 'gpt-bench' };
  return async () => {
    if (variant === 'helper') {
      const completion = await client.chat.completions.stream(params).finalChatCompletion();
      const call = completion.choices[0]?.message.tool_calls?.[0];
      return call?.type === 'function' ? call.function.arguments.length : -1;
    }
    if (variant === 'response') {
      const response = await client.chat.completions
        .create({ ...params, stream: true })
        .asResponse();
      const conversation = await lastValueFrom(
        fromOpenAIChatCompletions(response).pipe(assemble()),
      );
      return conversation.tools.get('call_bench')?.argsRaw?.length ?? -1;
    }
    const stream = await client.chat.completions.create({ ...params, stream: true });
    if (variant === 'iterate') {
      let length = 0;
      for await (const chunk of stream) {
        length += chunk.choices[0]?.delta.tool_calls?.[0]?.function?.arguments?.length ?? 0;
      }
      return length;
    }
    const conversation = await lastValueFrom(fromOpenAIChatCompletions(stream).pipe(assemble()));
    return conversation.tools.get('call_bench')?.argsRaw?.length ?? -1;
  };
}
