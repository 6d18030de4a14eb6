import type { StreamedBlock } from '../direct/direct-events.js';
import type { TextDeltaEvent, ToolCallDeltaEvent } from '../events/types.js';
import type { TextBuffer } from '../internal/text-buffer.js';
import type { CallShape } from './session.js';

/**
 * A shown tool call's block as an `Attempt` streams it (`StreamedBlock`): its deltas carry
 * the call's fixed fields, fixed when its first delta was emitted, and `parts` is the
 * block's text, which the Attempt keeps for the call's full text.
 */
export class ToolBlockStream implements StreamedBlock {
  held = false;
  readonly #parts: TextBuffer;
  readonly #attemptId: string;
  readonly #block: number;
  readonly #callId: string;
  /** The call's optional fields; undefined when it has none. */
  readonly #shape: CallShape | undefined;

  constructor(
    parts: TextBuffer,
    attemptId: string,
    block: number,
    callId: string,
    shape: CallShape | undefined,
  ) {
    this.#parts = parts;
    this.#attemptId = attemptId;
    this.#block = block;
    this.#callId = callId;
    this.#shape = shape;
  }

  delta(args: string): ToolCallDeltaEvent {
    const shape = this.#shape;
    return shape === undefined
      ? {
          type: 'stream/tool-call-delta',
          attemptId: this.#attemptId,
          block: this.#block,
          callId: this.#callId,
          args,
        }
      : {
          type: 'stream/tool-call-delta',
          attemptId: this.#attemptId,
          block: this.#block,
          callId: this.#callId,
          args,
          ...shape,
        };
  }

  cut(): string {
    return this.#parts.cut();
  }

  pieces(): readonly string[] {
    return this.#parts.pieces();
  }
}

/** A text or reasoning block as an `Attempt` streams it: see `ToolBlockStream`. */
export class TextBlockStream implements StreamedBlock {
  held = false;
  readonly #parts: TextBuffer;
  readonly #attemptId: string;
  readonly #block: number;
  readonly #reasoning: boolean;

  constructor(parts: TextBuffer, attemptId: string, block: number, reasoning: boolean) {
    this.#parts = parts;
    this.#attemptId = attemptId;
    this.#block = block;
    this.#reasoning = reasoning;
  }

  delta(text: string): TextDeltaEvent {
    return this.#reasoning
      ? {
          type: 'stream/text-delta',
          attemptId: this.#attemptId,
          block: this.#block,
          text,
          reasoning: true,
        }
      : { type: 'stream/text-delta', attemptId: this.#attemptId, block: this.#block, text };
  }

  cut(): string {
    return this.#parts.cut();
  }

  pieces(): readonly string[] {
    return this.#parts.pieces();
  }
}
