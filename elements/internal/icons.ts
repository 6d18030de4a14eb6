import { html, type SVGTemplateResult, svg, type TemplateResult } from 'lit';
import type { ToolCategory } from '../../src/index.js';

/** 16×16 stroke glyphs drawn in `currentColor`, one per tool category. */
const GLYPHS: { readonly [C in ToolCategory]: SVGTemplateResult } = {
  read: svg`<path d="M4 1.5h5l3 3v10H4z"/><path d="M9 1.5v3h3M6 8h4M6 10.5h4"/>`,
  read_image: svg`<rect x="1.5" y="2.5" width="13" height="11" rx="1.5"/><circle cx="5.5" cy="6" r="1.2"/><path d="M2 12l4-4 3 3 2-2 3.5 3.5"/>`,
  write: svg`<path d="M4 1.5h5l3 3v10H4z"/><path d="M9 1.5v3h3M8 7.5v5M5.5 10h5"/>`,
  edit: svg`<path d="M10.5 2.5l3 3-8 8H2.5v-3z"/><path d="M9 4l3 3"/>`,
  search: svg`<circle cx="7" cy="7" r="4.5"/><path d="M10.5 10.5l4 4"/>`,
  web: svg`<circle cx="8" cy="8" r="6.5"/><path d="M1.5 8h13M8 1.5c2 2 2.8 4.2 2.8 6.5S10 12.5 8 14.5M8 1.5C6 3.5 5.2 5.7 5.2 8S6 12.5 8 14.5"/>`,
  todo: svg`<path d="M2 4l1.5 1.5L6 3M2 10l1.5 1.5L6 9M8.5 4.5h6M8.5 10.5h6"/>`,
  question: svg`<path d="M2.5 3.5a1 1 0 0 1 1-1h9a1 1 0 0 1 1 1v7a1 1 0 0 1-1 1H7l-3 2.5v-2.5h-.5a1 1 0 0 1-1-1z"/><path d="M6.5 5.5a1.5 1.5 0 1 1 2 1.4c-.4.2-.5.5-.5.9M8 9.6v.1"/>`,
  bash: svg`<rect x="1.5" y="2.5" width="13" height="11" rx="1.5"/><path d="M4.5 6l2 2-2 2M8 10.5h3.5"/>`,
  pwsh: svg`<path d="M3.5 2.5h11l-2 11h-11z"/><path d="M5.5 6l2.5 2-3 2M8.5 10.5h2.5"/>`,
  run_code: svg`<path d="M5 4.5L1.5 8 5 11.5M11 4.5L14.5 8 11 11.5M9.5 2.5l-3 11"/>`,
  generic: svg`<path d="M10.2 1.8a3.6 3.6 0 0 0-3.4 4.8L1.9 11.5a1.4 1.4 0 0 0 2 2l4.9-4.9a3.6 3.6 0 0 0 4.8-3.4l-2.1 2.1-1.9-.5-.5-1.9z"/>`,
};

function glyph(paths: SVGTemplateResult, part: string): TemplateResult {
  return html`<svg part=${part} class=${part} viewBox="0 0 16 16" width="16" height="16" fill="none"
    stroke="currentColor" stroke-width="1.4" stroke-linecap="round" stroke-linejoin="round"
    aria-hidden="true" focusable="false">${paths}</svg>`;
}

/** The category's icon, decorative (`aria-hidden`): the title beside it names the tool. */
export function categoryIcon(category: ToolCategory, part = 'icon'): TemplateResult {
  return glyph(GLYPHS[category], part);
}

/** The disclosure chevron; CSS turns it when its row or group is expanded. */
export function chevronIcon(): TemplateResult {
  return glyph(svg`<path d="M6 4l4 4-4 4"/>`, 'chevron');
}
