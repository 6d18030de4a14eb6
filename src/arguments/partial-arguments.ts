import { cutPrefix } from '../internal/cut-prefix.js';
import { Answers } from './answers.js';
import { ArgumentIndex } from './argument-index.js';
import { decodedFrom, type TailCursor } from './decode-from.js';
import type { ArgumentKind } from './field.js';
import { answerFromIndex, answerFromPayload, type Query } from './query.js';
import { ArgumentSource } from './source.js';

export type { ArgumentKind } from './field.js';

/**
 * A lazy, tool-independent reader over the JSON argument text of one tool call, which may
 * still be arriving in fragments.
 *
 * Invariants:
 * 1. `append()` only retains the fragment. Nothing is scanned until something is read; a
 *    read indexes only the top-level boundaries not indexed yet (fragments received since the
 *    last read are joined into one chunk first; a cumulative string is never rebuilt).
 * 2. Values nobody asks for are never decoded, counted or parsed. A string without escapes
 *    answers `stringLength` from offsets alone (without validating its characters); with
 *    escapes, a cursor advances over new text only when a length, text or prefix is asked
 *    for, and a prefix query stops once it has its answer. Once a string's length has been
 *    read, the boundary scanner carries that length cursor along as it indexes new text (a
 *    recorded length is read again at every refresh anyway), so a length read after every
 *    fragment walks each character once, not twice. A complete value is decoded natively
 *    (JSON.parse of its range) the first time it is asked for, then kept.
 * 3. For any valid object text cut into any fragments, every complete value equals
 *    `JSON.parse` of the whole text (repeated keys: the last wins; `__proto__` is an ordinary
 *    key), and every open string's text is a prefix of its final value: never part of an
 *    escape, never a high surrogate whose low half has not arrived.
 * 4. Change detection: each read records its answer per query (method, key, options). A
 *    query's first read sets its baseline; later reads never move it; `refresh()` compares
 *    every recorded query's current answer with its baseline and moves the baselines. So one
 *    consumer's read cannot swallow another's change, and the granularity is the reader's:
 *    `stringLength(k, { step: 1024 })` changes once per 1024 units, `text(k)` per character.
 * 5. `complete()` reports a closing delimiter, not valid content. `invalid` holds the first
 *    error found so far, by indexing or by a read; it is non-null, once every key has been
 *    read, exactly when `JSON.parse` of the whole text would throw. A content error in one
 *    value (`[1,]`, a raw control character, a bad escape) does not stop later keys from
 *    being indexed; an error in the object's own syntax (a text not starting with `{`, a
 *    missing `:` or `,`, a trailing comma, text after the closing brace) stops indexing.
 *    Reads never throw; a value with a content error reads as undefined.
 * 6. All caches live in private fields, so two views compare equal structurally whatever
 *    has been read.
 */
export class PartialArguments {
  #index: ArgumentIndex | null;
  #payload: object | null;
  #answers: Answers | null = null;
  /** `textFrom` cursors, each where its last answer ended. */
  #tails: Map<string, TailCursor> | null = null;

  private constructor(index: ArgumentIndex | null, payload: object | null) {
    this.#index = index;
    this.#payload = payload;
  }

  /** An open view that grows by `append`. */
  static streaming(): PartialArguments {
    return new PartialArguments(new ArgumentIndex(new ArgumentSource(), false), null);
  }

  /** A sealed view over authoritative complete text. Its answers never change. */
  static fromText(text: string): PartialArguments {
    return new PartialArguments(new ArgumentIndex(ArgumentSource.of(text), true), null);
  }

  /**
   * A sealed view that borrows an already parsed payload (programmatic calls): `value()`
   * returns the payload's own values, not copies. Only own properties are fields.
   */
  static fromObject(payload: object): PartialArguments {
    return new PartialArguments(null, payload);
  }

  /** The shared sealed view with no fields. */
  static readonly empty: PartialArguments = PartialArguments.fromObject(Object.freeze({}));

  /** Retains one fragment; scans nothing. Throws on a sealed view. */
  append(fragment: string): void {
    const index = this.#index;
    if (!index || index.sealed) throw new Error('PartialArguments: append() on a sealed view');
    index.source.append(fragment);
  }

  /**
   * Seals the view with the authoritative full text. When the fragments received equal
   * `fullText` exactly (length, then fragment by fragment), returns this same reader, sealed,
   * keeping its index and caches; otherwise a new `fromText(fullText)` view.
   */
  seal(fullText: string): PartialArguments {
    const index = this.#index;
    if (!index?.source.matches(fullText)) return PartialArguments.fromText(fullText);
    index.seal(fullText);
    return this;
  }

  /**
   * Seals the view with `fullText` that is, by its producer's construction, the fragments
   * received joined: `assemble()`'s direct path vouches so for the block ends an adapter
   * builds from the fragments it streamed (docs/decisions/0010-one-copy-of-streamed-text.md).
   * Only the lengths are compared (a mismatch falls back to `seal`); the fragments stay the
   * reader's text, so `fullText` is never read, nor flattened into a copy, and a later `seal`
   * with this same string is recognized without comparing.
   */
  sealJoined(fullText: string): PartialArguments {
    const index = this.#index;
    if (!index || index.sealed || index.source.received !== fullText.length) {
      return this.seal(fullText);
    }
    index.sealJoined(fullText);
    return this;
  }

  /**
   * Lets this reader stand in for `next`, a view of the same call rebuilt from a replay (after
   * a reconnection or a withdrawn stream): when this reader's text is a prefix of `next`'s,
   * appends the rest, seals this reader when `next` is sealed, and returns true, keeping its
   * index and the answers already read. Otherwise returns false and changes nothing.
   */
  absorb(next: PartialArguments): boolean {
    const mine = this.#index;
    const theirs = next.#index;
    if (!mine || !theirs) return false;
    if (mine === theirs) return true;
    theirs.source.join();
    const text = theirs.source.slice(0, theirs.source.joined);
    if (!mine.source.isPrefixOf(text)) return false;
    if (mine.sealed) return text.length === mine.source.received && theirs.sealed;
    this.append(text.slice(mine.source.received));
    if (theirs.sealed) this.seal(text);
    return true;
  }

  /**
   * Did any answer read since the last refresh change? Compares every recorded answer with
   * its baseline and moves the baselines. With nothing read it does nothing and scans nothing.
   */
  refresh(): boolean {
    const answers = this.#answers;
    const index = this.#index;
    if (!answers || !index) return false;
    const changed = answers.refresh(index);
    // Once sealed and fully indexed no answer can change again.
    if (index.final) this.#answers = null;
    return changed;
  }

  /** The key has been seen and its value has started. */
  has(key: string): boolean {
    return this.#read('has', key, 0) as boolean;
  }

  /** The JSON type of the key's value, from its first character. */
  kind(key: string): ArgumentKind | undefined {
    return this.#read('kind', key, 0) as ArgumentKind | undefined;
  }

  /** With a key: that value's closing delimiter has arrived. Without: the object's has. */
  complete(key?: string): boolean {
    return (
      key === undefined ? this.#read('objectComplete', '', 0) : this.#read('complete', key, 0)
    ) as boolean;
  }

  /** The view can no longer grow: sealed, the object complete, or indexing stopped by an error. */
  closed(): boolean {
    return this.#read('closed', '', 0) as boolean;
  }

  /** The first error found so far by indexing or by a content read; reading it scans nothing. */
  get invalid(): Error | null {
    return this.#index?.invalid ?? null;
  }

  /** The decoded string so far (undefined when the value is not a string). */
  text(key: string): string | undefined {
    return this.#read('text', key, 0) as string | undefined;
  }

  /** The decoded string so far, at most `units` UTF-16 code units of it. */
  textPrefix(key: string, units: number): string | undefined {
    // Infinity asks for the whole text so far; NaN and negative limits ask for nothing.
    const limit =
      units === Number.POSITIVE_INFINITY
        ? Number.MAX_SAFE_INTEGER
        : Number.isFinite(units)
          ? Math.min(Math.max(0, Math.floor(units)), Number.MAX_SAFE_INTEGER)
          : 0;
    return this.#read('prefix', key, limit) as string | undefined;
  }

  /**
   * Decoded length in UTF-16 code units. While the string is open and `step` (a positive
   * integer) is given, rounded down to a multiple of `step`; exact once complete.
   */
  stringLength(key: string, opts?: { step?: number }): number | undefined {
    const step = opts?.step;
    const arg = step !== undefined && Number.isInteger(step) && step > 1 ? step : 1;
    return this.#read('length', key, arg) as number | undefined;
  }

  /**
   * For incremental scanners: the decoded string from unit `from` on, as far as it has
   * arrived, at most `units` units (undefined when the value is not a string). Reading on
   * from where the previous answer ended decodes only the new text, so a scan that calls it
   * once per publication walks each character once; any other `from` decodes from the
   * string's start. Like `textPrefix`, it never shows part of an escape or a high surrogate
   * whose pair has not arrived (a pair may be split between two answers when `units` cuts
   * it). Not recorded for change detection: pair it with a recorded read (e.g.
   * `stringLength(key, { step })`) that republishes the node when there is more to scan.
   */
  textFrom(key: string, from: number, units: number): string | undefined {
    const start = Number.isFinite(from) ? Math.max(0, Math.floor(from)) : 0;
    const limit = Number.isFinite(units) ? Math.max(0, Math.floor(units)) : 0;
    const index = this.#index;
    if (!index) {
      const payload = this.#payload as Record<string, unknown>;
      const value = Object.hasOwn(payload, key) ? payload[key] : undefined;
      return typeof value === 'string' ? cutPrefix(value.slice(start), limit, false) : undefined;
    }
    index.catchUp();
    const field = index.fields.get(key);
    if (!field) return undefined;
    return decodedFrom(index, field, (this.#tails ??= new Map()), start, limit);
  }

  /** The value with JSON.parse semantics, once `complete(key)`; undefined before. */
  value(key: string): unknown {
    return this.#read('value', key, 0);
  }

  #read(query: Query, key: string, arg: number): unknown {
    const value = this.#answer(query, key, arg);
    const index = this.#index;
    if (index && !index.final) (this.#answers ??= new Answers()).record(query, key, arg, value);
    return value;
  }

  #answer(query: Query, key: string, arg: number): unknown {
    const index = this.#index;
    return index
      ? answerFromIndex(index, query, key, arg)
      : answerFromPayload(this.#payload as object, query, key, arg);
  }
}
