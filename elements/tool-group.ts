/**
 * Registers `<tool-group>`, and `<tool-row>` which it renders. Import for its effect:
 * `import 'callfold/elements/tool-group';`. The class is `ToolGroupElement` in
 * `callfold/elements/classes`, importable without this.
 */
import './tool-row.js';
import { ToolGroupElement } from './internal/tool-group-element.js';

if (!customElements.get('tool-group')) customElements.define('tool-group', ToolGroupElement);

declare global {
  interface HTMLElementTagNameMap {
    'tool-group': ToolGroupElement;
  }
}
