import { defer, distinctUntilChanged, map, type OperatorFunction } from 'rxjs';
import type { Conversation } from '../conversation/conversation.js';
import type { GroupNode } from '../groups/builder.js';
import { stableList } from './stable-list.js';

/**
 * The tool groups of each Conversation, in log order, as a frozen array. Emits only when a
 * group object was added, removed, replaced or moved; the array is the same object until
 * then (memoized per subscription by element identity).
 *
 * @example
 * ```ts
 * import { assemble, selectGroups } from 'callfold';
 * events$.pipe(assemble(), selectGroups()).subscribe((groups) => {
 *   for (const group of groups) console.log(group.summary);
 * });
 * ```
 */
export function selectGroups(): OperatorFunction<Conversation, readonly GroupNode[]> {
  return (source) =>
    defer(() => {
      const stable = stableList<GroupNode>();
      return source.pipe(
        map((conversation) => conversation.items),
        distinctUntilChanged(),
        map((items) => {
          const groups: GroupNode[] = [];
          for (const item of items) if (item.kind === 'group') groups.push(item);
          return stable(groups);
        }),
        distinctUntilChanged(),
      );
    });
}
