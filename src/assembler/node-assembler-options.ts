import type { ListChanges, ReadList } from '../internal/list-changes.js';
import type { Definition } from './definition.js';

export type { ListChanges, ReadList } from '../internal/list-changes.js';

/** How a NodeAssembler folds and what it publishes; `now` and `onError` as in `AssemblerOptions`. */
export interface NodeAssemblerOptions<Node, Published> {
  /**
   * The Definitions to fold with, in tie-break order (when two Contexts open on the same
   * event, the earlier Definition's node comes first).
   */
  readonly definitions: readonly Definition<unknown, Node>[];
  /**
   * Turns the nodes built, in log order, into the published value. Called at each
   * publication where something changed; one function per NodeAssembler, so it may keep
   * what it built last to share structure (as the groups Builder does). `nodes` is lent for
   * the call (copy what you keep). `changes`, when given, says how `nodes` differs from the
   * last call's list (see `NodeChanges`): a call streaming in a long session is one replaced
   * index, an older history page a few nodes at the front, so a compose can patch instead of
   * rebuilding.
   */
  readonly compose: (nodes: readonly Node[], changes?: NodeChanges) => Published;
  /**
   * The clock that stamps events without `at`, in ms since the Unix epoch. Default: Date.now.
   * `push` reads it at most once per task: events pushed in one synchronous burst (one
   * network chunk, one tick) share that time. `assemble()` over an adapter reads it at most
   * once per provider chunk instead (docs/decisions/0009-direct-adapter-fold.md).
   */
  readonly now?: () => number;
  /**
   * Called with an error a Definition threw while folding or building one Context; that
   * Context keeps its last good node and every other Context goes on. Default: console.warn.
   */
  readonly onError?: (error: unknown, definition: string, key: string) => void;
}

/**
 * `NodeAssemblerOptions` with a compose step that reads its nodes through `length` and
 * `at(i)` only (as the groups Builder's `build` does): it is lent the NodeAssembler's own
 * list, which grows at the front without moving, where `compose` gets an array (made again
 * after each change at the front). The default composition (`Assembler`) uses it.
 */
export interface NodeAssemblerListOptions<Node, Published>
  extends Omit<NodeAssemblerOptions<Node, Published>, 'compose'> {
  /** As `compose`, the nodes given as a `ReadList`, lent for the call. */
  readonly composeList: (nodes: ReadList<Node>, changes?: NodeChanges) => Published;
}

/**
 * How the nodes a NodeAssembler hands its compose step differ from the last call's: a
 * `ListChanges` with every count given (see `ListChanges` for the three steps).
 */
export type NodeChanges = Required<ListChanges>;

/** The compose step of `NodeAssemblerListOptions`. */
export type ComposeList<Node, Published> = NodeAssemblerListOptions<Node, Published>['composeList'];
