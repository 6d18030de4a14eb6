import {
  isDurableEvent,
  type MessageBlock,
  type SessionEvent,
  type ToolCallEvent,
} from '../../src/events/types.js';
import type { TranscriptEntry } from '../../src/wire/transcript.js';
import { approvalIdOf } from './encoders/ai-sdk-ui-stream.js';
import type { ReplaySource } from './replay-steps.js';

/**
 * The durable records of a recorded session as a replay through `source` must rebuild them,
 * each at its time: the recording itself, changed where the provider's wire cannot carry a
 * call shape as recorded. Every provider carries text, reasoning, JSON calls, cut responses
 * (`stopReason: 'length'` with an `incomplete` block) and the host's approvals; beyond that:
 *
 * | | free-form call (`input: 'text'`) | provider-run call (`executor: 'provider'`) | approval request |
 * |---|---|---|---|
 * | Anthropic Messages | a JSON tool with `{"input": <text>}` (no free-form tools) | as recorded (`server_tool_use`, `web_search_tool_result`) | the host's |
 * | OpenAI Chat Completions | as recorded (`type: 'custom'`) | left out, with its result (no provider-run calls) | the host's |
 * | OpenAI Responses | as recorded (`custom_tool_call`) | `web_search_call`: arguments its action (`type: 'search'` added, an object), result its sources (URLs), both when the item is done | the host's |
 * | AI SDK UI stream | as recorded (`inputEncoding: 'text'`) | as recorded (`providerExecuted`) | from the stream (`tool-approval-request`), with its `approvalId` |
 * | AG-UI | as recorded (`metadata.callfold.input`) | as recorded (`metadata.callfold.executor`) | the host's |
 * | Gemini (Vertex AI) | a JSON tool with `{"input": <text>}` (no free-form tools) | left out, with its result (its provider-run tools are not web searches) | the host's |
 *
 * Records left out renumber the later ones (`seq`), as the replay's Session numbers them.
 */
export function carriedRecords(
  source: ReplaySource,
  entries: readonly TranscriptEntry[],
): TranscriptEntry[] {
  const durable = entries.filter((entry) => isDurableEvent(entry.event));
  const shown = durable.flatMap((entry) => carried(source, entry, durable));
  return shown.map(({ at, event }, i) => ({ at, event: { ...event, seq: i + 1 } }));
}

function carried(
  source: ReplaySource,
  entry: TranscriptEntry,
  durable: readonly TranscriptEntry[],
): TranscriptEntry[] {
  const event = entry.event as SessionEvent;
  switch (source) {
    case 'anthropic-messages':
      if (event.type === 'tool/call' && event.input === 'text') {
        const { input: _input, ...call } = event;
        return [{ at: entry.at, event: { ...call, args: asJsonInput(event.args) } }];
      }
      if (event.type === 'assistant/message') {
        const blocks = event.blocks.map((block): MessageBlock => {
          if (block.type !== 'tool-use' || block.input !== 'text') return block;
          const { input: _input, ...rest } = block;
          return { ...rest, argsText: asJsonInput(block.argsText) };
        });
        return [{ at: entry.at, event: { ...event, blocks } }];
      }
      return [entry];
    case 'gemini':
      if ((event.type === 'tool/call' || event.type === 'tool/result') && event.executor) return [];
      if (event.type === 'tool/call' && event.input === 'text') {
        const { input: _input, ...call } = event;
        return [{ at: entry.at, event: { ...call, args: asJsonInput(event.args) } }];
      }
      if (event.type === 'assistant/message') {
        const blocks = event.blocks.flatMap((block): MessageBlock[] => {
          if (block.type !== 'tool-use') return [block];
          if (block.executor === 'provider') return [];
          if (block.input !== 'text') return [block];
          const { input: _input, ...rest } = block;
          return [{ ...rest, argsText: asJsonInput(block.argsText) }];
        });
        return [{ at: entry.at, event: { ...event, blocks } }];
      }
      return [entry];
    case 'openai-chat-completions':
      if ((event.type === 'tool/call' || event.type === 'tool/result') && event.executor) return [];
      if (event.type === 'assistant/message') {
        const blocks = event.blocks.filter(
          (block) => block.type !== 'tool-use' || block.executor !== 'provider',
        );
        return [{ at: entry.at, event: { ...event, blocks } }];
      }
      return [entry];
    case 'openai-responses':
      if (event.type === 'tool/call' && event.executor === 'provider') {
        // The item carries the call with its result: both are recorded when it is done.
        const result = durable.find(
          (other) => other.event.type === 'tool/result' && other.event.callId === event.callId,
        );
        const call: ToolCallEvent = { ...event, args: searchAction(event.args) };
        return [{ at: result?.at ?? entry.at, event: call }];
      }
      if (event.type === 'tool/result' && event.executor === 'provider') {
        const output = Array.isArray(event.output)
          ? event.output.map((found: { url?: unknown }) => ({ type: 'url', url: found.url }))
          : event.output;
        return [{ at: entry.at, event: { ...event, output } }];
      }
      if (event.type === 'assistant/message') {
        const blocks = event.blocks.map((block): MessageBlock => {
          if (block.type !== 'tool-use' || block.executor !== 'provider') return block;
          return { ...block, argsText: JSON.stringify(searchAction(block.argsText)) };
        });
        return [{ at: entry.at, event: { ...event, blocks } }];
      }
      return [entry];
    case 'ai-sdk-ui-stream':
      if (event.type === 'tool/approval-request') {
        return [{ at: entry.at, event: { ...event, approvalId: approvalIdOf(event.callId) } }];
      }
      return [entry];
    case 'ag-ui':
    case 'events':
      return [entry];
    default:
      return source satisfies never;
  }
}

/** A free-form input as Anthropic carries it: the JSON text of `{ "input": <text> }`. */
function asJsonInput(args: ToolCallEvent['args']): string {
  return JSON.stringify({ input: args });
}

/** A recorded web search's arguments (`{ query }`) as a Responses `web_search_call` action. */
function searchAction(args: ToolCallEvent['args']): Record<string, unknown> {
  const parsed = typeof args === 'string' ? (JSON.parse(args) as Record<string, unknown>) : args;
  return { type: 'search', ...parsed };
}
