/**
 * Drives a streaming PartialArguments over a valid object text cut into fragments and checks
 * every answer against the oracle, in one of several read patterns.
 */
import { expect } from 'chai';
import { PartialArguments } from '../../../src/arguments/partial-arguments.js';
import { prng } from '../../support/prng.js';
import { absentKeys, keyPool } from './arbitraries.js';
import { fragment, type Layout, ownValue, sameJson, show, topLevel } from './json-text.js';
import { allQueries, Expectation, looseSame, queryName, type ReadParams, read } from './oracle.js';

export type Pattern =
  /** Every query after every fragment, never refreshing. */
  | 'every'
  /** Every query after every fragment, then refresh(), whose answer is checked. */
  | 'refresh'
  /** A random subset of queries in random order after some fragments, refreshing sometimes. */
  | 'random'
  /** Nothing read until the last fragment. */
  | 'end';

export interface StreamParams extends ReadParams {
  seed: number;
}

/** Keys every check looks up: the whole pool of generated keys and keys never generated. */
export const lookupKeys: readonly string[] = [...keyPool, ...absentKeys];

function keysFor(layout: Layout): string[] {
  const keys = new Set(lookupKeys);
  for (const m of layout.members) keys.add(m.key);
  return [...keys];
}

function shuffle<T>(items: T[], random: () => number): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

/** Checks a view of the complete `text` (sealed or not) against JSON.parse of it. */
export function expectFinal(view: PartialArguments, text: string, keys: readonly string[]): void {
  const whole = JSON.parse(text) as object;
  for (const key of keys) {
    const { present, value } = ownValue(whole, key);
    const where = `key ${JSON.stringify(key)} of ${show(text)}`;
    expect(view.has(key), `has, ${where}`).to.equal(present);
    if (!present) {
      expect(view.value(key), `value, ${where}`).to.equal(undefined);
      continue;
    }
    expect(view.complete(key), `complete, ${where}`).to.equal(true);
    const answer = view.value(key);
    if (!sameJson(answer, value)) {
      expect.fail(`value, ${where}: expected ${show(value)}, got ${show(answer)}`);
    }
    if (typeof value === 'string') {
      expect(view.text(key), `text, ${where}`).to.equal(value);
      expect(view.stringLength(key), `stringLength, ${where}`).to.equal(value.length);
      expect(view.stringLength(key, { step: 7 }), `stringLength step, ${where}`).to.equal(
        value.length,
      );
    }
  }
  expect(view.complete(), 'complete()').to.equal(true);
  expect(view.closed(), 'closed()').to.equal(true);
  expect(view.invalid, 'invalid').to.equal(null);
}

/** Streams `text` in fragments of `sizes`, reading in `pattern`; then seals and checks. */
export function streamAndCheck(
  text: string,
  sizes: readonly number[],
  params: StreamParams,
  pattern: Pattern,
): void {
  const layout = topLevel(text);
  const every = allQueries(keysFor(layout), params);
  const view = PartialArguments.streaming();
  const random = prng(params.seed);
  let at = 0;
  let previous: unknown[] | undefined;
  for (const piece of fragment(text, sizes)) {
    view.append(piece);
    at += piece.length;
    if (pattern === 'end') continue;
    let queries = every;
    if (pattern === 'random') {
      if (random() < 0.3) continue;
      queries = shuffle([...every], random).filter(() => random() < 0.5);
    }
    const expectation = new Expectation(view, layout, at);
    const answers = queries.map((query) => {
      const answer = read(view, query);
      expectation.check(query, answer);
      return answer;
    });
    if (view.invalid !== null) {
      expect.fail(`invalid after ${at} characters of valid ${show(text)}: ${view.invalid.message}`);
    }
    if (pattern === 'random' && random() < 0.2) view.refresh();
    if (pattern !== 'refresh') continue;
    const changed = view.refresh();
    if (previous === undefined) {
      expect(changed, `refresh() after the first reads, ${at} characters`).to.equal(false);
    } else {
      const before = previous;
      const must = answers.findIndex((a, i) => !looseSame(a, before[i]));
      const may = answers.some((a, i) => !Object.is(a, before[i]));
      if (must >= 0 && !changed) {
        const q = queries[must]!;
        expect.fail(
          `refresh() returned false after ${at} characters of ${show(text)} although ${queryName(q)} changed from ${show(before[must])} to ${show(answers[must])}`,
        );
      }
      if (!may && changed) {
        expect.fail(
          `refresh() returned true after ${at} characters of ${show(text)} although no answer read changed`,
        );
      }
    }
    previous = answers;
  }
  const expectation = new Expectation(view, layout, text.length);
  for (const query of every) expectation.check(query, read(view, query));
  expect(view.seal(text), 'seal(text) with the streamed text').to.equal(view);
  expectFinal(view, text, lookupKeys);
}
