import { html, LitElement, type PropertyValues, type TemplateResult } from 'lit';
import { guard } from 'lit/directives/guard.js';
import { repeat } from 'lit/directives/repeat.js';
import { styleMap } from 'lit/directives/style-map.js';
import type { Observable } from 'rxjs';
import {
  type AssembleInput,
  type AssembleOptions,
  type Conversation,
  definitionsWithTurns,
  type GroupNode,
  type TurnNode,
} from '../../src/index.js';
import { estimatedHeight } from './chunk-height.js';
import { ChunkRevealController, type ChunkRevealOptions } from './chunk-reveal-controller.js';
import { emit, type ToolGroupToggleEvent } from './events.js';
import { FoldController } from './fold-controller.js';
import { englishLabels, resolveLabels, type ToolLabels } from './labels.js';
import { groupExportParts } from './parts.js';
import { prepareClass } from './prepare.js';
import type { ToolClassifier, ToolRenderer, TurnRenderer } from './render-tool.js';
import { theme } from './theme.js';
import { type Chunk, itemKey, type Section } from './timeline-chunks.js';
import { assistantView, turnView } from './timeline-item-views.js';
import { toolTimelineStyles } from './tool-timeline-styles.js';

/**
 * An agent session as it streams: assistant text and reasoning, and tool groups, in log
 * order.
 *
 * Give it either a `conversation` (a Conversation you fold yourself, e.g. from
 * `Assembler.publish()` or `assemble()`) or a `source`: an Observable of CallfoldEvents
 * (batches and `assemble()` commands too), which the element folds with `assemble()`. The
 * element subscribes to `source` when it is connected and unsubscribes when it is
 * disconnected; each subscription folds from scratch, so a hot source (a Subject) that is
 * reconnected shows only what came after. Moving the element in the DOM disconnects it: use
 * a replaying source (`shareReplay`, a ReplaySubject) if you move it, or fold outside and set
 * `conversation`. While a `source` is set, `conversation` is ignored.
 *
 * Items are keyed (assistant responses by attempt id, groups by id), so each keeps its
 * element as the conversation grows. Groups remember their expanded state by id while they
 * are in the conversation; `expand-groups` sets the state of groups not toggled yet.
 * Assistant text is rendered as text (not Markdown, never HTML).
 *
 * Turns: the `source` is folded with `definitionsWithTurns`, so each `turn/start` is a
 * `TurnNode` item and the timeline draws a separator where the turn starts, with the user's
 * `prompt` (an optional field of `turn/start`) as a heading, rendered as text. A `conversation`
 * shows turns when it was folded with `definitionsWithTurns` too. `renderTurn` draws them the
 * embedder's way.
 *
 * Long sessions: the items are rendered in chunks of 32 (consecutive, kept across
 * publications), each with `content-visibility: auto`, so the browser skips the style, layout
 * and paint of chunks off screen; the chunks are grouped in sections of 32. A publication
 * re-renders only the chunks whose items changed (learnt from the Builder's `keptEnds` when
 * the conversation comes from one Assembler, else by comparing items by identity), and the
 * template walks only the sections holding them: while a call streams below thousands of
 * settled ones, one section is walked and only the last chunk's template runs. With more
 * than four chunks, only the first two and the last two render at once; every other chunk
 * starts as an empty box of its estimated height and gets its elements when it comes within
 * a viewport of the screen, or in idle time (newest first), so after a moment every item is
 * in the DOM: findable with find-in-page, reachable with Tab and by screen readers. A chunk that rendered stays rendered. Rows of collapsed groups are
 * not rendered at all (see `<tool-group>`), so find-in-page does not see them. A subclass
 * tunes this by passing `ChunkRevealOptions` (chunk and section sizes, eager chunks, idle
 * fill) to the constructor; `chunkRevealDefaults` are the defaults above.
 *
 * Registering `tool-timeline` (`callfold/elements/tool-timeline`) also registers
 * `tool-group` and `tool-row`.
 *
 * @summary An agent session as it streams: assistant text and tool groups.
 *
 * @slot empty - Shown while there is nothing to show.
 *
 * @fires tool-timeline-error - The `source` failed. `detail: { error }`. What was shown stays.
 * @fires tool-group-toggle - Bubbles from a group. `detail: { id, expanded }`.
 * @fires tool-open-path - Bubbles from a row: a path was activated. `detail: { path, node }`.
 * @fires tool-row-toggle - Bubbles from a row. `detail: { callId, expanded }`.
 * @fires tool-approval - Bubbles from a row: Approve or Deny was activated. `detail: { callId, approved }`. Record it (`tool/approval`) and run the call only when approved.
 *
 * @csspart timeline - The list of items.
 * @csspart turn - Where a user turn starts: the separator and the prompt.
 * @csspart turn-rule - The separator line (an `<hr>`; hidden on the first item).
 * @csspart turn-prompt - The user's prompt, a heading (`role="heading"`, level 2), as text; a long prompt ends in "…".
 * @csspart assistant - One assistant response.
 * @csspart text - Its text.
 * @csspart reasoning - Its reasoning, collapsed in a `<details>`.
 * @csspart group - A `<tool-group>` element.
 * @csspart group-box - A group's `group` part (re-exported from each `<tool-group>`).
 * @csspart group-header - A group's `header` part (re-exported from each `<tool-group>`).
 * @csspart group-chevron - A group's `chevron` part (re-exported from each `<tool-group>`).
 * @csspart group-counts - A group's `counts` part (re-exported from each `<tool-group>`).
 * @csspart group-count-icon - A group's `count-icon` part (re-exported from each `<tool-group>`).
 * @csspart group-summary - A group's `summary` part (re-exported from each `<tool-group>`).
 * @csspart group-detail - A group's `detail` part (re-exported from each `<tool-group>`).
 * @csspart group-failures - A group's `failures` part (re-exported from each `<tool-group>`).
 * @csspart group-activity - A group's `activity` part (re-exported from each `<tool-group>`).
 * @csspart group-tools - A group's `tools` part (re-exported from each `<tool-group>`).
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
 * @cssprop --callfold-color-muted - Secondary text: reasoning.
 * @cssprop --callfold-color-surface - Group background.
 * @cssprop --callfold-color-surface-raised - Hovered background.
 * @cssprop --callfold-color-border - Borders.
 * @cssprop --callfold-color-accent - Paths, links, running calls.
 * @cssprop --callfold-color-error - Errors.
 * @cssprop --callfold-color-success - Finished calls.
 * @cssprop --callfold-color-code-background - Background of code and output blocks.
 * @cssprop --callfold-color-focus - Focus ring.
 */
export class ToolTimelineElement extends LitElement {
  static override styles = [theme, toolTimelineStyles];

  static override properties = {
    conversation: { attribute: false },
    // Own accessors: setting either subscribes at once, so no event sent right after is lost.
    source: { attribute: false, noAccessor: true },
    assembleOptions: { attribute: false, noAccessor: true },
    expandGroups: { type: Boolean, attribute: 'expand-groups' },
    renderTool: { attribute: false },
    renderTurn: { attribute: false },
    categoryOf: { attribute: false },
    labels: { attribute: false },
  };

  /**
   * The Conversation to show, when no `source` is set. Fold it with `definitionsWithTurns`
   * (`new Assembler<TurnNode>({ definitions: definitionsWithTurns })`) to show turns.
   */
  declare conversation: Conversation<TurnNode> | undefined;
  /**
   * Whether groups not toggled by the user show their rows.
   * @attr expand-groups
   */
  declare expandGroups: boolean;
  /** Renders some tools the embedder's way; passed to every group. */
  declare renderTool: ToolRenderer | undefined;
  /**
   * Renders turn separators the embedder's way: return a template for a turn (e.g. with an
   * avatar, or Markdown you sanitise yourself), or undefined for the built-in separator.
   */
  declare renderTurn: TurnRenderer | undefined;
  /**
   * Overrides the rows' categories in every group (see `ToolGroupElement.categoryOf`).
   * Undefined by default: rows follow their group's `categories`. To add tool names, give
   * them to the Builder, `assembleOptions: { groups: { categories } }`, and the header and
   * the rows both follow.
   */
  declare categoryOf: ToolClassifier | undefined;
  /**
   * The strings the timeline, its groups and rows show, over the English defaults
   * (`ToolLabels`): set it to translate them.
   */
  declare labels: Partial<ToolLabels> | undefined;

  /**
   * Takes this element's one-time costs off the first tool call's path: Lit's templates, the
   * style sheets, and the first compilation of the fold, the argument reader and the
   * rendering. Once the page is idle, it shows a small sample session (a `write` streaming,
   * then run, a failed `read`) in an element of this class out of sight (off-screen, hidden,
   * `inert`), lets the browser lay it out once streaming and once settled, and removes it.
   * Call it once after the page loads, before the first response arrives; it resolves when
   * done, and later calls return the first call's promise.
   *
   * `sample`, when given, is shown next, until it completes (at most 2 s): your provider
   * adapter over a small recorded response (e.g. `fromAISDKUIStream(new Response(sseText))`),
   * so that the adapter's and the stream decoder's first run is taken off the path too. On a
   * cold page that is most of the difference: from the first byte of a response to its first
   * tool's name on screen, 28–51 ms without `prepare`, 9–24 ms with it alone, 7–19 ms (most
   * runs under 13 ms) with a sample through the page's adapter, the name then in the first
   * frame after its first byte in 23 of 24 runs (`npm run bench:peers -- --browser`,
   * bench/README.md). It costs about 30 ms of
   * main-thread work, once, at idle.
   *
   * None of the sample's events (`tool-timeline-error`, toggles…) reaches the page. Rejects
   * with a TypeError when the class is not registered as a custom element, and with the
   * error of a `sample` that failed (once the element is removed).
   */
  static prepare(sample?: Observable<AssembleInput>): Promise<void> {
    // biome-ignore lint/complexity/noThisInStatic: a subclass prepares itself, under its own tag.
    return prepareClass(this, sample);
  }

  #labels: ToolLabels = englishLabels;
  readonly #fold = new FoldController<TurnNode>(this, {
    defaults: { definitions: definitionsWithTurns },
    firstAtOnce: true,
    onError: (error) => emit(this, 'tool-timeline-error', { error }),
  });
  readonly #reveal: ChunkRevealController;
  /** Expanded state of groups the user toggled, by id, pruned to the groups shown. */
  readonly #expanded = new Map<string, boolean>();

  /**
   * @param reveal - How the items are revealed in chunks, over `chunkRevealDefaults`: a
   *   subclass passes its own (e.g. `super({ fillWhenIdle: false })`). The browser creates
   *   the element with none. Throws a RangeError for a count out of range.
   */
  constructor(reveal: Partial<ChunkRevealOptions> = {}) {
    super();
    this.#reveal = new ChunkRevealController(this, reveal);
    this.conversation = undefined;
    this.expandGroups = false;
    this.renderTool = undefined;
    this.renderTurn = undefined;
    this.categoryOf = undefined;
    this.labels = undefined;
  }

  /**
   * Events to fold with `assemble()` while connected; wins over `conversation`. Setting it on
   * a connected element subscribes at once (and unsubscribes from the previous source).
   * Without a scheduler in `assembleOptions`, each subscription's first publication comes as
   * soon as its events are folded (a microtask), the rest at most once per animation frame.
   */
  get source(): Observable<AssembleInput> | undefined {
    return this.#fold.source;
  }
  set source(source: Observable<AssembleInput> | undefined) {
    const old = this.#fold.source;
    this.#fold.source = source;
    this.requestUpdate('source', old);
  }

  /**
   * Options for `assemble()` (scheduler, definitions, onInvalid…); setting them resubscribes.
   * `definitions` defaults to `definitionsWithTurns`.
   */
  get assembleOptions(): AssembleOptions<TurnNode> | undefined {
    return this.#fold.options;
  }
  set assembleOptions(options: AssembleOptions<TurnNode> | undefined) {
    const old = this.#fold.options;
    this.#fold.options = options;
    this.requestUpdate('assembleOptions', old);
  }

  /** The Conversation shown: the source's latest publication, or `conversation`. */
  get shown(): Conversation<TurnNode> | undefined {
    return this.source ? this.#fold.value : this.conversation;
  }

  /** Whether the element holds a live subscription to `source` (not once it completed or failed). */
  get subscribed(): boolean {
    return this.#fold.subscribed;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('labels')) this.#labels = resolveLabels(this.labels);
    this.#reveal.update(this.shown?.items ?? []);
    const chunks = this.#reveal.chunks;
    // Forget the expanded state of groups that left the conversation (only the changed
    // stretch can hold them).
    if (this.#expanded.size > 0 && chunks.removed.length > 0) {
      const kept = new Set<string>();
      for (const item of chunks.added) if (item.kind === 'group') kept.add(item.id);
      for (const item of chunks.removed) {
        if (item.kind === 'group' && !kept.has(item.id)) this.#expanded.delete(item.id);
      }
    }
  }

  protected override render(): TemplateResult {
    const sections = this.#reveal.chunks.sections;
    if (sections.length === 0) return html`<slot name="empty"></slot>`;
    return html`<div part="timeline" class="timeline">
      ${repeat(sections, (section) => section.key, this.#section)}
    </div>`;
  }

  /** A section: its chunks, walked only when one of them changed. */
  #section = (section: Section): unknown =>
    guard(
      [
        section.items,
        section.version,
        this.renderTurn,
        this.expandGroups,
        this.renderTool,
        this.categoryOf,
        this.labels,
      ],
      () =>
        html`<div class="section">${repeat(section.items, (chunk) => chunk.key, this.#chunk)}</div>`,
    );

  #chunk = (chunk: Chunk): unknown => this.renderChunk(chunk);

  /**
   * A chunk: its items, or while it waits, an empty box of their estimated height. Called for
   * each chunk of a section that changed; a subclass may count the calls (the tests do).
   * @internal
   */
  protected renderChunk(chunk: Chunk): unknown {
    return guard(
      [
        chunk.items,
        chunk.rendered,
        this.renderTurn,
        this.expandGroups,
        this.renderTool,
        this.categoryOf,
        this.labels,
      ],
      () => {
        const height = `${estimatedHeight(chunk.items, this.#open)}em`;
        if (!chunk.rendered) return this.#reveal.placeholder(chunk, height);
        return html`<div class="chunk" style=${styleMap({ 'contain-intrinsic-block-size': `auto ${height}` })}>
          ${repeat(chunk.items, itemKey, (item) =>
            item.kind === 'assistant'
              ? assistantView(item, this.#labels.reasoning)
              : item.kind === 'turn'
                ? this.#turn(item)
                : this.#group(item),
          )}
        </div>`;
      },
    );
  }

  /** A turn as `renderTurn` draws it, or the built-in separator when it returns undefined. */
  #turn(turn: TurnNode): unknown {
    const custom = this.renderTurn?.(turn);
    return custom !== undefined ? custom : turnView(turn);
  }

  #group(group: GroupNode): TemplateResult {
    return html`<tool-group
      part="group"
      exportparts=${groupExportParts}
      .group=${group}
      .expanded=${this.#open(group)}
      .renderTool=${this.renderTool}
      .categoryOf=${this.categoryOf}
      .labels=${this.labels}
      @tool-group-toggle=${this.#remember}
    ></tool-group>`;
  }

  /** Whether `group` shows its rows: as the user toggled it, else `expandGroups`. */
  #open = (group: GroupNode): boolean => this.#expanded.get(group.id) ?? this.expandGroups;

  #remember = (event: ToolGroupToggleEvent): void => {
    this.#expanded.set(event.detail.id, event.detail.expanded);
  };
}
