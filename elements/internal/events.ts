import type { ToolNode } from '../../src/index.js';

/** `tool-open-path`: a row's path was activated (click, Enter or Space). Nothing navigates. */
export interface ToolOpenPathDetail {
  readonly path: string;
  readonly node: ToolNode;
}
export type ToolOpenPathEvent = CustomEvent<ToolOpenPathDetail>;

/** `tool-row-toggle`: a row was expanded or collapsed by the user. */
export interface ToolRowToggleDetail {
  readonly callId: string;
  readonly expanded: boolean;
}
export type ToolRowToggleEvent = CustomEvent<ToolRowToggleDetail>;

/** `tool-group-toggle`: a group was expanded or collapsed by the user. */
export interface ToolGroupToggleDetail {
  readonly id: string;
  readonly expanded: boolean;
}
export type ToolGroupToggleEvent = CustomEvent<ToolGroupToggleDetail>;

/** `tool-timeline-error`: the timeline's `source` failed; the last Conversation stays shown. */
export interface ToolTimelineErrorDetail {
  readonly error: unknown;
}
export type ToolTimelineErrorEvent = CustomEvent<ToolTimelineErrorDetail>;

declare global {
  interface GlobalEventHandlersEventMap {
    'tool-open-path': ToolOpenPathEvent;
    'tool-row-toggle': ToolRowToggleEvent;
    'tool-group-toggle': ToolGroupToggleEvent;
    'tool-timeline-error': ToolTimelineErrorEvent;
  }
}

/** Dispatches a typed event that bubbles out of shadow roots. */
export function emit<K extends keyof GlobalEventHandlersEventMap>(
  target: EventTarget,
  type: K,
  detail: GlobalEventHandlersEventMap[K] extends CustomEvent<infer D> ? D : never,
): boolean {
  return target.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));
}
