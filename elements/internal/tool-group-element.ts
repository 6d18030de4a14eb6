import { html, LitElement, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import { categoryOf, type GroupNode, type ToolCategory, type ToolNode } from '../../src/index.js';
import { emit } from './events.js';
import { categoryIcon, chevronIcon } from './icons.js';
import { englishLabels, resolveLabels, type ToolLabels } from './labels.js';
import { rowExportParts } from './parts.js';
import type { ToolClassifier, ToolRenderer } from './render-tool.js';
import { theme } from './theme.js';
import { toolGroupStyles } from './tool-group-styles.js';
import { visibleText } from './visible-text.js';

/**
 * A run of consecutive tool calls: a header with their counts by category and a live
 * one-line detail of the latest, over the calls' rows.
 *
 * The header shows `group.summary` ("Read 3 files · Ran 2 commands") and `group.detail`, and
 * expands or collapses the rows (click, Enter or Space). The expanded state is remembered
 * per group id for the element's life, so a group that comes back under the same id opens
 * as it was. Rows are keyed by callId (lit's `repeat`), so each call keeps its `<tool-row>`
 * through its stages. A collapsed group renders no rows, and so reads no arguments.
 *
 * Each row shows its tool under the category the group counted it under
 * (`group.categories`, from the Builder that built the group), so a row never says "Web"
 * under a header that says "Read 1 file": give extra tool names to the Builder
 * (`AssemblerOptions.groups.categories`) and both follow.
 *
 * `renderTool` lets an embedder draw some tools itself, by composition: return a template
 * for those, undefined for the rest. It gets the same category as the built-in row.
 *
 * Registering `tool-group` (`callfold/elements/tool-group`) also registers `tool-row`.
 *
 * @summary A group of consecutive tool calls: counts, live detail, rows.
 *
 * @fires tool-group-toggle - The user expanded or collapsed the group. `detail: { id, expanded }`.
 * @fires tool-open-path - Bubbles from a row: a path was activated. `detail: { path, node }`.
 * @fires tool-row-toggle - Bubbles from a row: the user expanded or collapsed it. `detail: { callId, expanded }`.
 * @fires tool-approval - Bubbles from a row: Approve or Deny was activated. `detail: { callId, approved }`.
 *
 * @csspart group - The group's box.
 * @csspart header - The expanding header button.
 * @csspart chevron - The disclosure chevron.
 * @csspart counts - The category icons.
 * @csspart count-icon - One category's icon.
 * @csspart summary - The counts as text: `group.summary` once every call finished; while one is under way, in the present tense ("Read 2 files · Writing 1 file…", `labels.summary`).
 * @csspart detail - The latest call's detail (`group.detail`).
 * @csspart failures - How many calls failed, when any did.
 * @csspart activity - Shown while a call is preparing or running.
 * @csspart tools - The list of rows.
 * @csspart row - A row's `row` part (re-exported from each `<tool-row>`).
 * @csspart row-header - A row's `header` part (re-exported from each `<tool-row>`).
 * @csspart toggle - A row's `toggle` part (re-exported from each `<tool-row>`).
 * @csspart row-chevron - A row's `chevron` part (re-exported from each `<tool-row>`).
 * @csspart icon - A row's `icon` part (re-exported from each `<tool-row>`).
 * @csspart title - A row's `title` part (re-exported from each `<tool-row>`).
 * @csspart name - A row's `name` part (re-exported from each `<tool-row>`).
 * @csspart row-summary - A row's `summary` part (re-exported from each `<tool-row>`).
 * @csspart path - A row's `path` part (re-exported from each `<tool-row>`).
 * @csspart link - A row's `link` part (re-exported from each `<tool-row>`).
 * @csspart meta - A row's `meta` part (re-exported from each `<tool-row>`).
 * @csspart size - A row's `size` part (re-exported from each `<tool-row>`).
 * @csspart exit-code - A row's `exit-code` part (re-exported from each `<tool-row>`).
 * @csspart stage - A row's `stage` part (re-exported from each `<tool-row>`).
 * @csspart body - A row's `body` part (re-exported from each `<tool-row>`).
 * @csspart block - A row's `block` part (re-exported from each `<tool-row>`).
 * @csspart label - A row's `label` part (re-exported from each `<tool-row>`).
 * @csspart row-text - A row's `text` part (re-exported from each `<tool-row>`).
 * @csspart show-more - A row's `show-more` part (re-exported from each `<tool-row>`).
 * @csspart fields - A row's `fields` part (re-exported from each `<tool-row>`).
 * @csspart todos - A row's `todos` part (re-exported from each `<tool-row>`).
 *
 * @cssprop --callfold-font-family - Text font.
 * @cssprop --callfold-mono-font-family - Font of paths, commands, code and output.
 * @cssprop --callfold-font-size - Base font size (default 0.875rem).
 * @cssprop --callfold-radius - Corner radius.
 * @cssprop --callfold-color-text - Text colour.
 * @cssprop --callfold-color-muted - Secondary text: the detail, icons.
 * @cssprop --callfold-color-surface - The group's background.
 * @cssprop --callfold-color-surface-raised - Hovered header background.
 * @cssprop --callfold-color-border - The group's border.
 * @cssprop --callfold-color-accent - The activity dot.
 * @cssprop --callfold-color-error - The failure count.
 * @cssprop --callfold-color-success - Finished rows.
 * @cssprop --callfold-color-code-background - Background of code and output blocks.
 * @cssprop --callfold-color-focus - Focus ring.
 */
export class ToolGroupElement extends LitElement {
  static override styles = [theme, toolGroupStyles];

  static override properties = {
    group: { attribute: false },
    expanded: { type: Boolean, reflect: true },
    renderTool: { attribute: false },
    categoryOf: { attribute: false },
    labels: { attribute: false },
  };

  /** The group to show (from a Conversation's items). */
  declare group: GroupNode | undefined;
  /**
   * Whether the rows are shown.
   * @attr expanded
   */
  declare expanded: boolean;
  /** Renders some tools the embedder's way; undefined for a tool gives the built-in row. */
  declare renderTool: ToolRenderer | undefined;
  /**
   * Overrides the rows' categories (and the one `renderTool` gets). Undefined by default:
   * rows take `group.categories`, which the header counts. Set it only to the classifier
   * the group's Builder used, or the rows and the header disagree.
   */
  declare categoryOf: ToolClassifier | undefined;
  /** The strings the group and its rows show, over the English defaults (`ToolLabels`). */
  declare labels: Partial<ToolLabels> | undefined;

  #labels: ToolLabels = englishLabels;

  /** Expanded state by group id, for this element's life. */
  readonly #remembered = new Map<string, boolean>();
  #shownId: string | undefined;

  constructor() {
    super();
    this.group = undefined;
    this.expanded = false;
    this.renderTool = undefined;
    this.categoryOf = undefined;
    this.labels = undefined;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('labels')) this.#labels = resolveLabels(this.labels);
    const id = this.group?.id;
    if (id !== this.#shownId) {
      this.#shownId = id;
      const remembered = id === undefined ? undefined : this.#remembered.get(id);
      if (remembered !== undefined && !changed.has('expanded')) this.expanded = remembered;
    }
    if (id !== undefined) this.#remembered.set(id, this.expanded);
  }

  protected override render(): TemplateResult | typeof nothing {
    const { group, expanded } = this;
    if (!group) return nothing;
    const labels = this.#labels;
    let active = false;
    let failed = 0;
    /** Categories with a call still under way: the summary speaks of them in the present. */
    const running = new Set<ToolCategory>();
    group.tools.forEach((tool, index) => {
      if (tool.stage === 'result' && tool.result?.isError) failed++;
      // A cut or denied call is over, though it never gets a result: no activity for it.
      if (!underWay(tool)) return;
      active = true;
      running.add(group.categories[index] ?? categoryOf(tool.name));
    });
    // A finished group shows the Builder's summary (its `summary` option may be customised),
    // unless labels replace it.
    const summary =
      running.size === 0 && this.labels?.summary === undefined
        ? group.summary
        : labels.summary(group.counts, running);
    return html`<div part="group" class="group">
      <button
        part="header"
        class="header"
        type="button"
        aria-expanded=${expanded ? 'true' : 'false'}
        aria-controls="tools"
        @click=${this.#toggle}
      >
        ${chevronIcon()}
        <span part="counts" class="counts">
          ${group.counts.map((count) => categoryIcon(count.category, 'count-icon'))}
        </span>
        <span part="summary" class="summary">${visibleText(summary)}</span>
        <span part="detail" class="detail">${visibleText(group.detail)}</span>
        ${failed === 0 ? nothing : html`<span part="failures" class="status failed">${labels.failed(failed)}</span>`}
        ${
          active
            ? html`<span part="activity" class="activity"></span
                ><span class="visually-hidden">${labels.inProgress}</span>`
            : nothing
        }
      </button>
      <div part="tools" class="tools" id="tools" role="list" aria-label=${visibleText(summary)} ?hidden=${!expanded}>
        ${
          expanded
            ? repeat(
                group.tools,
                (tool) => tool.callId,
                (tool, index) =>
                  html`<div role="listitem">${this.#row(tool, group.categories[index])}</div>`,
              )
            : nothing
        }
      </div>
    </div>`;
  }

  /** `counted` is undefined only for a group made by hand without `categories`. */
  #row(tool: ToolNode, counted: ToolCategory | undefined): TemplateResult {
    const category = this.categoryOf?.(tool.name) ?? counted ?? categoryOf(tool.name);
    return (
      this.renderTool?.(tool, category) ??
      html`<tool-row
        exportparts=${rowExportParts}
        .node=${tool}
        .category=${category}
        .labels=${this.labels}
      ></tool-row>`
    );
  }

  #toggle = (): void => {
    this.expanded = !this.expanded;
    if (this.group) emit(this, 'tool-group-toggle', { id: this.group.id, expanded: this.expanded });
  };
}

/**
 * Whether a call is still under way: not finished, not cut off by its response's end
 * (`incomplete`, never dispatched), not denied by the user (never run).
 */
function underWay(tool: ToolNode): boolean {
  return tool.stage !== 'result' && tool.incomplete !== true && tool.approval?.state !== 'denied';
}
