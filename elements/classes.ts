/**
 * The element classes and their types, without registering any tag: extend them, or define
 * them under your own tags. `callfold/elements/index` registers the default tags.
 */
export {
  type ChunkRevealOptions,
  chunkRevealDefaults,
  type IdleScheduler,
} from './internal/chunk-reveal-controller.js';
export type {
  ToolApprovalDetail,
  ToolApprovalEvent,
  ToolGroupToggleDetail,
  ToolGroupToggleEvent,
  ToolOpenPathDetail,
  ToolOpenPathEvent,
  ToolRowToggleDetail,
  ToolRowToggleEvent,
  ToolTimelineErrorDetail,
  ToolTimelineErrorEvent,
} from './internal/events.js';
export { englishLabels, type ToolLabels } from './internal/labels.js';
export type { ToolClassifier, ToolRenderer, TurnRenderer } from './internal/render-tool.js';
export { ToolGroupElement } from './internal/tool-group-element.js';
export { ToolRowElement } from './internal/tool-row-element.js';
export { ToolTimelineElement } from './internal/tool-timeline-element.js';
