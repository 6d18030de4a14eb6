import { DEV_MODE } from '../internal/dev-mode.js';
import { argumentProbe } from './probe.js';

/**
 * The argument text of one call, kept as the fragments it arrived in.
 *
 * Appending only retains a fragment. The fragments received since the last read are joined
 * into one chunk when a reader next looks at the text, so a view read once per publication
 * holds a few large chunks instead of thousands of small strings; a cumulative string is
 * never built. Offsets are global: chunk `i` covers `[starts[i], starts[i] + chunks[i].length)`.
 */
export class ArgumentSource {
  private chunks: string[] = [];
  private starts: number[] = [];
  private pending: string[] = [];
  /** Length of the joined chunks; pending fragments are not counted until joined. */
  joined = 0;
  /** Length of everything received, joined or pending. */
  received = 0;
  /** Changes when `adopt` replaces the chunks, so caches keyed by chunk offset can tell. */
  generation = 0;
  /** A string known to equal the text received (`joinedAs`), compared by identity first. */
  private joinedText: string | undefined;

  static of(text: string): ArgumentSource {
    const source = new ArgumentSource();
    source.append(text);
    source.join();
    return source;
  }

  append(fragment: string): void {
    if (fragment.length === 0) return;
    this.pending.push(fragment);
    this.received += fragment.length;
  }

  /**
   * Makes the pending fragments chunks; returns whether any text was added. Consecutive
   * fragments shorter than `LONG` are joined into one chunk; a longer one is a chunk as it
   * is, not copied (`assemble()`'s direct path appends a block's text as the batches its
   * adapter flattened once: copying them again into one string cost more than the scan,
   * docs/decisions/0011-sdk-stream-costs.md).
   */
  join(): boolean {
    const { pending } = this;
    if (pending.length === 0) return false;
    this.pending = [];
    let from = 0;
    for (let i = 0; i < pending.length; i++) {
      const fragment = pending[i] as string;
      if (fragment.length < LONG) continue;
      if (from < i) this.#add(joined(pending, from, i));
      this.#add(fragment);
      from = i + 1;
    }
    if (from < pending.length) this.#add(joined(pending, from, pending.length));
    return true;
  }

  #add(chunk: string): void {
    this.chunks.push(chunk);
    this.starts.push(this.joined);
    this.joined += chunk.length;
  }

  /** True when the received text equals `text` exactly, fragment by fragment (no hashing). */
  matches(text: string): boolean {
    return text.length === this.received && this.isPrefixOf(text);
  }

  /** Records that `text` is the text received, joined (see `matches`); the chunks stay. */
  joinedAs(text: string): void {
    this.joinedText = text;
  }

  /** True when the received text is a prefix of `text`, compared fragment by fragment. */
  isPrefixOf(text: string): boolean {
    if (text.length < this.received) return false;
    // The string known to be this text (a block end the direct path vouched for; the call's
    // record and a replay's view then carry that same string, which `===` recognizes without
    // reading it, where a comparison by slices would flatten it into a copy first).
    if (this.joinedText !== undefined && text === this.joinedText) return true;
    let offset = 0;
    for (const part of this.chunks) {
      if (!sameAt(text, offset, part)) return false;
      offset += part.length;
    }
    for (const part of this.pending) {
      if (!sameAt(text, offset, part)) return false;
      offset += part.length;
    }
    return true;
  }

  /** Replaces all fragments by `text`, which must match them; offsets stay valid. */
  adopt(text: string): void {
    this.joinedText = undefined;
    this.chunks = text.length > 0 ? [text] : [];
    this.starts = text.length > 0 ? [0] : [];
    this.pending = [];
    this.joined = text.length;
    this.received = text.length;
    this.generation++;
  }

  /** Index of the chunk holding global offset `at` (which must be < joined). */
  chunkAt(at: number): number {
    const { starts } = this;
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >>> 1;
      if ((starts[mid] as number) <= at) low = mid;
      else high = mid - 1;
    }
    return low;
  }

  chunk(index: number): string {
    return this.chunks[index] as string;
  }

  start(index: number): number {
    return this.starts[index] as number;
  }

  get chunkCount(): number {
    return this.chunks.length;
  }

  /** UTF-16 code unit at global offset `at`, or -1 past the joined text. */
  codeAt(at: number): number {
    if (at < 0 || at >= this.joined) return -1;
    const index = this.chunkAt(at);
    return this.chunk(index).charCodeAt(at - this.start(index));
  }

  /** The joined text in `[from, to)`. */
  slice(from: number, to: number): string {
    if (to <= from) return '';
    let index = this.chunkAt(from);
    let base = this.start(index);
    let chunk = this.chunk(index);
    if (to <= base + chunk.length) return chunk.slice(from - base, to - base);
    const parts: string[] = [chunk.slice(from - base)];
    for (;;) {
      index++;
      base = this.start(index);
      chunk = this.chunk(index);
      if (to <= base + chunk.length) {
        parts.push(chunk.slice(0, to - base));
        return parts.join('');
      }
      parts.push(chunk);
    }
  }

  /** Global offset of the first `needle` in `[from, to)`, or -1. */
  indexOf(needle: string, from: number, to: number): number {
    if (from >= to) return -1;
    for (let index = this.chunkAt(from); index < this.chunks.length; index++) {
      const base = this.start(index);
      if (base >= to) return -1;
      const found = this.chunk(index).indexOf(needle, Math.max(0, from - base));
      if (found !== -1) return base + found < to ? base + found : -1;
    }
    return -1;
  }
}

/** A fragment at least this long becomes a chunk of its own in `ArgumentSource.join`. */
const LONG = 256;

/** `parts[from..to)` joined: the part itself when there is one, else a new string. */
function joined(parts: readonly string[], from: number, to: number): string {
  if (to - from === 1) return parts[from] as string;
  if (DEV_MODE) argumentProbe.joined += to - from;
  return (from === 0 && to === parts.length ? parts : parts.slice(from, to)).join('');
}

/**
 * `text` holds `part` at `offset`. Compares a slice rather than calling `startsWith`, which
 * Node 20's V8 runs about 30× slower on long texts (2.1 ms against 0.07 ms for 512 KiB).
 */
function sameAt(text: string, offset: number, part: string): boolean {
  if (DEV_MODE) argumentProbe.compared += part.length;
  return text.slice(offset, offset + part.length) === part;
}
