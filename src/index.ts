export type { ArgumentKind } from './arguments/partial-arguments.js';
export { PartialArguments } from './arguments/partial-arguments.js';
export { Assembler, type AssemblerOptions } from './assembler/assembler.js';
export type { Definition } from './assembler/definition.js';
export type { Location, Match, MatchSpec, Role } from './assembler/match.js';
export {
  type AssistantBlock,
  type AssistantNode,
  assistantDefinition,
} from './definitions/assistant-definition.js';
export { type ToolNode, type ToolStage, toolDefinition } from './definitions/tool-definition.js';
export {
  decodeTranscript,
  encodeTranscript,
  encodeTranscriptLine,
  TranscriptDecoder,
  type TranscriptEntry,
  TranscriptError,
} from './events/transcript.js';
export type {
  AssistantMessageEvent,
  BlockEndEvent,
  CallfoldEvent,
  CallfoldEventType,
  Durable,
  MessageBlock,
  SessionEvent,
  SettleEvent,
  StreamEvent,
  TextBlock,
  TextDeltaEvent,
  ToolCallDeltaEvent,
  ToolCallEvent,
  ToolResultEvent,
  ToolUseBlock,
  TurnEvent,
} from './events/types.js';
export { isDurableEvent, isStreamEvent } from './events/types.js';
export { EventError, isCallfoldEvent, parseEvent } from './events/validate.js';
export { Builder, type Conversation, type GroupNode } from './groups/builder.js';
export type { ToolCategory } from './groups/categories.js';
