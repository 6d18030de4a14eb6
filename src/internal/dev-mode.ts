/**
 * True in the sources and in every build of them that tests and benchmarks run; the
 * published build (`npm run build`, then `scripts/strip-dev-mode.mjs`) removes every
 * statement guarded by it, and the probe modules, from `dist/`.
 *
 * Guard test-only instrumentation with it as lit guards its dev-mode checks with `DEV_MODE`:
 * a single statement, `if (DEV_MODE) probe.counter += n;`, with no `else`, so the strip step
 * finds it by its shape. `dist/` must not mention it (the pack check verifies that).
 */
export const DEV_MODE = true;
