import { html, LitElement, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { categoryOf, type ToolCategory, type ToolNode } from '../../src/index.js';
import { bodySections, type CallSection, type FieldEntry } from './call-view.js';
import { emit } from './events.js';
import { formatKiB } from './field-text.js';
import { categoryIcon, chevronIcon } from './icons.js';
import { englishLabels, resolveLabels, type ToolLabels } from './labels.js';
import type { ToolClassifier } from './render-tool.js';
import { rowView } from './row-view.js';
import { theme } from './theme.js';
import { resultView } from './tool-output.js';
import { toolRowStyles } from './tool-row-styles.js';
import { visibleText } from './visible-text.js';

const TODO_MARKS: Record<string, string> = { completed: '✓', in_progress: '▸', cancelled: '✕' };

/** The stage a row announces: a cut, denied or waiting call says so instead. */
function stageLabel(node: ToolNode, labels: ToolLabels): string {
  if (node.incomplete) return labels.stage.cutOff;
  if (node.approval?.state === 'denied') return labels.stage.denied;
  if (node.stage === 'start' && node.approval?.state === 'requested') {
    return labels.stage.needsApproval;
  }
  if (node.stage === 'result' && node.result?.isError) return labels.stage.failed;
  return labels.stage[node.stage];
}

/** How much of a cut call arrived, measured like a content size; undefined when nothing did. */
function arrived(node: ToolNode): string | undefined {
  return node.argsRaw === null ? undefined : formatKiB(node.argsRaw.length, true);
}

/**
 * One tool call at any stage: its icon, title and stage, what has streamed in of its
 * arguments, and once dispatched, its call and result.
 *
 * The same element (and component) serves a call through `preparing` → `start` → `result`:
 * key rows by `callId` and set the new node. It reads arguments only through `node.args`, at
 * the granularity it shows them (a path once it closes, a size per KiB, a description through
 * a bounded prefix), so the Tool Definition republishes the node exactly when the row would
 * change. Tool text is rendered as text; only http(s) URLs become links.
 *
 * - preparing: identity and the fields streamed so far; not expandable.
 * - start: the call's own presentation (command, code, path, content, fields; the argument
 *   text for a generic tool), expandable.
 * - result: the output (long outputs behind "Show more"), error styling, the exit code when
 *   the output has one.
 *
 * Real-world call shapes:
 * - A call the provider ran (`executor: 'provider'`, e.g. a hosted web search) shows a small
 *   "provider" marker from preparing on, and its result like any other.
 * - A call its response was cut inside (`incomplete: true`) keeps its row, stage "Cut off",
 *   with a line saying why (from the node's `stopReason`: "the response reached its token
 *   limit", a content filter, …) and how much of its arguments arrived.
 * - A call waiting for approval (`start` with `approval.state: 'requested'`) shows
 *   "Run this call?" with Approve and Deny buttons, which fire `tool-approval`; a denied call
 *   shows "Denied" (and the reason given) and never a result.
 * - A free-form call (`input: 'text'`) reads its text as the field `input`: a patch tool
 *   shows the files its headers name as they stream; an unknown tool its size and first line.
 *
 * This element has no slots: to render a tool your own way, give `<tool-group>` or
 * `<tool-timeline>` a `renderTool` callback.
 *
 * @summary One tool call, live through its three stages.
 *
 * @fires tool-open-path - The path was activated (click, Enter or Space). `detail: { path, node }`. Nothing navigates.
 * @fires tool-row-toggle - The user expanded or collapsed the row. `detail: { callId, expanded }`.
 * @fires tool-approval - Approve or Deny was activated on a call waiting for approval. `detail: { callId, approved }`. Sent once per request; the row shows the answer when the node carries it.
 *
 * @csspart row - The whole row.
 * @csspart header - The header line.
 * @csspart toggle - The expanding button (a plain box while preparing) holding chevron, icon, title, name and summary.
 * @csspart chevron - The disclosure chevron.
 * @csspart icon - The category icon.
 * @csspart title - The category title, or a generic tool's name.
 * @csspart name - The tool's own name when the title does not say it.
 * @csspart summary - One line: a description prefix, a pattern, a query.
 * @csspart path - The openable path button.
 * @csspart more-paths - The other files a patch names, after its first ("+ b.ts, c.ts").
 * @csspart link - An http(s) URL link.
 * @csspart meta - Size, exit code, provider marker and stage.
 * @csspart executor - The "provider" marker of a call the provider ran.
 * @csspart notice - The line saying why a call was cut off, or that it was denied.
 * @csspart approval - The approval request: its question and buttons.
 * @csspart approve - The Approve button.
 * @csspart deny - The Deny button.
 * @csspart size - The decoded content size ("3 KiB").
 * @csspart exit-code - The exit code of a result.
 * @csspart stage - The stage (a polite live region).
 * @csspart body - The expanded body.
 * @csspart block - A labelled block of text (command, code, content, output).
 * @csspart label - A block's label.
 * @csspart text - A block's text.
 * @csspart show-more - The "Show more" / "Show less" button of a long block.
 * @csspart fields - A list of argument fields.
 * @csspart todos - A todo list.
 *
 * @cssprop --callfold-font-family - Text font.
 * @cssprop --callfold-mono-font-family - Font of paths, commands, code and output.
 * @cssprop --callfold-font-size - Base font size (default 0.875rem).
 * @cssprop --callfold-radius - Corner radius.
 * @cssprop --callfold-color-text - Text colour.
 * @cssprop --callfold-color-muted - Secondary text: summaries, labels, meta.
 * @cssprop --callfold-color-surface - Background.
 * @cssprop --callfold-color-surface-raised - Hovered and raised background.
 * @cssprop --callfold-color-border - Borders.
 * @cssprop --callfold-color-accent - Paths, links, a running stage.
 * @cssprop --callfold-color-error - Errors and failing exit codes.
 * @cssprop --callfold-color-success - A finished stage, added text.
 * @cssprop --callfold-color-code-background - Background of code and output blocks.
 * @cssprop --callfold-color-focus - Focus ring.
 */
export class ToolRowElement extends LitElement {
  static override styles = [theme, toolRowStyles];

  static override properties = {
    node: { attribute: false },
    expanded: { type: Boolean, reflect: true },
    category: { attribute: false },
    categoryOf: { attribute: false },
    labels: { attribute: false },
  };

  /** The tool node to show (from a Conversation). Nothing renders without one. */
  declare node: ToolNode | undefined;
  /**
   * Whether a dispatched row shows its body. A preparing row never does, whatever this says.
   * @attr expanded
   */
  declare expanded: boolean;
  /**
   * The category to show: `<tool-group>` sets the one its group counted the tool under
   * (`GroupNode.categories`), so the row and the group header agree. When undefined, the
   * row asks `categoryOf`.
   */
  declare category: ToolCategory | undefined;
  /** Maps the tool's name to its category when `category` is not set; the core's `categoryOf` by default. */
  declare categoryOf: ToolClassifier;
  /** The strings the row shows, over the English defaults (`ToolLabels`). */
  declare labels: Partial<ToolLabels> | undefined;

  #labels: ToolLabels = englishLabels;
  /** Ids of the blocks shown in full ("Show more"), kept across stages. */
  readonly #full = new Set<string>();
  /** The path the last render showed: what activating it opens. */
  #path: string | undefined;
  /** The approval answer sent for the request shown, until the node carries the answer. */
  #answered: { readonly callId: string; readonly approved: boolean } | undefined;

  constructor() {
    super();
    this.node = undefined;
    this.expanded = false;
    this.category = undefined;
    this.categoryOf = categoryOf;
    this.labels = undefined;
  }

  /** The category shown for `node`. */
  #categoryOf(node: ToolNode): ToolCategory {
    return this.category ?? this.categoryOf(node.name);
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('labels')) this.#labels = resolveLabels(this.labels);
    if (changed.has('node') || changed.has('category') || changed.has('categoryOf')) {
      const { node } = this;
      this.#hostAttribute('stage', node?.stage);
      this.#hostAttribute('category', node ? this.#categoryOf(node) : undefined);
      this.toggleAttribute('error', node?.result?.isError === true);
      this.#hostAttribute('approval', node?.approval?.state);
      this.#hostAttribute('executor', node?.executor);
      this.toggleAttribute('incomplete', node?.incomplete === true);
      if (this.#answered?.callId !== node?.callId || node?.approval?.state !== 'requested') {
        this.#answered = undefined;
      }
    }
  }

  #hostAttribute(name: string, value: string | undefined): void {
    if (value === undefined) this.removeAttribute(name);
    else if (this.getAttribute(name) !== value) this.setAttribute(name, value);
  }

  protected override render(): TemplateResult | typeof nothing {
    const node = this.node;
    if (!node) return nothing;
    const category = this.#categoryOf(node);
    const view = rowView(node, category);
    this.#path = view.path;
    const expandable = node.stage !== 'preparing';
    const expanded = expandable && this.expanded;
    const denied = node.approval?.state === 'denied';
    const result =
      node.result && !denied ? resultView(node.result, this.#labels.outputNotShown) : undefined;
    const labels = this.#labels;
    const stage = stageLabel(node, labels);
    // A generic tool is titled by its own name; every other title is a label.
    const title =
      category === 'generic' && node.name !== '' ? view.title : labels.category[category];

    const heading = html`${expandable ? chevronIcon() : html`<span class="chevron-space"></span>`}
      ${categoryIcon(category)}
      <span part="title" class="title">${title}</span>
      ${view.name === undefined ? nothing : html`<span part="name" class="name">${view.name}</span>`}
      ${view.summary === undefined ? nothing : html`<span part="summary" class="summary">${view.summary}</span>`}`;

    return html`<div part="row" class="row">
      <div part="header" class="header">
        ${
          expandable
            ? html`<button
                part="toggle"
                class="toggle"
                type="button"
                aria-expanded=${expanded ? 'true' : 'false'}
                aria-controls="body"
                @click=${this.#toggle}
              >
                ${heading}
              </button>`
            : html`<div part="toggle" class="toggle">${heading}</div>`
        }
        ${
          view.path === undefined
            ? nothing
            : html`<button
                part="path"
                class="path"
                type="button"
                title=${view.pathText}
                aria-label=${labels.open(view.pathText ?? view.path)}
                @click=${this.#openPath}
              >
                ${view.pathText}
              </button>`
        }
        ${
          view.morePaths === undefined
            ? nothing
            : html`<span part="more-paths" class="more-paths" title=${view.morePaths}
                >${view.morePaths}</span
              >`
        }
        ${
          view.href === undefined
            ? nothing
            : html`<a part="link" class="link" href=${view.href} target="_blank" rel="noopener noreferrer"
                >${view.href}</a
              >`
        }
        <span part="meta" class="meta">
          ${
            node.executor === 'provider'
              ? html`<span part="executor" class="executor" title=${this.#labels.providerTitle}
                  >${this.#labels.provider}</span
                >`
              : nothing
          }
          ${view.size === undefined ? nothing : html`<span part="size" class="size">${view.size}</span>`}
          ${
            result?.exitCode === undefined
              ? nothing
              : html`<span part="exit-code" class=${result.exitCode === 0 ? 'exit-code' : 'exit-code failed'}
                  >${labels.exitCode(result.exitCode)}</span
                >`
          }
          <span part="stage" class="stage" role="status"
            ><span class="visually-hidden">${title}: </span>${stage}</span
          >
        </span>
      </div>
      ${this.#notice(node, title)}
      ${
        expandable
          ? html`<div part="body" class="body" id="body" ?hidden=${!expanded}>
              ${expanded ? bodySections(node, category, labels).map((section) => this.#section(section)) : nothing}
            </div>`
          : nothing
      }
    </div>`;
  }

  /** A line under the header: why a call was cut, that it was denied, or the approval controls. */
  #notice(node: ToolNode, title: string): TemplateResult | typeof nothing {
    const labels = this.#labels;
    if (node.incomplete) {
      const notice = labels.cutNotice(node.stopReason, arrived(node), node.input === 'text');
      return html`<p part="notice" class="notice cut">${notice}</p>`;
    }
    const approval = node.approval;
    if (approval?.state === 'denied') {
      return html`<p part="notice" class="notice denied">
        ${labels.deniedNotice(approval.reason)}
      </p>`;
    }
    if (approval?.state !== 'requested' || node.stage !== 'start') return nothing;
    const sent = this.#answered?.callId === node.callId ? this.#answered.approved : undefined;
    const words = labels.approval;
    return html`<div part="approval" class="approval" role="group" aria-label=${words.group(title)}>
      <span class="question">
        ${sent === undefined ? words.question : sent ? words.approving : words.denying}
      </span>
      <button
        part="approve"
        class="approve"
        type="button"
        aria-label=${words.approveCall(title)}
        aria-disabled=${sent === undefined ? 'false' : 'true'}
        @click=${() => this.#answer(true)}
      >
        ${words.approve}
      </button>
      <button
        part="deny"
        class="deny"
        type="button"
        aria-label=${words.denyCall(title)}
        aria-disabled=${sent === undefined ? 'false' : 'true'}
        @click=${() => this.#answer(false)}
      >
        ${words.deny}
      </button>
    </div>`;
  }

  #answer(approved: boolean): void {
    const node = this.node;
    if (node?.stage !== 'start' || node.approval?.state !== 'requested') return;
    if (this.#answered?.callId === node.callId) return;
    this.#answered = { callId: node.callId, approved };
    emit(this, 'tool-approval', { callId: node.callId, approved });
    this.requestUpdate();
  }

  #section(section: CallSection): TemplateResult {
    switch (section.type) {
      case 'block': {
        const { id, label, text, tone } = section;
        const full = this.#full.has(id) && text.full !== undefined;
        const shown = visibleText(full && text.full ? text.full() : text.head);
        return html`<section part="block" class=${`block ${tone}`} aria-label=${label}>
          <div part="label" class="label" aria-hidden="true">${label}</div>
          ${
            shown === ''
              ? html`<pre part="text" class="empty">${this.#labels.empty(label)}</pre>`
              : html`<pre part="text">${shown}</pre>`
          }
          ${
            text.full === undefined
              ? nothing
              : html`<button
                  part="show-more"
                  class="more"
                  type="button"
                  aria-expanded=${full ? 'true' : 'false'}
                  @click=${() => this.#showMore(id)}
                >
                  ${full ? this.#labels.showLess : this.#labels.showMore}
                </button>`
          }
        </section>`;
      }
      case 'fields':
        return html`<dl part="fields" class="fields">
          ${section.entries.map((entry) => html`<div><dt>${entry.label}</dt><dd>${fieldValue(entry)}</dd></div>`)}
        </dl>`;
      case 'todos':
        return html`<ul part="todos" class="todos" aria-label=${this.#labels.todos}>
          ${section.items.map(
            (item) => html`<li data-status=${item.status}>
              <span class="mark" aria-hidden="true">${TODO_MARKS[item.status] ?? '○'}</span>
              <span class="text">${visibleText(item.text)}</span>
              <span class="visually-hidden">(${this.#labels.todoStatus(item.status)})</span>
            </li>`,
          )}
        </ul>`;
      default:
        return section satisfies never;
    }
  }

  #toggle = (): void => {
    if (this.node?.stage === 'preparing') return;
    this.expanded = !this.expanded;
    emit(this, 'tool-row-toggle', { callId: this.node?.callId ?? '', expanded: this.expanded });
  };

  #openPath = (): void => {
    const { node } = this;
    const path = this.#path;
    if (node && path !== undefined) emit(this, 'tool-open-path', { path, node });
  };

  #showMore(id: string): void {
    if (!this.#full.delete(id)) this.#full.add(id);
    this.requestUpdate();
  }
}

function fieldValue(entry: FieldEntry): TemplateResult | string {
  const value = visibleText(entry.value);
  return entry.href === undefined
    ? value
    : html`<a href=${entry.href} target="_blank" rel="noopener noreferrer">${value}</a>`;
}
