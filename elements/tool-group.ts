/**
 * Registers `<tool-group>`, and `<tool-row>` which it renders. Import for its effect:
 * `import 'callfold/elements/tool-group';`. The class is `ToolGroupElement` in
 * `callfold/elements/classes`, importable without this.
 */
import './tool-row.js';
import { ToolGroupElement } from './internal/tool-group-element.js';

// The event types travel with the registration, and with them the
// `GlobalEventHandlersEventMap` entries that type `addEventListener('tool-open-path', …)`.
export type {
  ToolGroupToggleDetail,
  ToolGroupToggleEvent,
  ToolOpenPathDetail,
  ToolOpenPathEvent,
  ToolRowToggleDetail,
  ToolRowToggleEvent,
} from './internal/events.js';
export type { ToolGroupElement } from './internal/tool-group-element.js';
export type { ToolRowElement } from './tool-row.js';

if (!customElements.get('tool-group')) customElements.define('tool-group', ToolGroupElement);

declare global {
  interface HTMLElementTagNameMap {
    'tool-group': ToolGroupElement;
  }
}
