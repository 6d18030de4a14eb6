/**
 * `callfold`: events, the Assembler and its Definitions, `PartialArguments`, the provider
 * adapters, the RxJS operators, tool schemas and the wire codecs (SSE, transcripts). No DOM,
 * no Node-only API.
 *
 * @module callfold
 */
export type { ArgumentKind } from './arguments/partial-arguments.js';
export { PartialArguments } from './arguments/partial-arguments.js';
export type { Definition } from './assembler/definition.js';
export type { Emit, Location, Match, Role } from './assembler/match.js';
export { NodeAssembler } from './assembler/node-assembler.js';
export type {
  NodeAssemblerListOptions,
  NodeAssemblerOptions,
  NodeChanges,
  ReadList,
} from './assembler/node-assembler-options.js';
export type { FetchLike, FetchResponseLike } from './client/fetch-like.js';
export { type FollowSessionOptions, followSession } from './client/follow-session.js';
export { type LoadHistoryOptions, loadHistory } from './client/load-history.js';
export { type RecordTranscriptOptions, recordTranscript } from './client/record.js';
export { type ReplayTranscriptOptions, replayTranscript } from './client/replay.js';
export {
  Assembler,
  type AssemblerOptions,
  defaultDefinitions,
} from './conversation/assembler.js';
export type { Conversation, ConversationNode } from './conversation/conversation.js';
export { definitionsWithTurns } from './conversation/turns.js';
export {
  type AssistantBlock,
  type AssistantNode,
  assistantDefinition,
} from './definitions/assistant-definition.js';
export {
  type ToolApproval,
  type ToolNode,
  type ToolStage,
  toolDefinition,
} from './definitions/tool-definition.js';
export { type TurnNode, turnDefinition } from './definitions/turn-definition.js';
export type {
  AssistantMessageEvent,
  BlockEndEvent,
  CallfoldEvent,
  CallfoldEventType,
  Durable,
  MessageBlock,
  SessionEvent,
  SettleEvent,
  StopReason,
  StreamEvent,
  TextBlock,
  TextDeltaEvent,
  ToolApprovalEvent,
  ToolApprovalRequestEvent,
  ToolCallDeltaEvent,
  ToolCallEvent,
  ToolExecutor,
  ToolInput,
  ToolResultEvent,
  ToolUseBlock,
  TurnEndEvent,
  TurnEvent,
  TurnStartEvent,
} from './events/types.js';
export { isDurableEvent, isStreamEvent } from './events/types.js';
export { EventError, isCallfoldEvent, parseEvent } from './events/validate.js';
export {
  Builder,
  type BuilderOptions,
  type Grouping,
  type GroupNode,
  type KindedNode,
  type ListChanges,
} from './groups/builder.js';
export { commonEnds, keptEnds } from './groups/kept-ends.js';
export type { AdapterOptions } from './providers/adapter-run.js';
export { type AGUISource, fromAGUI, type SubscribableSource } from './providers/ag-ui.js';
export type {
  AGUIBase,
  AGUICustom,
  AGUIEvent,
  AGUIMessageContent,
  AGUIMessageEnd,
  AGUIReasoningMessageStart,
  AGUIRunError,
  AGUIRunFinished,
  AGUIRunStarted,
  AGUITextMessageStart,
  AGUIToolCallArgs,
  AGUIToolCallEnd,
  AGUIToolCallResult,
  AGUIToolCallStart,
  CallfoldMetadata,
} from './providers/ag-ui-event.js';
export { fromAISDKUIStream } from './providers/ai-sdk-ui-stream.js';
export { fromAnthropicMessages } from './providers/anthropic-messages.js';
export type { Dispatch } from './providers/attempt.js';
export { fromBedrockConverse } from './providers/bedrock-converse.js';
export { type ClaudeCodeOptions, fromClaudeCode } from './providers/claude-code.js';
export { type CodexOptions, fromCodex } from './providers/codex.js';
export { fromGemini } from './providers/gemini.js';
export { fromOpenAIChatCompletions } from './providers/openai-chat-completions.js';
export { fromOpenAIResponses } from './providers/openai-responses.js';
export { DONE, type ProviderSource } from './providers/provider-source.js';
export { ProviderStreamError } from './providers/provider-stream-error.js';
export {
  type CallShape,
  createSession,
  Session,
  type SessionOptions,
  type UnnumberedEvent,
} from './providers/session.js';
export { type ToAGUIOptions, toAGUI } from './providers/to-ag-ui.js';
export { type AssembleOptions, assemble } from './rx/assemble.js';
export {
  type AssembleInput,
  type AssemblerCommand,
  type PrependCommand,
  prependCommand,
  type ReconnectCommand,
  reconnectCommand,
} from './rx/assembler-command.js';
export { publicationScheduler } from './rx/publication-scheduler.js';
export { selectActiveTools } from './rx/select-active-tools.js';
export { selectGroups } from './rx/select-groups.js';
export { selectTool } from './rx/select-tool.js';
export {
  type BuiltinToolName,
  type BuiltinTools,
  builtinTools,
  type EditToolParameters,
  orderingSentence,
  type ReadToolParameters,
  type RunCodeToolParameters,
  runCodeTool,
  type ShellToolParameters,
  type SingleLanguageRunCodeToolParameters,
  type WriteToolParameters,
} from './schema/builtin-tools.js';
export { defineTool, type ToolArguments, type ToolSchema } from './schema/define-tool.js';
export {
  type AISDKValidation,
  type AnthropicTool,
  type OpenAIChatTool,
  type OpenAIResponsesTool,
  type OpenAIToolOptions,
  type ToolLike,
  toAISDKTool,
  toAnthropicTool,
  toOpenAIChatTool,
  toOpenAIResponsesTool,
} from './schema/formats.js';
export type { JsonSchema, JsonType, ObjectJsonSchema } from './schema/json-schema.js';
export {
  type ArgumentsOf,
  type ArrayOptions,
  type Described,
  type NumberOptions,
  type OptionsOrDescription,
  type Parameter,
  type ParameterBuilders,
  type ParameterKind,
  type ParameterMap,
  param,
  type StringOptions,
  type ValueOf,
} from './schema/parameters.js';
export {
  ArgumentsError,
  parseArguments,
  type ValidateOptions,
  type Validation,
  type ValidationIssue,
  validateArguments,
} from './schema/validate.js';
export { type ArgumentRole, argumentFields } from './tools/argument-fields.js';
export {
  categoryOf,
  normalizeToolName,
  type ToolCategory,
  toolCategories,
  toolClassifier,
  toolNames,
} from './tools/categories.js';
export { toolDetail } from './tools/detail.js';
export { type DetailSource, detailSources } from './tools/detail-sources.js';
export { type PatchFile, type PatchFiles, patchFiles } from './tools/patch-files.js';
export type { CategoryCount, SummaryFormatter } from './tools/summary.js';
export {
  type DecodeSSEOptions,
  decodeSSE,
  encodeSSE,
  encodeSSEStream,
  parseLastEventId,
} from './wire/sse.js';
export {
  DEFAULT_MAX_SSE_LENGTH,
  type ResponseLike,
  readSSE,
  SSEDecoder,
  type SSEDecoderOptions,
  SSEError,
  type SSEInput,
  type SSEMessage,
} from './wire/sse-decoder.js';
export {
  decodeTranscript,
  encodeTranscript,
  encodeTranscriptLine,
  TranscriptDecoder,
  type TranscriptEntry,
  TranscriptError,
} from './wire/transcript.js';
