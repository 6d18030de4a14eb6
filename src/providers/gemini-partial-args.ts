/**
 * Vertex AI's streamed function-call arguments (`functionCall.partialArgs`) written as
 * argument JSON text, piece by piece, in the order the values arrive.
 */

import { TextBuffer } from '../internal/text-buffer.js';
import {
  type Container,
  canAdd,
  childOf,
  entryValue,
  escapeString,
  isContainer,
  isIndex,
  preview,
  setChild,
  type Value,
} from './gemini-arg-values.js';
import { parsePath, type Segment } from './gemini-json-path.js';
import { OpenContainers } from './gemini-open-containers.js';

/** The fragment of an entry that shows nothing (yet). */
const nothing = '';

/** A string streamed in order and closed: its text is `emitted.slice(start, end)`, escaped. */
interface StreamedString {
  readonly parent: Container;
  readonly key: Segment;
  readonly start: number;
  readonly end: number;
}

/**
 * Turns one call's `partialArgs` entries (`{ jsonPath, stringValue | numberValue | boolValue |
 * nullValue, willContinue }`) into its argument JSON text, streamed:
 *
 * 1. Values are written in the order they arrive, each under its path (`$.a`, `$.a.b[0]`,
 *    `$['a b']`): containers are opened on the way down and closed when a later path leaves
 *    them, so a long string value is visible key by key while it streams, and the fragments
 *    joined are always a prefix of the final text.
 * 2. A `stringValue` with `willContinue: true` leaves its string open: the next entries with
 *    the same path append to it (escaped as JSON), and the first without `willContinue` closes
 *    it. `close()` closes whatever is still open, so the fragments joined are the whole text.
 * 3. The values are also kept as a tree (null-prototype objects, so keys such as `__proto__`
 *    are plain keys), and `text()` is the tree as JSON. While the entries arrive in order it
 *    is the fragments joined (as JSON: a surrogate pair split across two pieces stays
 *    escaped in the fragments). An entry that goes back into a container already closed, or
 *    to a key or index already written, cannot be streamed: the writer is then `diverged`
 *    and shows nothing more; the tree still takes the value (a later string piece appends to
 *    its string, any other value replaces it), and `text()` is the arguments to use.
 * 4. Bounded and total: a path deeper than `MAX_PATH_DEPTH` segments or longer than
 *    `MAX_PATH_LENGTH`, a malformed path, an index past the end of its array (no holes: an
 *    absurd index allocates nothing), a path through a value of another kind, or an entry
 *    with no usable value is skipped: `write` returns undefined and `problem` says why.
 *    Nothing is thrown.
 * 5. A string streamed in order is not kept twice: its pieces are in the fragments already
 *    (escaped), so the writer keeps only where its text lies in them, and reads it back
 *    (`emitted`, the fragments joined) when a value is needed: when the writer diverges, or
 *    for `text()`. Keeping the pieces, or a concatenation of them, made every piece outlive
 *    the young generation: a 512 KiB argument cost about as much again in scavenges.
 */
export class PartialArgsWriter {
  readonly #root: Record<string, unknown> = Object.create(null);
  /** The open containers of the streamed text; none before the first value. */
  readonly #open = new OpenContainers();
  /** The fragments returned so far, joined (rule 5); undefined if they cannot be read. */
  readonly #emitted: () => string | undefined;
  /** The fragments, when the writer keeps them itself (no `emitted` given). */
  readonly #own: TextBuffer | undefined;
  /** The length of the fragments returned so far. */
  #length = 0;
  /** The path of the string left open, as sent (the hot path compares it as is). */
  #openPath: string | undefined;
  /** Where the open string's value goes in the tree. */
  #openParent: Container | undefined;
  #openKey: Segment = '';
  /** Where its text starts in the fragments (streamed in order). */
  #openStart = 0;
  /** Its text so far, once the writer diverged (nothing is streamed then). */
  #openValue = '';
  /** Strings streamed and closed whose text the tree does not hold yet (rule 5). */
  #streamed: StreamedString[] = [];
  #diverged = false;

  /**
   * `emitted` reads the fragments returned so far, joined, when a streamed string's value is
   * needed: the caller's own copy of them (the attempt's argument text). Without it, the
   * writer keeps a copy.
   */
  constructor(emitted?: () => string | undefined) {
    if (emitted !== undefined) {
      this.#emitted = emitted;
      return;
    }
    const own = new TextBuffer();
    this.#own = own;
    this.#emitted = () => own.text();
  }

  /** Whether some entry could not be streamed in order (see rule 3). */
  get diverged(): boolean {
    return this.#diverged;
  }

  /** Why the last entry `write` skipped was skipped (for `onMalformed`). */
  problem = '';

  /**
   * Writes one entry; returns the fragment to append (empty: nothing to show), or undefined
   * when the entry was skipped (`problem` says why).
   */
  write(entry: unknown): string | undefined {
    if (typeof entry !== 'object' || entry === null) return this.#skip('entry is not an object');
    const { jsonPath, stringValue } = entry as Record<string, unknown>;
    // The hot path: the next piece of the string left open.
    if (jsonPath === this.#openPath && typeof stringValue === 'string') {
      if (this.#diverged) {
        this.#openValue += stringValue;
        if ((entry as Record<string, unknown>).willContinue !== true) this.#closeString();
        return nothing;
      }
      const escaped = this.#out(escapeString(stringValue));
      if ((entry as Record<string, unknown>).willContinue === true) return escaped;
      this.#closeString();
      return escaped + this.#out('"');
    }
    if (typeof jsonPath !== 'string') return this.#skip('jsonPath is not a string');
    if (jsonPath === '$') return nothing;
    const path = parsePath(jsonPath);
    if (typeof path === 'string') return this.#skip(`${path}: ${preview(jsonPath)}`);
    const value = entryValue(entry as Record<string, unknown>, path.array);
    if (value === 'none') return nothing;
    if (value === undefined) return this.#skip(`no usable value at ${preview(jsonPath)}`);
    const open = (entry as Record<string, unknown>).willContinue === true && value.string;
    return this.#place(jsonPath, path.segments, value, open);
  }

  /** The fragment that closes what is open (see rule 2); empty when nothing was written. */
  close(): string {
    let fragment = '';
    if (this.#openPath !== undefined) fragment += `"${this.#closeString()}`;
    if (this.#diverged) return '';
    return this.#out(fragment + this.#open.close());
  }

  /** The arguments as JSON text (`{}` when no value was written). */
  text(): string {
    this.#closeString();
    this.#readStreamed();
    return JSON.stringify(this.#root);
  }

  #place(
    raw: string,
    segments: readonly Segment[],
    value: Value,
    open: boolean,
  ): string | undefined {
    // Check the whole path before changing anything, so that a skipped entry changes nothing
    // (the open string stays open): existing containers of the right kinds, then new ones
    // (empty, so only index 0 is new).
    const last = segments.length - 1;
    let container: Container = this.#root;
    let depth = 0;
    for (; depth < last; depth++) {
      const child = childOf(container, segments[depth] as Segment);
      if (child === undefined) break;
      if (!isContainer(child) || Array.isArray(child) !== isIndex(segments[depth + 1])) {
        return this.#skip(`path goes through a value of another kind: ${preview(raw)}`);
      }
      container = child;
    }
    const existing = depth === last ? childOf(container, segments[last] as Segment) : undefined;
    if (existing === undefined) {
      if (!canAdd(container, segments[depth] as Segment)) {
        return this.#skip(`index past the end of its array: ${preview(raw)}`);
      }
      for (let i = depth + 1; i <= last; i++) {
        if (typeof segments[i] === 'number' && segments[i] !== 0) {
          return this.#skip(`index past the end of its array: ${preview(raw)}`);
        }
      }
    }
    let fragment = this.#openPath === undefined ? '' : `"${this.#closeString()}`;
    if (existing !== undefined && value.container) {
      // An empty container where one is already: nothing to add.
      return this.#diverged ? nothing : this.#out(fragment);
    }
    for (let i = depth; i < last; i++) {
      const child: Container = isIndex(segments[i + 1]) ? [] : Object.create(null);
      setChild(container, segments[i] as Segment, child);
      container = child;
    }
    const leaf = segments[last] as Segment;
    if (existing !== undefined) {
      // A value already written cannot be streamed again (rule 3): a string piece appends.
      this.#diverge();
      const current = childOf(container, leaf); // A streamed string's text, read back.
      const joined =
        typeof current === 'string' && value.string
          ? current + (value.value as string)
          : value.value;
      setChild(container, leaf, joined);
      if (open) this.#openString(raw, container, leaf, joined as string);
      return nothing;
    }
    setChild(container, leaf, value.value);
    if (open) this.#openString(raw, container, leaf, value.value as string);
    if (this.#diverged) return nothing;
    const streamed = this.#open.to(this.#root, segments);
    if (streamed === undefined) {
      this.#diverge();
      return nothing;
    }
    fragment += streamed;
    if (value.container) {
      // An empty container stays open: later paths into it continue inside it.
      return this.#out(fragment + this.#open.enter(leaf, value.value as Container));
    }
    if (!open) return this.#out(fragment + value.json);
    fragment = this.#out(fragment + value.json.slice(0, -1));
    // The string's text starts after its opening quote.
    this.#openStart = this.#length - (value.json.length - 2);
    return fragment;
  }

  /** Counts (and, without `emitted`, keeps) a fragment the writer returns. */
  #out(fragment: string): string {
    this.#length += fragment.length;
    this.#own?.push(fragment);
    return fragment;
  }

  #skip(problem: string): undefined {
    this.problem = problem;
    return undefined;
  }

  #openString(raw: string, parent: Container, key: Segment, value: string): void {
    this.#openPath = raw;
    this.#openParent = parent;
    this.#openKey = key;
    this.#openValue = value;
  }

  #diverge(): void {
    this.#diverged = true;
    this.#open.clear();
    this.#readStreamed();
  }

  /**
   * Closes the open string: stores its text in the tree (diverged), or where it lies in the
   * fragments (rule 5). Returns ''.
   */
  #closeString(): string {
    const parent = this.#openParent;
    if (this.#openPath !== undefined && parent !== undefined) {
      if (this.#diverged) setChild(parent, this.#openKey, this.#openValue);
      else {
        this.#streamed.push({
          parent,
          key: this.#openKey,
          start: this.#openStart,
          end: this.#length,
        });
      }
    }
    this.#openPath = undefined;
    this.#openParent = undefined;
    this.#openValue = '';
    return '';
  }

  /**
   * Puts the streamed strings' text in the tree, read back from the fragments. If they cannot
   * be read (the caller did not keep them), a string keeps its first piece.
   */
  #readStreamed(): void {
    const streamed = this.#streamed;
    if (streamed.length === 0) return;
    this.#streamed = [];
    const emitted = this.#emitted();
    for (const { parent, key, start, end } of streamed) {
      const text = unescapeString(emitted, start, end);
      if (text !== undefined) setChild(parent, key, text);
    }
  }
}

/** The JSON string text `emitted.slice(start, end)` decoded; undefined if it is not one. */
function unescapeString(
  emitted: string | undefined,
  start: number,
  end: number,
): string | undefined {
  if (emitted === undefined || end > emitted.length) return undefined;
  try {
    const text: unknown = JSON.parse(`"${emitted.slice(start, end)}"`);
    return typeof text === 'string' ? text : undefined;
  } catch {
    return undefined;
  }
}
