import type { ArgumentIndex } from './argument-index.js';
import { answerFromIndex, type Query } from './query.js';

interface Answer {
  readonly query: Query;
  readonly key: string;
  readonly arg: number;
  /** The baseline: the answer as of the last refresh (or the first read). */
  value: unknown;
}

/**
 * Change detection for one reader over text (a payload's answers never change): the answer of every query read (method, key, options),
 * as of the last refresh.
 *
 * A query's first read sets its baseline; later reads never move it; `refresh` compares every
 * recorded query's current answer with its baseline and moves the baselines. So one
 * consumer's read cannot swallow another's change, and the granularity is the query's own
 * (`stringLength(k, { step: 1024 })` changes once per 1024 units, `text(k)` per character).
 */
export class Answers {
  readonly #recorded = new Map<string, Answer>();

  /** Records `value` as the baseline of a query read for the first time. */
  record(query: Query, key: string, arg: number, value: unknown): void {
    const id = `${query}:${arg}:${key}`;
    if (!this.#recorded.has(id)) this.#recorded.set(id, { query, key, arg, value });
  }

  /**
   * Compares each recorded answer with its answer from `index` now and moves the baselines;
   * true when any changed.
   */
  refresh(index: ArgumentIndex): boolean {
    let changed = false;
    for (const recorded of this.#recorded.values()) {
      const now = answerFromIndex(index, recorded.query, recorded.key, recorded.arg);
      if (!Object.is(now, recorded.value)) {
        recorded.value = now;
        changed = true;
      }
    }
    return changed;
  }
}
