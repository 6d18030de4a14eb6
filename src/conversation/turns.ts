import type { assistantDefinition } from '../definitions/assistant-definition.js';
import type { toolDefinition } from '../definitions/tool-definition.js';
import { turnDefinition } from '../definitions/turn-definition.js';
import { defaultDefinitions } from './assembler.js';

/**
 * `defaultDefinitions` and `turnDefinition`: a Conversation folded with them
 * (`new Assembler<TurnNode>({ definitions: definitionsWithTurns })`) holds a `TurnNode` item
 * where each user turn starts. `<tool-timeline>` folds its `source` with these unless
 * `assembleOptions.definitions` says otherwise.
 */
export const definitionsWithTurns: readonly [
  typeof assistantDefinition,
  typeof toolDefinition,
  typeof turnDefinition,
] = Object.freeze([...defaultDefinitions, turnDefinition] as const);
