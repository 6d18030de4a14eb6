import { html, LitElement, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { guard } from 'lit/directives/guard.js';
import { repeat } from 'lit/directives/repeat.js';
import { styleMap } from 'lit/directives/style-map.js';
import type { Observable, Subscription } from 'rxjs';
import {
  type AssembleInput,
  type AssembleOptions,
  type AssistantNode,
  assemble,
  type Conversation,
  definitionsWithTurns,
  type GroupNode,
  type TurnNode,
} from '../../src/index.js';
import { clipAt } from './clip.js';
import { emit, type ToolGroupToggleEvent } from './events.js';
import { englishLabels, resolveLabels, type ToolLabels } from './labels.js';
import { groupExportParts } from './parts.js';
import type { ToolClassifier, ToolRenderer, TurnRenderer } from './render-tool.js';
import { theme } from './theme.js';
import {
  type Chunk,
  itemKey,
  type Section,
  TimelineChunks,
  type TimelineItem,
} from './timeline-chunks.js';
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
 * not rendered at all (see `<tool-group>`), so find-in-page does not see them.
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
   * Items per chunk. Internal tuning, read when the element is created; a subclass may
   * change it (the tests' negative controls do).
   * @internal
   */
  static chunkSize = 32;
  /**
   * Chunks per section: the template walks the sections, and only the chunks of a section
   * that changed. Internal tuning like `chunkSize`.
   * @internal
   */
  static sectionSize = 32;
  /**
   * Chunks rendered at once at each end of the timeline; the others wait until they come
   * near the viewport, or for idle time.
   * @internal
   */
  static eagerChunks = 2;
  /**
   * Whether waiting chunks render in idle time too (else only near the viewport).
   * @internal
   */
  static fillWhenIdle = true;

  #labels: ToolLabels = englishLabels;
  readonly #chunks = new TimelineChunks(
    (this.constructor as typeof ToolTimelineElement).chunkSize,
    (this.constructor as typeof ToolTimelineElement).sectionSize,
  );
  /** Renders waiting chunks that come within a viewport of the screen. */
  #observer: IntersectionObserver | undefined;
  /** Waiting chunk elements may have been (re)created: observe them after the update. */
  #observe = false;
  /** The pending idle callback that renders waiting chunks. */
  #idle: (() => void) | undefined;

  #source: Observable<AssembleInput> | undefined;
  #assembleOptions: AssembleOptions<TurnNode> | undefined;
  #subscription: Subscription | null = null;
  #subscribed: {
    source: Observable<AssembleInput>;
    options: AssembleOptions<TurnNode> | undefined;
  } | null = null;
  /** What the current subscription last published. */
  #folded: Conversation<TurnNode> | undefined;
  /** Expanded state of groups the user toggled, by id, pruned to the groups shown. */
  readonly #expanded = new Map<string, boolean>();

  constructor() {
    super();
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
   */
  get source(): Observable<AssembleInput> | undefined {
    return this.#source;
  }
  set source(source: Observable<AssembleInput> | undefined) {
    const old = this.#source;
    this.#source = source;
    this.#sync();
    this.requestUpdate('source', old);
  }

  /**
   * Options for `assemble()` (scheduler, definitions, onInvalid…); setting them resubscribes.
   * `definitions` defaults to `definitionsWithTurns`.
   */
  get assembleOptions(): AssembleOptions<TurnNode> | undefined {
    return this.#assembleOptions;
  }
  set assembleOptions(options: AssembleOptions<TurnNode> | undefined) {
    const old = this.#assembleOptions;
    this.#assembleOptions = options;
    this.#sync();
    this.requestUpdate('assembleOptions', old);
  }

  /** The Conversation shown: the source's latest publication, or `conversation`. */
  get shown(): Conversation<TurnNode> | undefined {
    return this.source ? this.#folded : this.conversation;
  }

  /** Whether the element holds a live subscription to `source`. */
  get subscribed(): boolean {
    return this.#subscription !== null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.#sync();
    if (typeof IntersectionObserver === 'function') {
      this.#observer = new IntersectionObserver(this.#intersect, { rootMargin: '100% 0px' });
      this.#observe = true;
      this.requestUpdate();
    }
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#sync();
    this.#observer?.disconnect();
    this.#observer = undefined;
    this.#idle?.();
    this.#idle = undefined;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('labels')) this.#labels = resolveLabels(this.labels);
    const chunks = this.#chunks;
    chunks.update(this.shown?.items ?? []);
    // Forget the expanded state of groups that left the conversation (only the changed
    // stretch can hold them).
    if (this.#expanded.size > 0 && chunks.removed.length > 0) {
      const kept = new Set<string>();
      for (const item of chunks.added) if (item.kind === 'group') kept.add(item.id);
      for (const item of chunks.removed) {
        if (item.kind === 'group' && !kept.has(item.id)) this.#expanded.delete(item.id);
      }
    }
    // The first and last chunks render at once (only the ends: the work stays independent of
    // the number of chunks).
    const list = chunks.chunks;
    const eager = Math.min(
      (this.constructor as typeof ToolTimelineElement).eagerChunks,
      Math.ceil(list.length / 2),
    );
    for (let i = 0; i < eager; i++) {
      chunks.render(list[i] as Chunk);
      chunks.render(list[list.length - 1 - i] as Chunk);
    }
  }

  protected override updated(): void {
    if (this.#observe && this.#observer) {
      this.#observe = false;
      for (const chunk of this.renderRoot.querySelectorAll('.chunk[data-waiting]')) {
        this.#observer.observe(chunk);
      }
    }
    const fill = (this.constructor as typeof ToolTimelineElement).fillWhenIdle;
    if (fill && this.#chunks.waiting > 0 && this.#idle === undefined && this.isConnected) {
      this.#idle = whenIdle(this.#fill);
    }
  }

  /** Renders the waiting chunks that came near the viewport. */
  #intersect = (entries: IntersectionObserverEntry[]): void => {
    const keys = new Set<string>();
    for (const entry of entries) {
      if (!entry.isIntersecting || !(entry.target instanceof HTMLElement)) continue;
      this.#observer?.unobserve(entry.target);
      const key = entry.target.dataset.waiting;
      if (key !== undefined) keys.add(key);
    }
    if (keys.size === 0) return;
    for (const chunk of this.#chunks.chunks) if (keys.has(chunk.key)) this.#chunks.render(chunk);
    this.requestUpdate();
  };

  /** Renders the newest waiting chunk (two when the browser has the time), in idle time. */
  #fill = (timeRemaining: number): void => {
    this.#idle = undefined;
    let budget = timeRemaining > 30 ? 2 : 1;
    const list = this.#chunks.chunks;
    for (let i = list.length - 1; i >= 0 && budget > 0; i--) {
      const chunk = list[i] as Chunk;
      if (chunk.rendered) continue;
      this.#chunks.render(chunk);
      budget--;
    }
    this.requestUpdate();
  };

  /** Subscribes to `source` exactly while connected, resubscribing when it or the options change. */
  #sync(): void {
    const source = this.isConnected ? this.source : undefined;
    const current = this.#subscribed;
    if (current?.source === source && current?.options === this.assembleOptions) return;
    this.#subscription?.unsubscribe();
    this.#subscription = null;
    this.#subscribed = null;
    this.#folded = undefined;
    if (!source) return;
    const options = this.assembleOptions;
    this.#subscribed = { source, options };
    const folding = { definitions: definitionsWithTurns, ...options };
    this.#subscription = source.pipe(assemble<TurnNode>(folding)).subscribe({
      next: (conversation) => {
        this.#folded = conversation;
        this.requestUpdate();
      },
      error: (error: unknown) => {
        this.#subscription = null;
        emit(this, 'tool-timeline-error', { error });
      },
    });
  }

  protected override render(): TemplateResult {
    const sections = this.#chunks.sections;
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
        const height = `${this.#estimate(chunk.items)}em`;
        if (!chunk.rendered) {
          this.#observe = true;
          return html`<div class="chunk" data-waiting=${chunk.key} style=${styleMap({ 'block-size': height })}></div>`;
        }
        return html`<div class="chunk" style=${styleMap({ 'contain-intrinsic-block-size': `auto ${height}` })}>
          ${repeat(chunk.items, itemKey, (item) =>
            item.kind === 'assistant'
              ? this.#assistant(item)
              : item.kind === 'turn'
                ? this.#turn(item)
                : this.#group(item),
          )}
        </div>`;
      },
    );
  }

  /**
   * The height of `items` in em, roughly: what a chunk off screen takes before it ever
   * rendered (then the browser remembers its real size).
   */
  #estimate(items: readonly TimelineItem[]): number {
    let em = 0.75 * (items.length - 1);
    for (const item of items) {
      if (item.kind === 'assistant') {
        em +=
          (item.reasoning === '' ? 0 : 1.6) + Math.max(1, Math.ceil(item.text.length / 90)) * 1.55;
      } else if (item.kind === 'turn') {
        em += item.prompt ? 3 : 1;
      } else {
        const open = this.#expanded.get(item.id) ?? this.expandGroups;
        em += 2.4 + (open ? 0.5 + 2.2 * item.tools.length : 0);
      }
    }
    return Math.round(em * 10) / 10;
  }

  #assistant(node: AssistantNode): TemplateResult {
    return html`<div part="assistant" class="assistant" data-stage=${node.stage}>
      ${
        node.reasoning === ''
          ? nothing
          : html`<details part="reasoning" class="reasoning">
              <summary>${this.#labels.reasoning}</summary>
              <p class="text">${node.reasoning}</p>
            </details>`
      }
      ${node.text === '' ? nothing : html`<p part="text" class="text">${node.text}</p>`}
    </div>`;
  }

  /** The separator where a turn starts, and the user's prompt as a heading (text only). */
  #turn(turn: TurnNode): TemplateResult {
    const custom = this.renderTurn?.(turn);
    if (custom !== undefined) return custom;
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

  #group(group: GroupNode): TemplateResult {
    return html`<tool-group
      part="group"
      exportparts=${groupExportParts}
      .group=${group}
      .expanded=${this.#expanded.get(group.id) ?? this.expandGroups}
      .renderTool=${this.renderTool}
      .categoryOf=${this.categoryOf}
      .labels=${this.labels}
      @tool-group-toggle=${this.#remember}
    ></tool-group>`;
  }

  #remember = (event: ToolGroupToggleEvent): void => {
    this.#expanded.set(event.detail.id, event.detail.expanded);
  };
}

/**
 * Calls `run` with the time left when the browser is idle (`requestIdleCallback`, or a timer
 * where there is none); returns the cancellation.
 */
function whenIdle(run: (timeRemaining: number) => void): () => void {
  if (typeof requestIdleCallback === 'function') {
    const handle = requestIdleCallback((deadline) => run(deadline.timeRemaining()), {
      timeout: 1000,
    });
    return () => cancelIdleCallback(handle);
  }
  const handle = setTimeout(() => run(10), 32);
  return () => clearTimeout(handle);
}
