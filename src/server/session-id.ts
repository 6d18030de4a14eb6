/**
 * A session id every store and the handler accept: 1 to 128 characters of ASCII letters,
 * digits, `_`, `-` and `.`, not starting with `.`. So it can name a file (`fileStore`) or a
 * key (`redisStore`) as it is: no separator, no `..`, nothing to escape.
 */
const sessionIdPattern = /^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,127}$/;

/** Whether `id` is a valid session id (see `assertSessionId`). */
export function isSessionId(id: unknown): id is string {
  return typeof id === 'string' && sessionIdPattern.test(id);
}

/** Throws a `RangeError` unless `id` is a valid session id: 1–128 of `[A-Za-z0-9_.-]`, no leading `.`. */
export function assertSessionId(id: unknown): asserts id is string {
  if (!isSessionId(id)) {
    const shown = typeof id === 'string' ? JSON.stringify(id.slice(0, 40)) : typeof id;
    throw new RangeError(
      `invalid session id ${shown}: use 1-128 of A-Z a-z 0-9 _ - . (not starting with .)`,
    );
  }
}
