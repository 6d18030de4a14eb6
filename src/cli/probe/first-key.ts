enum State {
  Start,
  Open,
  Key,
  Done,
}

/** Longer raw keys are not argument names; the scan gives up rather than buffer text. */
const maxKeyLength = 1024;

/**
 * Finds the first key of a JSON object arriving in fragments, reading each character once
 * and keeping only the key's own text. `push` returns `undefined` while undecided, then the
 * key (decoded), or `null` when the text is not an object or the object is empty. Once
 * decided, the answer never changes and later fragments are ignored.
 *
 * (`PartialArguments` indexes keys for lookup, not their order; this is the order question.)
 */
export class FirstKeyScanner {
  #state = State.Start;
  #raw = '';
  #escaped = false;
  #result: string | null | undefined = undefined;

  /** The answer so far: undefined while undecided. */
  get result(): string | null | undefined {
    return this.#result;
  }

  push(fragment: string): string | null | undefined {
    for (let i = 0; i < fragment.length && this.#state !== State.Done; i++) {
      const char = fragment[i] as string;
      switch (this.#state) {
        case State.Start:
        case State.Open:
          if (char === ' ' || char === '\n' || char === '\r' || char === '\t') break;
          if (this.#state === State.Start) {
            if (char === '{') this.#state = State.Open;
            else this.#decide(null);
          } else if (char === '"') this.#state = State.Key;
          else this.#decide(null);
          break;
        case State.Key:
          if (this.#escaped) this.#escaped = false;
          else if (char === '\\') this.#escaped = true;
          else if (char === '"') {
            this.#decide(this.#decodeKey());
            break;
          }
          this.#raw += char;
          if (this.#raw.length > maxKeyLength) this.#decide(null);
          break;
        default: {
          const unreachable: never = this.#state;
          throw new Error(`unknown state ${String(unreachable)}`);
        }
      }
    }
    return this.#result;
  }

  #decodeKey(): string | null {
    try {
      return JSON.parse(`"${this.#raw}"`) as string;
    } catch {
      return null;
    }
  }

  #decide(result: string | null): void {
    this.#result = result;
    this.#state = State.Done;
    this.#raw = '';
  }
}
