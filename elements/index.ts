/**
 * Registers `<tool-row>`, `<tool-group>` and `<tool-timeline>`, and exports their classes:
 * `import 'callfold/elements/index';`.
 */
import './tool-timeline.js';

export * from './classes.js';
