import { html, nothing, type TemplateResult } from 'lit';
import type { AssistantNode, TurnNode } from '../../src/index.js';
import { clipAt } from './clip.js';

/**
 * One assistant response in the timeline: its reasoning collapsed under `reasoningLabel`,
 * then its text. Both are rendered as text, never as HTML.
 */
export function assistantView(node: AssistantNode, reasoningLabel: string): TemplateResult {
  return html`<div part="assistant" class="assistant" data-stage=${node.stage}>
    ${
      node.reasoning === ''
        ? nothing
        : html`<details part="reasoning" class="reasoning">
            <summary>${reasoningLabel}</summary>
            <p class="text">${node.reasoning}</p>
          </details>`
    }
    ${node.text === '' ? nothing : html`<p part="text" class="text">${node.text}</p>`}
  </div>`;
}

/**
 * The built-in separator where a turn starts, and the user's prompt as a heading (text only;
 * a long prompt ends in "…").
 */
export function turnView(turn: TurnNode): TemplateResult {
  const prompt = turn.prompt ?? '';
  const cut = clipAt(prompt);
  return html`<div part="turn" class="turn" data-stage=${turn.stage}>
    <hr part="turn-rule" class="rule" />
    ${
      prompt === ''
        ? nothing
        : html`<p part="turn-prompt" class="prompt" role="heading" aria-level="2">${
            cut === undefined ? prompt : `${prompt.slice(0, cut)}…`
          }</p>`
    }
  </div>`;
}
