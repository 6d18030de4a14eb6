// The compiled test files, and the bundles the core ones run in: `scripts/test.mjs` gives them
// to Node and Deno, `web-test-runner.config.mjs` to Chromium.
//
// A core test file is one that runs in every runtime (not an element's, not `*.node.test.js`).
// Each test file costs about 0.4 s of CPU to start on its own (Node: a child process; Deno: a
// worker; Chromium: a page), so the core files are imported a few to a file: measured on the
// 85 core files bundled in three, Node's CPU fell from 90 s to 46 s and Deno's from 69 s to
// 30 s, with the same tests passing. The files of a bundle run one after another in one
// process (or page), so a core test leaves no global state behind (CONTRIBUTING, "Tests that
// do not depend on speed").
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Where the bundles are written (outside .build/test, which nothing else reads whole). */
export const bundleDir = '.build/bundles';
/** How many: Node runs them beside the Node-only files, Deno a worker per core. */
const bundleCount = 4;

/**
 * Compiled test files (Node 20's --test takes no globs), sorted.
 * @param {string} dir
 * @param {readonly string[]} [skip] folders left out
 * @returns {string[]}
 */
export function testFiles(dir, skip = []) {
  /** @type {string[]} */
  const files = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!skip.includes(path)) files.push(...testFiles(path, skip));
    } else if (entry.name.endsWith('.test.js')) files.push(path);
  }
  return files.sort();
}

/**
 * Writes the bundles of the compiled core test files (once the compile is done) and returns
 * their paths. The same compile always gives the same bundles, and each is written whole
 * (to a temporary name, then renamed), so two runners that write them at once agree.
 * @returns {string[]}
 */
export function coreBundles() {
  const core = testFiles('.build/test', ['.build/test/elements']).filter(
    (file) => !file.endsWith('.node.test.js'),
  );
  mkdirSync(bundleDir, { recursive: true });
  return Array.from({ length: bundleCount }, (_, i) => {
    const file = join(bundleDir, `core-${i + 1}.test.js`);
    const text = core
      .filter((_, k) => k % bundleCount === i)
      .map((test) => `import './${relative(bundleDir, test)}';\n`)
      .join('');
    let current = '';
    try {
      current = readFileSync(file, 'utf8');
    } catch {}
    if (current !== text) {
      const temporary = `${file}.${process.pid}`;
      writeFileSync(temporary, text);
      renameSync(temporary, file);
    }
    return file;
  });
}
