import type { AGUIEvent, CallfoldMetadata } from './ag-ui-event.js';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * One message or call being written as AG-UI events: its start once it can start (a call
 * once it has a name; argument text before that is held), one content event per non-empty
 * fragment, its end once.
 */
export class AGUIBlock {
  readonly kind: 'text' | 'reasoning' | 'tool';
  /** The AG-UI messageId, or the toolCallId. */
  readonly id: string;
  /** A call's `parentMessageId`. */
  readonly parent: string;
  readonly meta: CallfoldMetadata;
  name: string | undefined;
  #started = false;
  #ended = false;
  #held = '';
  /** UTF-16 units written as content so far. */
  #length = 0;

  constructor(
    kind: 'text' | 'reasoning' | 'tool',
    id: string,
    parent: string,
    meta: CallfoldMetadata,
    name?: string,
  ) {
    this.kind = kind;
    this.id = id;
    this.parent = parent;
    this.meta = meta;
    this.name = name;
  }

  /** A call's block, its shape (`executor`, `input`, `providerCallId`) in `metadata.callfold`. */
  static call(
    id: string,
    name: string | undefined,
    parent: string,
    shape: { executor?: 'provider'; input?: 'text'; providerCallId?: string },
    attemptId?: string,
  ): AGUIBlock {
    const meta: Mutable<CallfoldMetadata> = attemptId === undefined ? {} : { attemptId };
    if (shape.executor !== undefined) meta.executor = shape.executor;
    if (shape.input !== undefined) meta.input = shape.input;
    if (shape.providerCallId !== undefined) meta.providerCallId = shape.providerCallId;
    return new AGUIBlock('tool', id, parent, meta, name);
  }

  get started(): boolean {
    return this.#started;
  }

  get length(): number {
    return this.#length;
  }

  /** A fragment of the block: its start first (a call's once named), then the content. */
  write(out: AGUIEvent[], fragment: string): void {
    if (this.#ended) return;
    if (!this.#started) {
      if (this.kind === 'tool' && this.name === undefined) {
        this.#held += fragment;
        return;
      }
      this.#start(out);
      fragment = this.#held + fragment;
      this.#held = '';
    }
    if (fragment === '') return;
    this.#length += fragment.length;
    const { id } = this;
    if (this.kind === 'tool') out.push({ type: 'TOOL_CALL_ARGS', toolCallId: id, delta: fragment });
    else if (this.kind === 'text') {
      out.push({ type: 'TEXT_MESSAGE_CONTENT', messageId: id, delta: fragment });
    } else out.push({ type: 'REASONING_MESSAGE_CONTENT', messageId: id, delta: fragment });
  }

  /**
   * The block's end, once it started; `text`, for a call, is its authoritative text, sent in
   * `metadata.callfold.text` when it is not the fragments written (compared by length: the
   * fragments are not kept).
   */
  end(out: AGUIEvent[], text?: string): void {
    if (this.#ended || !this.#started) return;
    this.#ended = true;
    const { id } = this;
    if (this.kind === 'tool') {
      const exact = text === undefined || text.length === this.#length;
      out.push(
        exact
          ? { type: 'TOOL_CALL_END', toolCallId: id }
          : { type: 'TOOL_CALL_END', toolCallId: id, metadata: { callfold: { text } } },
      );
    } else {
      const type = this.kind === 'text' ? 'TEXT_MESSAGE_END' : 'REASONING_MESSAGE_END';
      out.push({ type, messageId: id });
    }
  }

  /** The whole block at once: start, one content event, end. */
  whole(out: AGUIEvent[], text: string): void {
    this.write(out, text);
    this.end(out, text);
  }

  #start(out: AGUIEvent[]): void {
    this.#started = true;
    const metadata = { callfold: this.meta };
    const { id } = this;
    if (this.kind === 'tool') {
      const toolCallName = this.name as string;
      out.push({
        type: 'TOOL_CALL_START',
        toolCallId: id,
        toolCallName,
        parentMessageId: this.parent,
        metadata,
      });
    } else if (this.kind === 'text') {
      out.push({ type: 'TEXT_MESSAGE_START', messageId: id, role: 'assistant', metadata });
    } else {
      out.push({ type: 'REASONING_MESSAGE_START', messageId: id, role: 'reasoning', metadata });
    }
  }
}
