/**
 * Vertex AI's streamed function-call arguments (`functionCall.partialArgs`) written as
 * argument JSON text, piece by piece, in the order the values arrive.
 */

import { jsonStringText } from '../internal/json-string-text.js';
import { type GrowingText, TextBuffer } from '../internal/text-buffer.js';
import {
  type Container,
  canAdd,
  childOf,
  entryValue,
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

/** A string streamed in order and closed: its text is `emitted.text().slice(start, end)`, escaped. */
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
 * 6. `write(entry, true)` returns a piece that continues the open string as it came, decoded,
 *    and sets `decoded`: the caller escapes it as it appends it (`TextBuffer.pushJsonString`
 *    escapes a batch of pieces at once, where escaping each 16-character piece cost the
 *    Gemini adapter about a fifth of its time: docs/decisions/0014-gemini-and-bedrock-streams.md,
 *    rule 3).
 */
export class PartialArgsWriter {
  readonly #root: Record<string, unknown> = Object.create(null);
  /** The open containers of the streamed text; none before the first value. */
  readonly #open = new OpenContainers();
  /** The fragments returned so far, joined, once the caller appended them (rule 5). */
  readonly #emitted: GrowingText;
  /** The fragments, when the writer keeps them itself (no `emitted` given). */
  readonly #own: TextBuffer | undefined;
  /** The length of the fragments this `write` returns, not appended yet. */
  #unpushed = 0;
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
   * `emitted` is the caller's copy of the fragments returned so far, joined (the attempt's
   * argument text), to which it appends each fragment before the next `write`: read when a
   * streamed string's value is needed, and for where a string lies in it. Without it, the
   * writer keeps a copy.
   */
  constructor(emitted?: GrowingText) {
    if (emitted !== undefined) {
      this.#emitted = emitted;
      return;
    }
    const own = new TextBuffer();
    this.#own = own;
    this.#emitted = own;
  }

  /** Whether some entry could not be streamed in order (see rule 3). */
  get diverged(): boolean {
    return this.#diverged;
  }

  /** Why the last entry `write` skipped was skipped (for `onMalformed`). */
  problem = '';

  /** The fragment the last `write` returned is decoded string text (rule 6). */
  decoded = false;

  /**
   * Writes one entry; returns the fragment to append (empty: nothing to show), or undefined
   * when the entry was skipped (`problem` says why). With `decoded`, a piece that continues
   * the open string is returned decoded (rule 6).
   */
  write(entry: unknown, decoded = false): string | undefined {
    this.#unpushed = 0;
    this.decoded = false;
    if (typeof entry !== 'object' || entry === null) return this.#skip('entry is not an object');
    const { jsonPath, stringValue } = entry as Record<string, unknown>;
    // The hot path: the next piece of the string left open.
    if (jsonPath === this.#openPath && typeof stringValue === 'string') {
      if (this.#diverged) {
        this.#openValue += stringValue;
        if ((entry as Record<string, unknown>).willContinue !== true) this.#closeString();
        return nothing;
      }
      if (decoded && (entry as Record<string, unknown>).willContinue === true) {
        this.decoded = true;
        this.#own?.pushJsonString(stringValue);
        return stringValue;
      }
      const escaped = this.#out(jsonStringText(stringValue));
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
    this.#unpushed = 0;
    this.decoded = false;
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
    this.#openStart = this.#position() - (value.json.length - 2);
    return fragment;
  }

  /** Keeps (without `emitted`) or counts a fragment the writer returns. */
  #out(fragment: string): string {
    if (this.#own !== undefined) this.#own.push(fragment);
    else this.#unpushed += fragment.length;
    return fragment;
  }

  /** The length of the fragments returned so far, this `write`'s included. */
  #position(): number {
    return this.#emitted.length + this.#unpushed;
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
          end: this.#position(),
        });
      }
    }
    this.#openPath = undefined;
    this.#openParent = undefined;
    this.#openValue = '';
    return '';
  }

  /**
   * Puts the streamed strings' text in the tree, read back from the fragments. If the text
   * there is not a JSON string (the caller did not append every fragment), a string keeps its
   * first piece.
   */
  #readStreamed(): void {
    const streamed = this.#streamed;
    if (streamed.length === 0) return;
    this.#streamed = [];
    const emitted = this.#emitted.text();
    for (const { parent, key, start, end } of streamed) {
      const text = unescapeString(emitted, start, end);
      if (text !== undefined) setChild(parent, key, text);
    }
  }
}

/** The JSON string text `emitted.slice(start, end)` decoded; undefined if it is not one. */
function unescapeString(emitted: string, start: number, end: number): string | undefined {
  if (end > emitted.length) return undefined;
  try {
    const text: unknown = JSON.parse(`"${emitted.slice(start, end)}"`);
    return typeof text === 'string' ? text : undefined;
  } catch {
    return undefined;
  }
}
