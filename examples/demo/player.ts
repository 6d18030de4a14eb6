/** Something a replay does at a time of the recording. */
export interface Step {
  /** Recorded time, in ms since the session started. */
  readonly at: number;
  /** Does it; a returned promise holds the later steps until it settles. */
  readonly run: () => unknown;
  /**
   * It waits for the viewer (an approval): while its promise holds the later steps, the
   * replay's clock stops, so they keep their recorded spacing after the answer.
   */
  readonly waits?: boolean;
}

export type PlayerState = 'paused' | 'playing' | 'done';

/**
 * Runs steps at their recorded times, scaled by `speed`, with pause, speed changes and
 * "finish now". Every step due at a timer tick runs in that tick, in order, as a network
 * read hands over what arrived; a step that returns a promise holds the steps after it until
 * the promise settles (an adapter finishing a response before the host records the next
 * event). Changing the speed keeps the position.
 */
export class Player {
  readonly #steps: readonly Step[];
  readonly #onChange: () => void;
  #speed = 1;
  #state: PlayerState = 'paused';
  #next = 0;
  #lastAt = 0;
  #originAt = 0;
  #originTime = 0;
  #finishing = false;
  #busy = false;
  #waiting = false;
  #disposed = false;
  #timer: ReturnType<typeof setTimeout> | undefined;

  /** `steps` in time order; `onChange` hears every state change. */
  constructor(steps: readonly Step[], onChange: () => void) {
    this.#steps = steps;
    this.#onChange = onChange;
  }

  get state(): PlayerState {
    return this.#state;
  }

  /** The time of the last step, in recorded ms. */
  get duration(): number {
    return this.#steps.at(-1)?.at ?? 0;
  }

  /** The recorded time of the step run last: the replay's own clock for what it emits. */
  get lastAt(): number {
    return this.#lastAt;
  }

  /** A step is waiting for the viewer (see `Step.waits`). */
  get waiting(): boolean {
    return this.#waiting;
  }

  /** Where playback is, in recorded ms, at most `duration`. */
  get position(): number {
    if (this.#state === 'done') return this.duration;
    if (this.#state === 'paused') return this.#originAt;
    if (this.#waiting) return this.#lastAt;
    const elapsed = (performance.now() - this.#originTime) * this.#speed;
    return Math.min(this.duration, this.#originAt + elapsed);
  }

  get speed(): number {
    return this.#speed;
  }

  set speed(speed: number) {
    if (!(speed > 0)) throw new RangeError(`speed must be positive; got ${speed}`);
    this.#originAt = this.position;
    this.#originTime = performance.now();
    this.#speed = speed;
    if (this.#state === 'playing') this.#schedule();
  }

  play(): void {
    if (this.#state !== 'paused' || this.#disposed) return;
    this.#originTime = performance.now();
    this.#set('playing');
    this.#schedule();
  }

  pause(): void {
    if (this.#state !== 'playing') return;
    this.#originAt = this.position;
    this.#cancel();
    this.#set('paused');
  }

  /** Runs every remaining step now, in order (still waiting where a step holds the rest). */
  finish(): void {
    if (this.#state === 'done' || this.#disposed) return;
    this.#finishing = true;
    if (this.#state === 'paused') this.play();
    else this.#schedule();
  }

  /** Stops for good: no step runs after this. */
  dispose(): void {
    this.#disposed = true;
    this.#cancel();
  }

  #set(state: PlayerState): void {
    this.#state = state;
    this.#onChange();
  }

  #cancel(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #schedule(): void {
    this.#cancel();
    if (this.#busy) return;
    const step = this.#steps[this.#next];
    const wait = !step || this.#finishing ? 0 : (step.at - this.position) / this.#speed;
    this.#timer = setTimeout(() => void this.#tick(), Math.max(0, wait));
  }

  async #tick(): Promise<void> {
    this.#timer = undefined;
    if (this.#busy || this.#disposed) return;
    this.#busy = true;
    try {
      for (;;) {
        const step = this.#steps[this.#next];
        if (!step || this.#state !== 'playing') break;
        if (!this.#finishing && step.at > this.position) break;
        this.#next++;
        this.#lastAt = step.at;
        const held = step.run();
        if (held instanceof Promise) {
          if (step.waits) {
            this.#waiting = true;
            this.#onChange();
          }
          await held.catch(() => {});
          if (step.waits) {
            this.#waiting = false;
            this.#onChange();
            // The clock stood still while the viewer decided: it resumes at the step's time.
            this.#originAt = step.at;
            this.#originTime = performance.now();
          }
        }
        if (this.#disposed) return;
      }
    } finally {
      this.#busy = false;
    }
    if (this.#next >= this.#steps.length) {
      this.#originAt = this.duration;
      this.#set('done');
    } else if (this.#state === 'playing') {
      this.#schedule();
    }
  }
}
