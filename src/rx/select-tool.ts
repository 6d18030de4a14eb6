import { distinctUntilChanged, map, type OperatorFunction } from 'rxjs';
import type { Conversation } from '../conversation/conversation.js';
import type { ToolNode } from '../definitions/tool-definition.js';

/**
 * The node of the tool call `callId`, or `undefined` while there is none (not yet named, or
 * withdrawn by a settle without dispatch). Emits only when the node object changes, which
 * for a ToolNode means its stage, result or an argument answer somebody read changed.
 *
 * @example
 * ```ts
 * import { assemble, selectTool } from 'callfold';
 * events$.pipe(assemble(), selectTool('call_1')).subscribe((node) => render(node));
 * ```
 */
export function selectTool(callId: string): OperatorFunction<Conversation, ToolNode | undefined> {
  return (source) =>
    source.pipe(
      map((conversation) => conversation.tools.get(callId)),
      distinctUntilChanged(),
    );
}
