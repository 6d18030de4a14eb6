/**
 * Waits until `condition` holds, checking every few milliseconds: how a test waits for
 * something another task does, instead of sleeping a while and asserting. The deadline only
 * turns a hang into a failure that names what never happened; it is long on purpose, so that
 * no verdict depends on how fast the machine is (CONTRIBUTING, "Tests that do not depend on
 * speed").
 */
export async function waitFor(
  condition: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
