/** A UTF-16 high (leading) surrogate: the first half of a pair, useless on its own. */
export function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}

/** A UTF-16 low (trailing) surrogate: the second half of a pair. */
export function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}
