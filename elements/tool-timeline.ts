/**
 * Registers `<tool-timeline>`, and `<tool-group>` and `<tool-row>` which it renders. Import
 * for its effect: `import 'callfold/elements/tool-timeline';`. The class is
 * `ToolTimelineElement` in `callfold/elements/classes`, importable without this.
 */
import './tool-group.js';
import { ToolTimelineElement } from './internal/tool-timeline-element.js';

if (!customElements.get('tool-timeline'))
  customElements.define('tool-timeline', ToolTimelineElement);

declare global {
  interface HTMLElementTagNameMap {
    'tool-timeline': ToolTimelineElement;
  }
}
