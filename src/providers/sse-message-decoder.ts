/** One server-sent event: its `event:` name (`'message'` when none) and its `data:` lines joined by LF. */
export interface SSEMessage {
  readonly event: string;
  readonly data: string;
}

const LF = 10;
const CR = 13;
const COLON = 58;
const SPACE = 32;
const BOM = 0xfeff;

/**
 * Incremental parser of the `text/event-stream` format
 * (https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation),
 * for the SSE bodies providers send. Text goes in in any pieces; whole messages come out.
 *
 * 1. Lines end in CRLF, LF or CR, also when a CRLF is split between two pieces; a leading
 *    BOM is dropped; comment lines (`:`) and fields other than `event` and `data` are ignored.
 * 2. Each piece is scanned once: a line split over many pieces is joined once, when its end
 *    arrives, so a 256 KiB `data:` line in 1 KiB pieces costs linear time.
 * 3. Unlike the spec (which drops it), a last message not followed by a blank line is
 *    dispatched by `end()` when it has data: some servers close right after `data: [DONE]\n`.
 *    (The adapters drop such a tail when its data is not JSON: the body was cut inside it.)
 */
export class SSEMessageDecoder {
  #pending: string[] = [];
  #skipLF = false;
  #started = false;
  #event = '';
  #data: string[] = [];

  /** Parses `text`, appending the messages it completes to `out`. */
  push(text: string, out: SSEMessage[]): void {
    let start = 0;
    if (text.length === 0) return;
    if (!this.#started) {
      this.#started = true;
      if (text.charCodeAt(0) === BOM) start = 1;
    }
    if (this.#skipLF) {
      this.#skipLF = false;
      if (text.charCodeAt(start) === LF) start += 1;
    }
    let cr = -2;
    let lf = -2;
    while (start < text.length) {
      if (cr !== -1 && cr < start) cr = text.indexOf('\r', start);
      if (lf !== -1 && lf < start) lf = text.indexOf('\n', start);
      const end = cr === -1 ? lf : lf === -1 ? cr : Math.min(cr, lf);
      if (end === -1) {
        this.#pending.push(text.slice(start));
        return;
      }
      let line = text.slice(start, end);
      if (this.#pending.length > 0) {
        this.#pending.push(line);
        line = this.#pending.join('');
        this.#pending = [];
      }
      this.#line(line, out);
      start = end + 1;
      if (text.charCodeAt(end) === CR) {
        if (start === text.length) this.#skipLF = true;
        else if (text.charCodeAt(start) === LF) start += 1;
      }
    }
  }

  /** The input is over: dispatches what is left (see rule 3). */
  end(out: SSEMessage[]): void {
    if (this.#pending.length > 0) {
      const line = this.#pending.join('');
      this.#pending = [];
      this.#line(line, out);
    }
    this.#line('', out);
  }

  #line(line: string, out: SSEMessage[]): void {
    if (line.length === 0) {
      if (this.#data.length > 0) {
        out.push({ event: this.#event || 'message', data: this.#data.join('\n') });
      }
      this.#data = [];
      this.#event = '';
      return;
    }
    if (line.charCodeAt(0) === COLON) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    if (field !== 'data' && field !== 'event') return;
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.charCodeAt(0) === SPACE) value = value.slice(1);
    if (field === 'data') this.#data.push(value);
    else this.#event = value;
  }
}
