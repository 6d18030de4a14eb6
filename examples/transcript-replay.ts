import type { TranscriptEntry } from '../src/events/transcript.js';
import type { CallfoldEvent } from '../src/events/types.js';

/**
 * Replays decoded transcript entries at their recorded times, scaled by `speed` (a stand-in
 * until src/events offers replay). Every entry due at a timer tick is delivered in that tick,
 * in order, as a network read would hand them over. Changing the speed keeps the current
 * position; `restart` rewinds to the first entry.
 */
export class TranscriptReplay {
  readonly #entries: readonly TranscriptEntry[];
  readonly #deliver: (event: CallfoldEvent) => void;
  #speed = 1;
  #running = false;
  #next = 0;
  #originAt = 0;
  #originTime = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(entries: readonly TranscriptEntry[], deliver: (event: CallfoldEvent) => void) {
    this.#entries = entries;
    this.#deliver = deliver;
  }

  /** Recorded length in ms. */
  get duration(): number {
    return this.#entries.at(-1)?.at ?? 0;
  }

  /** Position in recorded ms, at most `duration`. */
  get position(): number {
    if (this.done) return this.duration;
    if (!this.#running) return this.#originAt;
    return Math.min(
      this.duration,
      this.#originAt + (performance.now() - this.#originTime) * this.#speed,
    );
  }

  get done(): boolean {
    return this.#next >= this.#entries.length;
  }

  get speed(): number {
    return this.#speed;
  }

  set speed(speed: number) {
    if (!(speed > 0)) throw new RangeError(`speed must be positive; got ${speed}`);
    this.#originAt = this.position;
    this.#originTime = performance.now();
    this.#speed = speed;
    if (this.#running) this.#schedule();
  }

  /** Starts over from the first entry at the current speed. */
  restart(): void {
    this.#running = true;
    this.#next = 0;
    this.#originAt = 0;
    this.#originTime = performance.now();
    this.#schedule();
  }

  /** Pauses at the current position; `restart` starts over. */
  stop(): void {
    this.#originAt = this.position;
    this.#running = false;
    this.#cancel();
  }

  #cancel(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #schedule(): void {
    this.#cancel();
    const entry = this.#entries[this.#next];
    if (!entry) return;
    const wait = Math.max(0, (entry.at - this.position) / this.#speed);
    this.#timer = setTimeout(() => this.#tick(), wait);
  }

  #tick(): void {
    const now = this.position;
    for (let entry = this.#entries[this.#next]; entry && entry.at <= now; ) {
      this.#next++;
      this.#deliver(entry.event);
      entry = this.#entries[this.#next];
    }
    this.#schedule();
  }
}
