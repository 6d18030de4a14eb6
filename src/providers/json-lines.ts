import { DONE, type ItemDecoder, type ItemDecoderFactory } from './provider-source.js';
import { ProviderStreamError } from './provider-stream-error.js';

/** The default longest line, in UTF-16 code units: 16 Mi (a tool result with an image fits). */
export const MAX_LINE_LENGTH = 16 * 1024 * 1024;

/**
 * An `ItemDecoder` for newline-delimited JSON (`claude -p --output-format stream-json`,
 * `codex exec --json`, a session transcript `.jsonl`):
 *
 * 1. Bytes (`Uint8Array`) are a stream cut anywhere, inside a UTF-8 sequence included: lines
 *    are joined across items and end at `\n` (a `\r` before it is dropped); the last line
 *    needs no newline.
 * 2. A string item is one or more whole lines (what `readline` and the agent SDKs yield),
 *    split at `\n`; a string source is the whole text.
 * 3. Anything else is a chunk object, handed on as it is.
 * 4. A blank line is skipped. A line that is not JSON, and a line longer than
 *    `maxLineLength` code units, is skipped and reported to `onMalformed`; a long line is
 *    never held past that length (the rest of it is dropped as it arrives). The bytes'
 *    last line, cut by the end of the source, is dropped silently when it is not JSON.
 * 5. A byte-order mark before the first line is dropped.
 * 6. When the source is exhausted, `DONE` is handed on after the last line: a transcript
 *    read as history ends there (a live stream ending there was cut, and its folder says so).
 */
export class JsonLineDecoder implements ItemDecoder {
  readonly #provider: string;
  readonly #onChunk: (chunk: unknown) => void;
  readonly #onMalformed: (error: ProviderStreamError) => void;
  readonly #maxLineLength: number;
  #text: TextDecoder | undefined;
  /** The start of the line the bytes are inside of, in pieces. */
  #pending: string[] = [];
  #pendingLength = 0;
  /** The current line passed `maxLineLength`: the rest of it is dropped. */
  #skipping = false;
  #first = true;

  constructor(
    provider: string,
    onChunk: (chunk: unknown) => void,
    onMalformed: (error: ProviderStreamError) => void,
    maxLineLength = MAX_LINE_LENGTH,
  ) {
    this.#provider = provider;
    this.#onChunk = onChunk;
    this.#onMalformed = onMalformed;
    this.#maxLineLength = maxLineLength;
  }

  /** The factory `adapt()` takes, with a line bound. */
  static factory(maxLineLength = MAX_LINE_LENGTH): ItemDecoderFactory {
    return (provider, onChunk, onMalformed) =>
      new JsonLineDecoder(provider, onChunk, onMalformed, maxLineLength);
  }

  item(item: unknown): void {
    if (item instanceof Uint8Array || ArrayBuffer.isView(item)) {
      this.#text ??= new TextDecoder('utf-8');
      this.#bytes(this.#text.decode(item as Uint8Array, { stream: true }));
    } else if (typeof item === 'string') {
      let start = 0;
      for (let end = item.indexOf('\n'); end !== -1; end = item.indexOf('\n', start)) {
        this.#line(item.slice(start, end));
        start = end + 1;
      }
      this.#line(item.slice(start));
    } else {
      this.#onChunk(item);
    }
  }

  end(): void {
    if (this.#text) this.#bytes(this.#text.decode());
    // A last line without its newline is read; if it is not JSON the source was cut inside
    // it (a cut stream, not a malformed one), and it is dropped.
    if (this.#pendingLength > 0 && !this.#skipping) this.#line(this.#takePending(''), true);
    this.#pending = [];
    this.#pendingLength = 0;
    this.#skipping = false;
    this.#onChunk(DONE);
  }

  #bytes(text: string): void {
    let start = 0;
    for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
      const piece = text.slice(start, end);
      start = end + 1;
      if (this.#skipping) {
        this.#skipping = false;
        continue;
      }
      if (this.#pendingLength + piece.length > this.#maxLineLength) {
        this.#tooLong();
        this.#skipping = false;
        continue;
      }
      this.#line(this.#takePending(piece));
    }
    const rest = text.slice(start);
    if (this.#skipping || rest === '') return;
    if (this.#pendingLength + rest.length > this.#maxLineLength) {
      this.#tooLong();
      return;
    }
    this.#pending.push(rest);
    this.#pendingLength += rest.length;
  }

  #takePending(last: string): string {
    if (this.#pending.length === 0) return last;
    this.#pending.push(last);
    const line = this.#pending.join('');
    this.#pending = [];
    this.#pendingLength = 0;
    return line;
  }

  #tooLong(): void {
    this.#pending = [];
    this.#pendingLength = 0;
    this.#skipping = true;
    this.#onMalformed(
      new ProviderStreamError(
        this.#provider,
        `line longer than ${this.#maxLineLength} characters (maxLineLength)`,
      ),
    );
  }

  /** `tail`: the line the source ended inside of; one that is not JSON was cut, and is dropped. */
  #line(raw: string, tail = false): void {
    let line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (this.#first && line.length > 0) {
      this.#first = false;
      if (line.charCodeAt(0) === 0xfeff) line = line.slice(1);
    }
    if (line.trim() === '') return;
    if (line.length > this.#maxLineLength) {
      this.#onMalformed(
        new ProviderStreamError(
          this.#provider,
          `line longer than ${this.#maxLineLength} characters (maxLineLength)`,
        ),
      );
      return;
    }
    let chunk: unknown;
    try {
      chunk = JSON.parse(line);
    } catch (cause) {
      if (tail) return;
      this.#onMalformed(
        new ProviderStreamError(this.#provider, 'line is not JSON', { payload: line, cause }),
      );
      return;
    }
    this.#onChunk(chunk);
  }
}
