import type { TemplateResult } from 'lit';
import type { ToolCategory, ToolNode, TurnNode } from '../../src/index.js';

/**
 * An embedder's own rendering for some tools, by composition: return a template for the
 * tools you render yourself, undefined for the others (they get the built-in `<tool-row>`).
 * Called at every render of the group, with the current node; what it returns is keyed by
 * callId like the built-in rows. No registration: decide from `node.name` or `category`.
 *
 * @example
 * ```ts
 * group.renderTool = (node, category) =>
 *   node.name === 'deploy' ? html`<my-deploy-row .node=${node}></my-deploy-row>` : undefined;
 * ```
 */
export type ToolRenderer = (node: ToolNode, category: ToolCategory) => TemplateResult | undefined;

/** Maps a tool name to its category; `categoryOf` from the core by default. */
export type ToolClassifier = (name: string) => ToolCategory;

/**
 * An embedder's own turn separator in `<tool-timeline>`: return a template for the turn, or
 * undefined for the built-in one. Called at every render of the timeline with the current
 * node; keyed by turn id. `turn.prompt` is the user's untrusted text: render it as text (Lit
 * does so for `${turn.prompt}`), or sanitise it yourself before any HTML.
 *
 * @example
 * ```ts
 * timeline.renderTurn = (turn) =>
 *   html`<h3 class="you">${turn.prompt ?? 'New turn'}</h3>`;
 * ```
 */
export type TurnRenderer = (turn: TurnNode) => TemplateResult | undefined;
