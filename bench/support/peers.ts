import { JSONParser } from '@streamparser/json';
import { parse as jsonriverParse } from 'jsonriver';
import { parse as partialJsonParse } from 'partial-json';

/**
 * Peer readers for streamed tool arguments, all fed the identical fragments and asked the
 * same questions at the same flushes: the text of one key (say `file_path`) and the decoded
 * length of another (say `content`). Shared by the argument and fold benchmarks.
 */
export interface FlushPlan {
  readonly fragments: readonly string[];
  /** A flush after every `flushEvery` fragments. */
  readonly flushEvery: number;
  /** Key whose text is read at every flush. */
  readonly textKey: string;
  /** Key whose decoded string length is read at every flush. */
  readonly lengthKey: string;
}

/** What a reader answered: per flush (−1 / undefined = no answer yet), then at the end. */
export interface Readings {
  readonly texts: (string | undefined)[];
  readonly lengths: Int32Array;
  finalText: string | undefined;
  finalLength: number;
}

export interface PeerOutcome {
  readonly readings: Readings;
  /** What the reader keeps to answer later reads; counted as retained heap. */
  readonly held: unknown;
}

/**
 * How a reader's per-flush lengths relate to the exact ones: 'exact'; 'trailing' (at most
 * exact, and short by less than TRAILING_SLACK fragments' worth, for readers with
 * documented quirks); 'none' (no length while streaming).
 */
export type PartialLengths = 'exact' | 'trailing' | 'none';

export interface Peer {
  readonly name: string;
  readonly partialLengths: PartialLengths;
  readonly note: string;
  run(plan: FlushPlan): PeerOutcome | Promise<PeerOutcome>;
}

export const TRAILING_SLACK = 8;

export function emptyReadings(plan: FlushPlan): Readings {
  const flushes = Math.floor(plan.fragments.length / plan.flushEvery);
  return {
    texts: new Array<string | undefined>(flushes).fill(undefined),
    lengths: new Int32Array(flushes).fill(-1),
    finalText: undefined,
    finalLength: -1,
  };
}

type Json = unknown;

function field(value: Json, key: string): Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, Json>)[key]
    : undefined;
}

function textOf(value: Json): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function lengthOf(value: Json): number {
  return typeof value === 'string' ? value.length : -1;
}

/**
 * Feeds fragments as an AsyncIterable with the least machinery an async source can have
 * (a plain iterator returning resolved promises; no async generator), calling `onFlush`
 * when the consumer asks for the fragment after a flush point, i.e. once it has consumed
 * every fragment before it.
 */
function asyncFragments(plan: FlushPlan, onFlush: (flush: number) => void): AsyncIterable<string> {
  const { fragments, flushEvery } = plan;
  let index = 0;
  const done: IteratorResult<string> = { done: true, value: undefined };
  return {
    [Symbol.asyncIterator]: () => ({
      next: () => {
        if (index > 0 && index % flushEvery === 0) onFlush(index / flushEvery - 1);
        if (index === fragments.length) return Promise.resolve(done);
        return Promise.resolve({ done: false, value: fragments[index++]! });
      },
    }),
  };
}

/**
 * jsonriver (async): yields one live, in-place-updated root value. The source iterator
 * reads it at each flush, when jsonriver asks for the next fragment after a flush point
 * (it asks only once it has parsed all it was given).
 */
export const jsonriver: Peer = {
  name: 'jsonriver',
  partialLengths: 'exact',
  note: 'parse(AsyncIterable<string>); whole run awaited, including per-fragment promise hops',
  async run(plan) {
    const readings = emptyReadings(plan);
    let root: Json;
    const source = asyncFragments(plan, (flush) => {
      readings.texts[flush] = textOf(field(root, plan.textKey));
      readings.lengths[flush] = lengthOf(field(root, plan.lengthKey));
    });
    for await (const value of jsonriverParse(source)) root = value;
    readings.finalText = textOf(field(root, plan.textKey));
    readings.finalLength = lengthOf(field(root, plan.lengthKey));
    return { readings, held: root };
  },
};

/** partial-json: re-parses the whole text received so far at every flush (quadratic). */
export const partialJson: Peer = {
  name: 'partial-json',
  // It trims the whole input first, so an open string loses its trailing whitespace.
  partialLengths: 'trailing',
  note: 'parse(wholeTextSoFar) at every flush, as UIs commonly do; trims trailing spaces of an open string',
  run(plan) {
    const readings = emptyReadings(plan);
    const { fragments, flushEvery } = plan;
    let text = '';
    for (let i = 0; i < fragments.length; i++) {
      text += fragments[i]!;
      if ((i + 1) % flushEvery === 0) {
        const value: Json = partialJsonParse(text);
        const flush = (i + 1) / flushEvery - 1;
        readings.texts[flush] = textOf(field(value, plan.textKey));
        readings.lengths[flush] = lengthOf(field(value, plan.lengthKey));
      }
    }
    const value: Json = partialJsonParse(text);
    readings.finalText = textOf(field(value, plan.textKey));
    readings.finalLength = lengthOf(field(value, plan.lengthKey));
    return { readings, held: value };
  },
};

function streamparser(partial: boolean): Peer {
  return {
    name: partial ? '@streamparser/json (partial)' : '@streamparser/json',
    partialLengths: partial ? 'trailing' : 'none',
    note: partial
      ? 'JSONParser{paths, emitPartialTokens, emitPartialValues}: re-emits the open string after every write ' +
        'that ends outside an escape, so its length can trail'
      : 'JSONParser{paths}: emits a string only once complete, so no length while streaming',
    run(plan) {
      const readings = emptyReadings(plan);
      const { fragments, flushEvery, textKey, lengthKey } = plan;
      const parser = new JSONParser({
        paths: [`$.${textKey}`, `$.${lengthKey}`],
        keepStack: false,
        emitPartialTokens: partial,
        emitPartialValues: partial,
      });
      let text: string | undefined;
      let length = -1;
      let lengthValue: string | undefined;
      parser.onValue = ({ key, value }) => {
        if (typeof value !== 'string') return;
        if (key === textKey) text = value;
        else if (key === lengthKey) {
          lengthValue = value;
          length = value.length;
        }
      };
      for (let i = 0; i < fragments.length; i++) {
        parser.write(fragments[i]!);
        if ((i + 1) % flushEvery === 0) {
          const flush = (i + 1) / flushEvery - 1;
          readings.texts[flush] = text;
          readings.lengths[flush] = length;
        }
      }
      if (!parser.isEnded) parser.end();
      readings.finalText = text;
      readings.finalLength = length;
      return { readings, held: [text, lengthValue] };
    },
  };
}

export const streamparserPartial: Peer = streamparser(true);
export const streamparserComplete: Peer = streamparser(false);

/** The floor: only stores fragments, parses once at the end. */
export const floor: Peer = {
  name: 'floor',
  partialLengths: 'none',
  note: 'push fragments; join + JSON.parse once at the end; no reads while streaming',
  run(plan) {
    const readings = emptyReadings(plan);
    const parts: string[] = [];
    for (const fragment of plan.fragments) parts.push(fragment);
    const value: Json = JSON.parse(parts.join(''));
    readings.finalText = textOf(field(value, plan.textKey));
    readings.finalLength = lengthOf(field(value, plan.lengthKey));
    return { readings, held: value };
  },
};

/** The floor fed through the same async source as jsonriver: the price of async delivery. */
export const asyncFloor: Peer = {
  name: 'floor (async feed)',
  partialLengths: 'none',
  note: 'floor, fed through the async iterator jsonriver gets',
  async run(plan) {
    const readings = emptyReadings(plan);
    const parts: string[] = [];
    for await (const fragment of asyncFragments(plan, () => {})) parts.push(fragment);
    const value: Json = JSON.parse(parts.join(''));
    readings.finalText = textOf(field(value, plan.textKey));
    readings.finalLength = lengthOf(field(value, plan.lengthKey));
    return { readings, held: value };
  },
};

/**
 * Throws unless the readings are right: the final text and length exact, every flush's text
 * equal to `expectedText`, and every flush's length as the reader's kind promises.
 */
export function checkReadings(
  name: string,
  readings: Readings,
  expected: {
    readonly text: string;
    readonly length: number;
    readonly lengths: Int32Array;
    readonly fragmentSize: number;
    /** As PartialLengths, or a step: while open, lengths are rounded down to a multiple. */
    readonly partial: PartialLengths | { readonly step: number };
  },
): void {
  const fail = (what: string) => {
    throw new Error(`${name}: ${what}`);
  };
  if (readings.finalText !== expected.text)
    fail(`final text ${JSON.stringify(readings.finalText)}`);
  if (readings.finalLength !== expected.length) fail(`final length ${readings.finalLength}`);
  const { partial } = expected;
  if (partial === 'none') return;
  for (let k = 0; k < expected.lengths.length; k++) {
    if (readings.texts[k] !== expected.text) fail(`flush ${k}: text ${readings.texts[k]}`);
    const exact = expected.lengths[k]!;
    const got = readings.lengths[k]!;
    const ok =
      partial === 'exact'
        ? got === exact
        : partial === 'trailing'
          ? got <= exact && got > exact - TRAILING_SLACK * expected.fragmentSize
          : got === exact || got === exact - (exact % partial.step);
    if (!ok) fail(`flush ${k}: length ${got}, expected ${exact}`);
  }
}
