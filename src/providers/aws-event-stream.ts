/**
 * The AWS event-stream framing (`application/vnd.amazon.eventstream`, as Bedrock's
 * `ConverseStream` answers), decoded from bytes cut anywhere: Uint8Array and DataView only,
 * so it runs in browsers and Deno as in Node.
 */

/** The largest message accepted (AWS caps event-stream messages at 16 MiB of payload). */
export const MAX_MESSAGE_BYTES = 16 * 1024 * 1024 + 128 * 1024;
/** The most header bytes a message may declare (AWS's limit). */
export const MAX_HEADER_BYTES = 128 * 1024;

const PRELUDE = 12;
/** Prelude and message checksums. */
const OVERHEAD = PRELUDE + 4;

/** One decoded message: its string headers (other header types are skipped) and payload. */
export interface EventStreamMessage {
  readonly headers: ReadonlyMap<string, string>;
  readonly payload: Uint8Array;
}

/** A frame that cannot be read: fatal when the framing itself is lost. */
export class EventStreamFrameError extends Error {
  /** The framing is lost (bad prelude): nothing after it can be trusted. */
  readonly fatal: boolean;

  constructor(message: string, fatal: boolean) {
    super(message);
    this.name = 'EventStreamFrameError';
    this.fatal = fatal;
  }
}

/**
 * Splits bytes into event-stream messages:
 *
 * 1. `push(bytes)` returns the messages the bytes complete, in order; bytes are kept only
 *    until their message is complete (at most one message, `MAX_MESSAGE_BYTES`).
 * 2. Each message's prelude checksum (CRC-32 of its first 8 bytes) is checked first: a
 *    mismatch, a total length under 16 bytes or over `MAX_MESSAGE_BYTES`, or a header length
 *    over `MAX_HEADER_BYTES` or past the message sets `failure`, a fatal
 *    `EventStreamFrameError` (the lengths cannot be trusted, so the stream cannot go on):
 *    `push` returns the messages before it and reads nothing more.
 * 3. A message whose own checksum (CRC-32 of all but its last 4 bytes) or headers are wrong
 *    is skipped: `push` reports it through `onBad` (a non-fatal `EventStreamFrameError`) and
 *    goes on with the next message, whose place the checked prelude gave.
 * 4. `end()` says whether bytes of an unfinished message remain (a cut body).
 */
export class EventStreamDecoder {
  #buffer = new Uint8Array(0);
  #length = 0;
  /** Set when the framing is lost (rule 2); `push` then reads nothing. */
  failure: EventStreamFrameError | undefined;
  readonly #onBad: (error: EventStreamFrameError) => void;

  constructor(onBad: (error: EventStreamFrameError) => void) {
    this.#onBad = onBad;
  }

  push(bytes: Uint8Array): EventStreamMessage[] {
    if (this.failure) return [];
    this.#append(bytes);
    const messages: EventStreamMessage[] = [];
    let offset = 0;
    while (this.#length - offset >= PRELUDE) {
      const view = new DataView(this.#buffer.buffer, this.#buffer.byteOffset + offset);
      const total = view.getUint32(0);
      const headerLength = view.getUint32(4);
      this.failure =
        crc32(this.#buffer, offset, offset + 8) !== view.getUint32(8)
          ? new EventStreamFrameError('event stream prelude checksum mismatch', true)
          : total < OVERHEAD || total > MAX_MESSAGE_BYTES
            ? new EventStreamFrameError(`event stream message of ${total} bytes`, true)
            : headerLength > MAX_HEADER_BYTES || headerLength > total - OVERHEAD
              ? new EventStreamFrameError(`event stream headers of ${headerLength} bytes`, true)
              : undefined;
      if (this.failure) return messages;
      if (this.#length - offset < total) break;
      const message = this.#buffer.subarray(offset, offset + total);
      offset += total;
      const decoded = readMessage(message, headerLength);
      if (decoded instanceof EventStreamFrameError) this.#onBad(decoded);
      else messages.push(decoded);
    }
    if (offset > 0) {
      // Keep the rest (under one message) in a fresh buffer: the messages' payloads are
      // views of the old one.
      this.#buffer = this.#buffer.slice(offset, this.#length);
      this.#length -= offset;
    }
    return messages;
  }

  /** Whether bytes of an unfinished message remain. */
  end(): boolean {
    return this.#length > 0;
  }

  #append(bytes: Uint8Array): void {
    const needed = this.#length + bytes.length;
    if (needed > this.#buffer.length) {
      const grown = new Uint8Array(Math.max(needed, this.#buffer.length * 2, 1024));
      grown.set(this.#buffer.subarray(0, this.#length));
      this.#buffer = grown;
    }
    this.#buffer.set(bytes, this.#length);
    this.#length = needed;
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: false });

/** A whole message's headers and payload, or why it is bad (rule 3). */
function readMessage(
  message: Uint8Array,
  headerLength: number,
): EventStreamMessage | EventStreamFrameError {
  const view = new DataView(message.buffer, message.byteOffset, message.byteLength);
  const end = message.length - 4;
  if (crc32(message, 0, end) !== view.getUint32(end)) {
    return new EventStreamFrameError('event stream message checksum mismatch', false);
  }
  const headers = new Map<string, string>();
  let i = PRELUDE;
  const stop = PRELUDE + headerLength;
  while (i < stop) {
    const nameLength = message[i] as number;
    const name = utf8.decode(message.subarray(i + 1, i + 1 + nameLength));
    i += 1 + nameLength;
    const type = message[i++];
    let size: number;
    switch (type) {
      case 0: // true
      case 1: // false
        size = 0;
        break;
      case 2: // byte
        size = 1;
        break;
      case 3: // short
        size = 2;
        break;
      case 4: // integer
        size = 4;
        break;
      case 5: // long
      case 8: // timestamp
        size = 8;
        break;
      case 9: // uuid
        size = 16;
        break;
      case 6: // bytes
      case 7: {
        // string
        if (i + 2 > stop) return new EventStreamFrameError('event stream header cut', false);
        const length = view.getUint16(i);
        i += 2;
        if (i + length > stop) return new EventStreamFrameError('event stream header cut', false);
        if (type === 7) headers.set(name, utf8.decode(message.subarray(i, i + length)));
        size = length;
        break;
      }
      default:
        return new EventStreamFrameError(`event stream header type ${type}`, false);
    }
    i += size;
    if (i > stop) return new EventStreamFrameError('event stream header cut', false);
  }
  return { headers, payload: message.subarray(stop, end) };
}

/** The CRC-32 (IEEE 802.3, as zlib) table, built once. */
const table = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

/** CRC-32 of `bytes[start, end)`. */
export function crc32(bytes: Uint8Array, start: number, end: number): number {
  let c = 0xffffffff;
  for (let i = start; i < end; i++) {
    c = (table[(c ^ (bytes[i] as number)) & 0xff] as number) ^ (c >>> 8);
  }
  return (c ^ 0xffffffff) >>> 0;
}
