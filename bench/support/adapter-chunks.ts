/**
 * The write scenario as each provider's official client yields it: the same 512 KiB `Write`
 * in 16-character pieces, as chunk objects built before timing (bench/adapters.bench.ts).
 */
import type { Observable } from 'rxjs';
import type { CallfoldEvent } from '../../src/events/types.js';
import { fromAGUI } from '../../src/providers/ag-ui.js';
import { fromAnthropicMessages } from '../../src/providers/anthropic-messages.js';
import type { ProviderSource } from '../../src/providers/provider-source.js';
import type { WriteArguments } from './content.js';

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

/** Every contestant, keyed by name; `anthropic` is the reference the others are divided by. */
export function contestants(write: WriteArguments): Record<string, ContestantChunks> {
  return { anthropic: anthropic(write), agui: agui(write) };
}
