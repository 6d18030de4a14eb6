/**
 * Waits for a condition, checked every 50 ms (open-wc's `waitUntil`). Its bound only stops a
 * test that would otherwise hang, so it is far above anything a render takes on a loaded
 * machine: open-wc's default of 1 s is not (a group rendered at an animation frame can come
 * later than that while both cores are busy). An explicit `timeout` still wins.
 */
import { waitUntil } from '@open-wc/testing';

export function until(
  predicate: () => unknown,
  message?: string,
  options: { interval?: number; timeout?: number } = {},
): Promise<void> {
  return waitUntil(predicate, message, { timeout: 30_000, ...options });
}
