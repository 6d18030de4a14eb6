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

/**
 * `tool-approval`: the user answered a call's approval request (Approve or Deny on a row at
 * `start` whose `approval.state` is `'requested'`). The host records it (a `tool/approval`
 * event) and runs the call only when `approved`; the row shows the answer once the node
 * says so.
 */
export interface ToolApprovalDetail {
  readonly callId: string;
  readonly approved: boolean;
}
export type ToolApprovalEvent = CustomEvent<ToolApprovalDetail>;

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
    'tool-approval': ToolApprovalEvent;
    'tool-group-toggle': ToolGroupToggleEvent;
    'tool-timeline-error': ToolTimelineErrorEvent;
  }
}

/** The events the elements dispatch, all bubbling and composed (see `emit`). */
export const elementEvents = [
  'tool-open-path',
  'tool-row-toggle',
  'tool-approval',
  'tool-group-toggle',
  'tool-timeline-error',
] as const satisfies readonly (keyof GlobalEventHandlersEventMap)[];

/** Dispatches a typed event that bubbles out of shadow roots. */
export function emit<K extends keyof GlobalEventHandlersEventMap>(
  target: EventTarget,
  type: K,
  detail: GlobalEventHandlersEventMap[K] extends CustomEvent<infer D> ? D : never,
): boolean {
  return target.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));
}
