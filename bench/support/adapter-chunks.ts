/**
 * The write scenario as each provider's official client yields it: the same 512 KiB `Write`
 * in 16-character pieces, as chunk objects built before timing (bench/adapters.bench.ts).
 */
import type { Observable } from 'rxjs';
import type { CallfoldEvent } from '../../src/events/types.js';
import { fromAGUI } from '../../src/providers/ag-ui.js';
import { fromAnthropicMessages } from '../../src/providers/anthropic-messages.js';
import { fromGemini } from '../../src/providers/gemini.js';
import type { ProviderSource } from '../../src/providers/provider-source.js';
import { cutFragments, type WriteArguments } from './content.js';

export interface ContestantChunks {
  readonly title: string;
  readonly chunks: readonly unknown[];
  readonly adapt: (source: ProviderSource) => Observable<CallfoldEvent>;
}

/** Anthropic Messages: `RawMessageStreamEvent`s, one `input_json_delta` per piece. */
export function anthropicWriteChunks(write: WriteArguments): unknown[] {
  return [
    {
      type: 'message_start',
      message: {
        id: 'msg_bench',
        type: 'message',
        role: 'assistant',
        model: 'claude-bench',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 10, output_tokens: 1 },
      },
    },
    {
      type: 'content_block_start',
      index: 0,
      content_block: { type: 'tool_use', id: 'toolu_bench', name: 'Write', input: {} },
    },
    ...write.fragments.map((partial_json) => ({
      type: 'content_block_delta',
      index: 0,
      delta: { type: 'input_json_delta', partial_json },
    })),
    { type: 'content_block_stop', index: 0 },
    {
      type: 'message_delta',
      delta: { stop_reason: 'tool_use', stop_sequence: null },
      usage: { output_tokens: write.fragments.length },
    },
    { type: 'message_stop' },
  ];
}

function anthropic(write: WriteArguments): ContestantChunks {
  const chunks = anthropicWriteChunks(write);
  return { title: 'Anthropic Messages', chunks, adapt: (source) => fromAnthropicMessages(source) };
}

/** AG-UI: `@ag-ui/core` events as `HttpAgent.run()` emits them, one `TOOL_CALL_ARGS` per piece. */
function agui(write: WriteArguments): ContestantChunks {
  const ids = { threadId: 'thread_bench', runId: 'run_bench' };
  const toolCallId = 'call_bench';
  const chunks: unknown[] = [
    { type: 'RUN_STARTED', ...ids },
    { type: 'TOOL_CALL_START', toolCallId, toolCallName: 'Write', parentMessageId: 'msg_bench' },
    ...write.fragments.map((delta) => ({ type: 'TOOL_CALL_ARGS', toolCallId, delta })),
    { type: 'TOOL_CALL_END', toolCallId },
    { type: 'RUN_FINISHED', ...ids },
  ];
  return { title: 'AG-UI', chunks, adapt: (source) => fromAGUI(source) };
}

/**
 * Gemini on Vertex AI with streamed function-call arguments: `GenerateContentResponse`s whose
 * `partialArgs` carry the path, then the content's decoded text in 16-character pieces (the
 * adapter writes the JSON text itself), closed by an empty `functionCall`.
 */
function gemini(write: WriteArguments): ContestantChunks {
  const response = (parts: unknown[], finishReason?: string) => ({
    candidates: [{ content: { role: 'model', parts }, ...(finishReason ? { finishReason } : {}) }],
    modelVersion: 'gemini-bench',
    responseId: 'resp_bench',
  });
  const piece = (jsonPath: string, stringValue: string, willContinue: boolean) =>
    response([
      {
        functionCall: {
          partialArgs: [{ jsonPath, stringValue, ...(willContinue ? { willContinue } : {}) }],
          willContinue: true,
        },
      },
    ]);
  const chunks: unknown[] = [
    response([{ functionCall: { name: 'Write', willContinue: true } }]),
    piece('$.file_path', write.path, false),
    ...cutFragments(write.content, write.fragmentSize).map((text) =>
      piece('$.content', text, true),
    ),
    piece('$.content', '', false),
    response([{ functionCall: {} }], 'STOP'),
  ];
  return {
    title: 'Gemini (Vertex, streamed arguments)',
    chunks,
    adapt: (source) => fromGemini(source),
  };
}

/** Every contestant, keyed by name; `anthropic` is the reference the others are divided by. */
const builders: Record<string, (write: WriteArguments) => ContestantChunks> = {
  anthropic,
  agui,
  gemini,
};

/** The contestants' names, the Anthropic adapter (the reference) first. */
export const contestantNames: readonly string[] = Object.keys(builders);

/** One contestant: its chunks built now (undefined for an unknown name). */
export function contestant(write: WriteArguments, name: string): ContestantChunks | undefined {
  return Object.hasOwn(builders, name) ? builders[name]?.(write) : undefined;
}
