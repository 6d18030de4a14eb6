/**
 * One test vocabulary for the three runtimes that run the core tests.
 *
 * Node and Deno run `node:test`; Chromium runs mocha under web-test-runner, which defines
 * `describe` and `it` as globals before a test module loads. The specifier is held in a
 * variable so the browser's module resolver never sees `node:test`.
 */
type Body = () => void | Promise<void>;
interface Runner {
  describe(name: string, body: () => void): void;
  it(name: string, body: Body): void;
}

const globals = globalThis as { describe?: Runner['describe']; it?: Runner['it'] };
const nodeTest = 'node:test';
const runner: Runner =
  globals.describe && globals.it
    ? { describe: globals.describe, it: globals.it }
    : ((await import(nodeTest)) as Runner);

export const describe: Runner['describe'] = (name, body) => runner.describe(name, body);
export const it: Runner['it'] = (name, body) => runner.it(name, body);

/** Which runtime runs this test file: some checks only make sense in one of them. */
export const runtime: 'node' | 'deno' | 'browser' =
  'Deno' in globalThis ? 'deno' : 'window' in globalThis ? 'browser' : 'node';
