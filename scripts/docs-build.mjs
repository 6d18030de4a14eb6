// `npm run docs`: builds the documentation site into docs/.vitepress/dist, offline.
//   1. the API reference: TypeDoc (typedoc.json) over the public entries of package.json's
//      "exports" into docs/reference/api/, then a check that every name those entries export
//      has its page and that nothing of src/internal/ or `callfold/internal` shows;
//   2. the elements' pages from custom-elements.json (scripts/docs-elements.mjs);
//   3. llms.txt and llms-full.txt (scripts/docs-llms.mjs) and the demo's session
//      (scripts/make-demo-session.mjs, with a 16 KiB write) into docs/public/;
//   4. `vitepress build docs`, which fails on a dead internal link.
// Everything generated is git-ignored. `--prepare` stops before 4 (`npm run docs:dev`).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeElementPages } from './docs-elements.mjs';
import { writeLlms } from './docs-llms.mjs';

const prepare = process.argv.includes('--prepare');
/** @param {string} cmd @param {string[]} args */
function run(cmd, args) {
  console.log(`── ${[cmd, ...args].join(' ')}`);
  const { status } = spawnSync(cmd, args, { stdio: 'inherit' });
  if (status !== 0) {
    console.error(`docs: ${cmd} failed (exit ${status})`);
    process.exit(1);
  }
}

/**
 * The names a module exports by name (`export { a, type B as C }`, `export function d`…).
 * @param {string} file
 * @returns {string[]}
 */
export function exportedNames(file) {
  const text = readFileSync(file, 'utf8');
  /** @type {string[]} */
  const names = [];
  for (const [, list = ''] of text.matchAll(/export\s+(?:type\s+)?\{([^}]*)\}/g)) {
    for (const part of list.split(',')) {
      const name = part
        .replace(/^\s*type\s+/, '')
        .split(/\s+as\s+/)
        .at(-1)
        ?.trim();
      if (name) names.push(name);
    }
  }
  for (const [, name = ''] of text.matchAll(
    /^export\s+(?:declare\s+)?(?:async\s+)?(?:function\*?|class|interface|type|const|let|enum)\s+([A-Za-z_$][\w$]*)/gm,
  ))
    names.push(name);
  return [...new Set(names)];
}

/** @param {string} dir @returns {string[]} the pages' names (file names without .md) */
const pageNames = (dir) =>
  readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.md'))
    .map((entry) => entry.name.replace(/\.md$/, ''));

const api = 'docs/reference/api';
rmSync('docs/reference', { recursive: true, force: true });
run(process.execPath, ['node_modules/typedoc/bin/typedoc', '--options', 'typedoc.json']);

/** The public entries and the folder TypeDoc writes each one's pages into. */
const entries = new Map([
  ['src/index.ts', 'callfold'],
  ['src/server/index.ts', 'callfold/server'],
  ['src/server/file-store.node.ts', 'callfold/server/file'],
  ['src/server/redis/index.ts', 'callfold/server/redis'],
]);
/** @type {string[]} */
const problems = [];
const published = new Set(pageNames(api));
/** @type {Set<string>} */
const publicNames = new Set();
for (const [file, module] of entries) {
  if (!existsSync(join(api, module))) problems.push(`${module}: no pages`);
  // A name two entries export has its page under the first (the other's index links it).
  for (const name of exportedNames(file)) {
    publicNames.add(name);
    if (!published.has(name)) problems.push(`${module}: ${name} has no page`);
  }
}
// Names of src/internal/ that the public entries re-export (`ListChanges`) are public.
const internal = [
  ...readdirSync('src/internal')
    .filter((name) => name.endsWith('.ts'))
    .flatMap((name) => exportedNames(join('src/internal', name))),
  ...exportedNames('src/internal-api.ts'),
].filter((name) => !publicNames.has(name));
for (const name of internal) {
  if (published.has(name)) problems.push(`internal ${name} has a reference page`);
}
if (problems.length) {
  console.error(`docs: the reference is wrong:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log(
  `reference: ${published.size} pages; ${internal.length} internal names, none published`,
);

const tags = writeElementPages('custom-elements.json', 'docs/reference');
console.log(`element pages: ${tags.join(', ')}`);
writeLlms('docs', 'README.md');
run(process.execPath, [
  'scripts/make-demo-session.mjs',
  '--kib',
  '16',
  '--out',
  'docs/public/demo-session.jsonl',
]);
if (!prepare) run(process.execPath, ['node_modules/vitepress/bin/vitepress.js', 'build', 'docs']);
