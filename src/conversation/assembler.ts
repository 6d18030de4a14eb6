import type { Definition } from '../assembler/definition.js';
import { NodeAssembler } from '../assembler/node-assembler.js';
import type {
  NodeAssemblerOptions,
  NodeChanges,
  ReadList,
} from '../assembler/node-assembler-options.js';
import { type AssistantNode, assistantDefinition } from '../definitions/assistant-definition.js';
import { toolDefinition } from '../definitions/tool-definition.js';
import { Builder, type BuilderOptions, type KindedNode } from '../groups/builder.js';
import type { Conversation, ConversationNode } from './conversation.js';

/** The Definitions `Assembler` folds with unless told otherwise: assistant, then tool. */
export const defaultDefinitions: readonly [typeof assistantDefinition, typeof toolDefinition] =
  Object.freeze([assistantDefinition, toolDefinition] as const);

export interface AssemblerOptions<Extra extends KindedNode = never>
  extends Pick<
    NodeAssemblerOptions<ConversationNode<Extra>, Conversation<Extra>>,
    'now' | 'onError'
  > {
  /**
   * The Definitions to fold with, in tie-break order (when two Contexts open on the same
   * event, the earlier Definition's node comes first). Default: `defaultDefinitions`
   * (assistant, then tool). A custom Definition may publish a kind of node of its own,
   * named as the type argument (`new Assembler<NoteNode>(…)`, `assemble<NoteNode>(…)`): each
   * such node is an item of the Conversation, in log order, and ends a run of tools as an
   * assistant response does. (`Extra` is never inferred, so a slip in a Definition's node
   * type is a type error rather than a wider Conversation.)
   */
  readonly definitions?: readonly Definition<unknown, ConversationNode<NoInfer<Extra>>>[];
  /** Tool-name mappings and the summary wording of groups (see BuilderOptions). */
  readonly groups?: BuilderOptions;
}

/**
 * The default composition: a NodeAssembler folding with the tool and assistant Definitions
 * (or the `definitions` given) and publishing through the groups Builder, so `publish()`
 * returns a Conversation. `assemble()` and the elements fold with it.
 *
 * It folds, withdraws and publishes as `NodeAssembler` does: the contract (live end, older
 * pages, reconnection, settled attempts, malformed input, what is held) is stated once, on
 * that class, in src/assembler/node-assembler.ts.
 */
export class Assembler<Extra extends KindedNode = never> extends NodeAssembler<
  ConversationNode<Extra>,
  Conversation<Extra>
> {
  /** Throws a RangeError when `options.groups.categories` maps a name to an unknown category. */
  constructor(options: AssemblerOptions<Extra> = {}) {
    const builder = new Builder<AssistantNode | Extra>(options.groups);
    super({
      definitions: options.definitions ?? defaultDefinitions,
      composeList: (
        nodes: ReadList<ConversationNode<Extra>>,
        changes?: NodeChanges,
      ): Conversation<Extra> => builder.build(nodes, changes),
      ...(options.now && { now: options.now }),
      ...(options.onError && { onError: options.onError }),
    });
  }
}
