/**
 * Registers `<tool-row>`. Import for its effect: `import 'callfold/elements/tool-row';`.
 * The class is `ToolRowElement` in `callfold/elements/classes`, importable without this.
 */
import { ToolRowElement } from './internal/tool-row-element.js';

if (!customElements.get('tool-row')) customElements.define('tool-row', ToolRowElement);

declare global {
  interface HTMLElementTagNameMap {
    'tool-row': ToolRowElement;
  }
}
