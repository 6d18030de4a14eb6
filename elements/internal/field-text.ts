import type { PartialArguments } from '../../src/index.js';

/**
 * Reading argument fields for a row: which field names play which role is the core's
 * `argumentFields` table; these helpers read the first present name of a role at the
 * granularity a row shows it.
 */

/** The first of `keys` whose value has started, in the order given. */
export function firstKey(args: PartialArguments, keys: readonly string[]): string | undefined {
  for (const key of keys) if (args.has(key)) return key;
  return undefined;
}

/**
 * The first present field's text once its string has closed, else undefined: an open path
 * is never shown half-written. Reads `has`, `complete`, then `text` only when complete, so
 * the node is republished once when the field closes, not per character.
 */
export function closedText(args: PartialArguments, keys: readonly string[]): string | undefined {
  const key = firstKey(args, keys);
  if (key === undefined || !args.complete(key)) return undefined;
  const text = args.text(key);
  return text === '' ? undefined : text;
}

/** A short string, number or boolean value shown as text; a complete array of scalars joined. */
export function scalarText(args: PartialArguments, key: string): string | undefined {
  switch (args.kind(key)) {
    case 'string':
      return args.complete(key) ? args.text(key) : undefined;
    case 'number':
    case 'boolean':
      return args.complete(key) ? String(args.value(key)) : undefined;
    case 'array': {
      const value = args.value(key);
      if (!Array.isArray(value)) return undefined;
      if (!value.every((item) => ['string', 'number', 'boolean'].includes(typeof item)))
        return undefined;
      return value.join(', ');
    }
    default:
      return undefined;
  }
}

/**
 * Decoded UTF-16 length of the first present string field of each list, summed; undefined
 * when none is present. While the view is open each length is rounded down to a multiple of
 * `step` (so the node is republished once per step); once closed it is exact.
 */
export function decodedLength(
  args: PartialArguments,
  lists: readonly (readonly string[])[],
  step: number,
): number | undefined {
  let total: number | undefined;
  for (const keys of lists) {
    const key = firstKey(args, keys);
    if (key === undefined) continue;
    const length = args.stringLength(key, { step });
    if (length !== undefined) total = (total ?? 0) + length;
  }
  return total;
}

/** "3 KiB" for a length counted in whole KiB; one decimal below 10 KiB once exact. */
export function formatKiB(units: number, exact: boolean): string {
  const kib = units / 1024;
  if (!exact || kib >= 10) return `${Math.floor(kib)} KiB`;
  if (units === 0) return '0 KiB';
  return `${Math.max(0.1, Math.round(kib * 10) / 10).toFixed(1)} KiB`;
}
