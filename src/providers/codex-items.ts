/**
 * What callfold makes of each kind of Codex thread item that is a call (`codex exec --json`,
 * `@openai/codex-sdk`'s `ThreadItem`): its name, its arguments, its result.
 */
import { isRecord, list, text } from './read-chunk.js';

/** The item types that are calls: the agent runs each one itself. */
const CALL_TYPES = new Set([
  'command_execution',
  'file_change',
  'mcp_tool_call',
  'web_search',
  'todo_list',
]);

/** Whether an item of type `type` is a call. */
export function isCallItem(type: unknown): type is string {
  return typeof type === 'string' && CALL_TYPES.has(type);
}

/**
 * A call item's name: the item type (`command_execution`, `file_change`, `web_search`,
 * `todo_list`), or for an MCP call the tool's own name (`tool`), as for the other adapters'
 * MCP calls.
 */
export function callName(item: Record<string, unknown>): string {
  const type = item.type as string;
  return type === 'mcp_tool_call' ? (text(item.tool) ?? type) : type;
}

/**
 * A call item's arguments, or undefined while they are not known: `{ command }`,
 * `{ changes }` (`[{ path, kind }]`), the MCP call's `arguments` (an object as given; any
 * other value as `{ arguments }`), `{ query }`, `{ items }`. A `web_search` may start with an
 * empty query and name it only when it completes (`final`).
 */
export function callArgs(
  item: Record<string, unknown>,
  final: boolean,
): Record<string, unknown> | undefined {
  switch (item.type) {
    case 'command_execution':
      return { command: typeof item.command === 'string' ? item.command : '' };
    case 'file_change':
      return { changes: list(item.changes) };
    case 'mcp_tool_call': {
      const args = item.arguments;
      if (isRecord(args)) return args;
      return args === undefined || args === null ? {} : { arguments: args };
    }
    case 'web_search': {
      const query = text(item.query);
      if (query === undefined && !final) return undefined;
      return { query: query ?? '' };
    }
    case 'todo_list':
      return { items: list(item.items) };
    default:
      return undefined;
  }
}

/**
 * A completed call item's result, as Codex reports it: `{ aggregated_output, exit_code }`,
 * `{ changes }`, the MCP call's `result` (or `{ error }`), `{ query, action }`, `{ items }`.
 * `isError`: the item's `status` is `failed` or `declined`, or an MCP call has an `error`.
 */
export function callResult(item: Record<string, unknown>): { output: unknown; isError: boolean } {
  const failed = item.status === 'failed' || item.status === 'declined';
  switch (item.type) {
    case 'command_execution': {
      const output: Record<string, unknown> = {
        aggregated_output: typeof item.aggregated_output === 'string' ? item.aggregated_output : '',
      };
      if (typeof item.exit_code === 'number') output.exit_code = item.exit_code;
      return { output, isError: failed };
    }
    case 'file_change':
      return { output: { changes: list(item.changes) }, isError: failed };
    case 'mcp_tool_call':
      if (isRecord(item.error)) return { output: { error: item.error }, isError: true };
      return { output: item.result ?? null, isError: failed };
    case 'web_search':
      return {
        output:
          item.action === undefined
            ? { query: item.query }
            : { query: item.query, action: item.action },
        isError: failed,
      };
    default:
      return { output: { items: list(item.items) }, isError: failed };
  }
}
