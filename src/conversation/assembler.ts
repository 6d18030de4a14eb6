import type { Definition } from '../assembler/definition.js';
import {
  composeTakesList,
  NodeAssembler,
  type NodeAssemblerOptions,
  type NodeChanges,
} from '../assembler/node-assembler.js';
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
 * - `push` takes events at the live end; `prepend` an older page of durable events;
 *   `reconnect` withdraws every stream event held (the host then pushes the durable events it
 *   missed and a replay of the still-live attempt). `stream/settle` withdraws its attempt.
 * - Each event is matched by every Definition; the Assembler creates one frozen Match per
 *   event and role, shared by all who matched it, and keeps one Context (State and node) per
 *   Definition and key. A Match placed after everything a Context holds is folded at once;
 *   earlier events (an older page) or withdrawn ones make the Assembler re-select the start
 *   and replay only the Contexts they touch. A Context left without Matches is dropped at the
 *   next publication (so a replay pushed before then finds its published node again).
 * - Durable events are identified by `seq`: one already held is ignored, so pages may
 *   overlap, and equal durable events give equal final state whatever the paging.
 * - Stream events of an attempt that has settled are stale and ignored.
 * - Malformed input is rejected by `push`/`prepend` with an `EventError` naming the field,
 *   before anything of the batch is folded. A well-typed event never makes `publish` throw.
 *
 * Stream events are held until their attempt settles (a replay needs them); durable events
 * for the Assembler's life.
 */
export class Assembler<Extra extends KindedNode = never> extends NodeAssembler<
  ConversationNode<Extra>,
  Conversation<Extra>
> {
  /** Throws a RangeError when `options.groups.categories` maps a name to an unknown category. */
  constructor(options: AssemblerOptions<Extra> = {}) {
    const builder = new Builder<AssistantNode | Extra>(options.groups);
    const compose = (
      nodes: readonly ConversationNode<Extra>[],
      changes?: NodeChanges,
    ): Conversation<Extra> => builder.build(nodes, changes);
    composeTakesList.add(compose);
    super({
      definitions: options.definitions ?? defaultDefinitions,
      compose,
      ...(options.now && { now: options.now }),
      ...(options.onError && { onError: options.onError }),
    });
  }
}
