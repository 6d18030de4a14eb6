import { defer, distinctUntilChanged, map, type OperatorFunction } from 'rxjs';
import type { Conversation } from '../conversation/conversation.js';
import type { ToolNode } from '../definitions/tool-definition.js';
import { stableList } from './stable-list.js';

/**
 * The tool calls without a result yet (stages `preparing` and `start`), in log order, as a
 * frozen array. Emits only when one of them changed, a call became active or one got its
 * result; the array is the same object until then (memoized per subscription by element
 * identity).
 *
 * @example
 * ```ts
 * import { assemble, selectActiveTools } from 'callfold';
 * events$.pipe(assemble(), selectActiveTools()).subscribe((tools) => {
 *   spinner.hidden = tools.length === 0;
 * });
 * ```
 */
export function selectActiveTools(): OperatorFunction<Conversation, readonly ToolNode[]> {
  return (source) =>
    defer(() => {
      const stable = stableList<ToolNode>();
      return source.pipe(
        // Nodes are frozen and stages live in them: the same items hold the same active tools.
        map((conversation) => conversation.items),
        distinctUntilChanged(),
        map((items) => {
          const active: ToolNode[] = [];
          for (const item of items) {
            if (item.kind !== 'group') continue;
            for (const tool of item.tools) if (tool.stage !== 'result') active.push(tool);
          }
          return stable(active);
        }),
        distinctUntilChanged(),
      );
    });
}
