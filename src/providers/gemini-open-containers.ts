/**
 * The containers of a streamed argument text that are still open, for `PartialArgsWriter`.
 */
import { type Container, childOf } from './gemini-arg-values.js';
import type { Segment } from './gemini-json-path.js';

/** An open container of the streamed text: the root object, then one per path segment. */
interface Frame {
  readonly segment: Segment;
  readonly value: Container;
  /** Members written so far: the next one is preceded by a comma. */
  count: number;
}

/**
 * The open containers of the text written so far, root first, and the text that moves from
 * one value's place to the next:
 *
 * 1. `to(root, segments)` closes the open containers the path leaves, opens the new ones on
 *    its way down (each must be new: a container written once and closed cannot be reopened
 *    in streamed text) and writes the leaf's comma and key. It returns undefined when the
 *    path needs a container closed before: the text cannot go on (the writer diverges).
 * 2. `enter(segment, container)` opens an empty container just written at the leaf, so that
 *    later paths into it continue inside it.
 * 3. `close()` closes every open container; `clear()` forgets them (the text diverged).
 */
export class OpenContainers {
  readonly #stack: Frame[] = [];
  /** Containers written to the text so far: a closed one cannot be reopened. */
  readonly #written = new WeakSet<object>();

  to(root: Container, segments: readonly Segment[]): string | undefined {
    const stack = this.#stack;
    let fragment = '';
    if (stack.length === 0) {
      stack.push({ segment: '', value: root, count: 0 });
      fragment = '{';
    }
    // Keep the frames the leaf's container path shares with the open ones.
    let depth = 1;
    const last = segments.length - 1;
    while (
      depth < stack.length &&
      depth - 1 < last &&
      (stack[depth] as Frame).segment === segments[depth - 1]
    ) {
      depth++;
    }
    for (let i = stack.length - 1; i >= depth; i--) fragment += closing(stack[i] as Frame);
    stack.length = depth;
    let parent = stack[depth - 1] as Frame;
    for (let i = depth - 1; i < last; i++) {
      const segment = segments[i] as Segment;
      const child = childOf(parent.value, segment) as Container;
      if (this.#written.has(child)) return undefined;
      this.#written.add(child);
      fragment += member(parent, segment);
      fragment += Array.isArray(child) ? '[' : '{';
      parent = { segment, value: child, count: 0 };
      stack.push(parent);
    }
    return fragment + member(parent, segments[last] as Segment);
  }

  enter(segment: Segment, container: Container): string {
    this.#written.add(container);
    this.#stack.push({ segment, value: container, count: 0 });
    return Array.isArray(container) ? '[' : '{';
  }

  close(): string {
    let fragment = '';
    for (let i = this.#stack.length - 1; i >= 0; i--) fragment += closing(this.#stack[i] as Frame);
    this.#stack.length = 0;
    return fragment;
  }

  clear(): void {
    this.#stack.length = 0;
  }
}

function closing(frame: Frame): string {
  return Array.isArray(frame.value) ? ']' : '}';
}

function member(frame: Frame, segment: Segment): string {
  const comma = frame.count > 0 ? ',' : '';
  frame.count++;
  return typeof segment === 'number' ? comma : `${comma}${JSON.stringify(segment)}:`;
}
