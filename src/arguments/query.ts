import { cutPrefix } from '../internal/cut-prefix.js';
import type { ArgumentIndex } from './argument-index.js';
import { decodedLength, decodedPrefix, decodedText, parsedValue } from './decode-field.js';
import { kindOfValue } from './field.js';

/**
 * What a PartialArguments read asks; with a key (empty for `closed` and `objectComplete`)
 * and a number (`prefix`: the unit limit, `length`: the step, else 0) it identifies a query
 * for change detection.
 */
export type Query =
  | 'has'
  | 'kind'
  | 'complete'
  | 'objectComplete'
  | 'closed'
  | 'text'
  | 'prefix'
  | 'length'
  | 'value';

/** A query's answer from the index, which first indexes everything received. */
export function answerFromIndex(
  index: ArgumentIndex,
  query: Query,
  key: string,
  arg: number,
): unknown {
  index.catchUp();
  if (query === 'closed') return index.sealed || index.objectComplete || index.stopped;
  if (query === 'objectComplete') return index.objectComplete;
  const field = index.fields.get(key);
  switch (query) {
    case 'has':
      return field !== undefined;
    case 'kind':
      return field?.kind;
    case 'complete':
      return field !== undefined && field.end !== -1;
    case 'value':
      return field && field.end !== -1 ? parsedValue(index, field) : undefined;
    case 'text':
      return field ? decodedText(index, field) : undefined;
    case 'prefix':
      return field ? decodedPrefix(index, field, arg) : undefined;
    case 'length':
      return field ? decodedLength(index, field, arg) : undefined;
    default:
      return query satisfies never;
  }
}

/** A query's answer from a parsed payload (own properties only): complete and closed. */
export function answerFromPayload(
  payload: object,
  query: Query,
  key: string,
  arg: number,
): unknown {
  const own = Object.hasOwn(payload, key);
  const value = own ? (payload as Record<string, unknown>)[key] : undefined;
  switch (query) {
    case 'closed':
    case 'objectComplete':
      return true;
    case 'has':
      return own;
    case 'kind':
      return own ? kindOfValue(value) : undefined;
    case 'complete':
      return own;
    case 'value':
      return value;
    case 'text':
      return typeof value === 'string' ? value : undefined;
    case 'prefix':
      return typeof value === 'string' ? cutPrefix(value, arg, false) : undefined;
    case 'length':
      return typeof value === 'string' ? value.length : undefined;
    default:
      return query satisfies never;
  }
}
