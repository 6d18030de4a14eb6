import type { AssistantNode } from '../definitions/assistant-definition.js';
import type { ToolNode } from '../definitions/tool-definition.js';
import type { Grouping } from '../groups/builder.js';

/**
 * What a publication of the default composition shows: assistant responses and tool groups
 * in log order, and every tool by callId. Frozen; objects that did not change are shared
 * with the previous publication.
 *
 * `Extra` is the node kind a custom Definition adds (see `AssemblerOptions.definitions`):
 * its nodes are items of their own, in log order, beside the assistant responses.
 */
export interface Conversation<Extra = never> extends Grouping<AssistantNode | Extra> {}

/** A node the default composition folds: the built-in kinds, and `Extra` from custom Definitions. */
export type ConversationNode<Extra = never> = AssistantNode | ToolNode | Extra;
