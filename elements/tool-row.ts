/**
 * Registers `<tool-row>`. Import for its effect: `import 'callfold/elements/tool-row';`.
 * The class is `ToolRowElement` in `callfold/elements/classes`, importable without this.
 */
import { ToolRowElement } from './internal/tool-row-element.js';

// The event types travel with the registration, and with them the
// `GlobalEventHandlersEventMap` entries that type `addEventListener('tool-open-path', …)`.
export type {
  ToolOpenPathDetail,
  ToolOpenPathEvent,
  ToolRowToggleDetail,
  ToolRowToggleEvent,
} from './internal/events.js';
export type { ToolRowElement } from './internal/tool-row-element.js';

if (!customElements.get('tool-row')) customElements.define('tool-row', ToolRowElement);

declare global {
  interface HTMLElementTagNameMap {
    'tool-row': ToolRowElement;
  }
}
