/**
 * Registers `<tool-timeline>`, and `<tool-group>` and `<tool-row>` which it renders. Import
 * for its effect: `import 'callfold/elements/tool-timeline';`. The class is
 * `ToolTimelineElement` in `callfold/elements/classes`, importable without this.
 */
import './tool-group.js';
import { ToolTimelineElement } from './internal/tool-timeline-element.js';

// The event types travel with the registration, and with them the
// `GlobalEventHandlersEventMap` entries that type `addEventListener('tool-open-path', …)`.
export type {
  ToolGroupToggleDetail,
  ToolGroupToggleEvent,
  ToolOpenPathDetail,
  ToolOpenPathEvent,
  ToolRowToggleDetail,
  ToolRowToggleEvent,
  ToolTimelineErrorDetail,
  ToolTimelineErrorEvent,
} from './internal/events.js';
export type { ToolTimelineElement } from './internal/tool-timeline-element.js';
export type { ToolGroupElement, ToolRowElement } from './tool-group.js';

if (!customElements.get('tool-timeline'))
  customElements.define('tool-timeline', ToolTimelineElement);

declare global {
  interface HTMLElementTagNameMap {
    'tool-timeline': ToolTimelineElement;
  }
}
