// Loaded before every test file of the Node layer (`node --import=./scripts/node-test-setup.mjs
// --test …`, scripts/test.mjs): it makes node:test's tracking of asynchronous resources cheap
// on Node 20, where it made every promise of a test many times dearer.
//
// Node 20's test harness enables an async hook with `init` and `destroy` callbacks. `init` ties
// each new resource to the test whose code created it: that is how a nested `describe` or `it`
// finds its parent, and which test an uncaught error fails. `destroy` forgets a resource once it
// is collected, and with any `destroy` hook enabled Node follows every promise to its
// collection. A test that awaits a lot pays for it: a million `await`s took 3.9 s inside an `it`
// against 0.1 s outside (Node 20.20, quiet); the server and store tests await per event.
//
// Here the harness gets its `init` without `destroy`, and for every resource but promises. What
// nests a suite or a test keeps working: `describe` bodies run synchronously, where the
// suite itself is the current resource. What is lost: an error thrown by a callback that a test
// scheduled after an `await` (a timer, a socket) is no longer tied to that test. It still fails
// its file ("asynchronous activity after the test ended", naming no test), and this file prints
// its stack. Without `destroy` the resources tied to tests are never forgotten; without promises
// they are few. `CALLFOLD_TEST_ASYNC_HOOK=1` keeps the harness's own hook, to see which test an
// uncaught error belongs to. A Node whose harness makes no such hook is left as it is.
import { createRequire } from 'node:module';

if (process.env.CALLFOLD_TEST_ASYNC_HOOK !== '1') {
  /** The module object the harness destructures `createHook` from when it first loads. */
  const asyncHooks = createRequire(import.meta.url)('node:async_hooks');
  const createHook = asyncHooks.createHook;
  /** @param {import('node:async_hooks').HookCallbacks} callbacks */
  asyncHooks.createHook = function createHookUnlessTheHarness(callbacks) {
    const fromHarness = /\(node:internal\/test_runner\/harness:/.test(new Error().stack ?? '');
    const { init } = callbacks;
    if (!fromHarness || callbacks.destroy === undefined || init === undefined) {
      return createHook(callbacks);
    }
    return createHook({
      /** @type {NonNullable<import('node:async_hooks').HookCallbacks['init']>} */
      init(asyncId, type, triggerAsyncId, resource) {
        if (type !== 'PROMISE') init(asyncId, type, triggerAsyncId, resource);
      },
    });
  };
  /** @param {string} what @param {unknown} error */
  const report = (what, error) =>
    process.stderr.write(
      `node-test-setup: ${what}, which node:test may not tie to its test:\n${
        error instanceof Error ? error.stack : String(error)
      }\n`,
    );
  process.on('uncaughtExceptionMonitor', (error) => report('an uncaught exception', error));
  process.on('unhandledRejection', (reason) => report('an unhandled rejection', reason));
}
