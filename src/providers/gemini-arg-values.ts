/**
 * The values of Vertex AI's `partialArgs` entries, and the trees `PartialArgsWriter` keeps
 * them in (null-prototype objects and arrays: a provider's key is never a prototype's).
 */
import { jsonStringText } from '../internal/json-string-text.js';
import type { Segment } from './gemini-json-path.js';

/** An object or array of the arguments' tree. */
export type Container = Record<string, unknown> | unknown[];

export interface Value {
  readonly value: unknown;
  /** Its JSON text (an empty container's: `{}` or `[]`). */
  readonly json: string;
  readonly string: boolean;
  /** An empty object or array, opened where it is written. */
  readonly container: boolean;
}

/**
 * The entry's value; `'none'` for an entry that carries none and is not an error (a
 * `willContinue` marker); undefined when its value is unusable.
 */
export function entryValue(
  entry: Record<string, unknown>,
  array: boolean,
): Value | 'none' | undefined {
  const { stringValue, numberValue, boolValue } = entry;
  if (typeof stringValue === 'string') {
    return {
      value: stringValue,
      json: `"${jsonStringText(stringValue)}"`,
      string: true,
      container: false,
    };
  }
  if (numberValue !== undefined && numberValue !== null) {
    return typeof numberValue === 'number' && Number.isFinite(numberValue)
      ? { value: numberValue, json: JSON.stringify(numberValue), string: false, container: false }
      : undefined;
  }
  if (typeof boolValue === 'boolean') {
    return { value: boolValue, json: `${boolValue}`, string: false, container: false };
  }
  if (boolValue !== undefined && boolValue !== null) return undefined;
  if (Object.hasOwn(entry, 'nullValue')) {
    return { value: null, json: 'null', string: false, container: false };
  }
  if (entry.willContinue === true) return 'none';
  // No value: an empty container (`$.tags[]` an array), as @ai-sdk/google reads it.
  return array
    ? { value: [], json: '[]', string: false, container: true }
    : { value: Object.create(null), json: '{}', string: false, container: true };
}

export function isContainer(value: unknown): value is Container {
  return typeof value === 'object' && value !== null;
}

export function isIndex(segment: Segment | undefined): boolean {
  return typeof segment === 'number';
}

export function childOf(container: Container, segment: Segment): unknown {
  if (Array.isArray(container)) return typeof segment === 'number' ? container[segment] : undefined;
  return typeof segment === 'string' && Object.hasOwn(container, segment)
    ? container[segment]
    : undefined;
}

/** Whether `segment` can be added to `container`: a key to an object, the next index to an array. */
export function canAdd(container: Container, segment: Segment): boolean {
  if (Array.isArray(container)) return segment === container.length;
  return typeof segment === 'string';
}

export function setChild(container: Container, segment: Segment, value: unknown): void {
  if (Array.isArray(container)) container[segment as number] = value;
  else (container as Record<string, unknown>)[segment as string] = value;
}

export function preview(text: string): string {
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}
