// The last step of `npm run build`: removes test-only instrumentation from the published
// build, as lit's release build drops its DEV_MODE code. In every compiled .js file under
// dist/ it deletes each statement `if (DEV_MODE) …;` (no else, directly in a statement list)
// and the imports of src/internal/dev-mode.js and of the probe modules, then deletes those
// modules. It fails, leaving the build unusable, when a guard has another shape or when any
// mention of DEV_MODE or a probe is left: the published code must not carry the counters.
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import ts from 'typescript';

const root = process.argv[2] ?? 'dist';
/** Modules that exist only for dev mode, by their path's ending. */
const DEV_ONLY = [
  '/internal/dev-mode',
  '/internal/probe',
  '/arguments/probe',
  '/tools/probe',
  '/assembler/probe',
];
const LEFTOVER = /\bDEV_MODE\b|\bargumentProbe\b|\bgroupProbe\b|\binternalProbe\b/;

/**
 * @param {string} dir
 * @returns {Generator<string>}
 */
function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else yield path;
  }
}

/** @param {string} specifierOrPath */
const isDevOnly = (specifierOrPath) =>
  DEV_ONLY.some((end) =>
    specifierOrPath
      .replace(/\\/g, '/')
      .replace(/\.(d\.ts|js)$/, '')
      .endsWith(end),
  );

/**
 * @param {string} path
 * @param {string} text
 */
function strip(path, text) {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  /** @type {import('typescript').Node[]} */
  const cuts = [];
  /** @param {import('typescript').Node} node */
  const visit = (node) => {
    if (
      ts.isImportDeclaration(node) &&
      ts.isStringLiteral(node.moduleSpecifier) &&
      isDevOnly(join(dirname(path), node.moduleSpecifier.text))
    ) {
      cuts.push(node);
      return;
    }
    if (
      ts.isIfStatement(node) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === 'DEV_MODE'
    ) {
      const inList = ts.isBlock(node.parent) || ts.isSourceFile(node.parent);
      if (node.elseStatement || !inList) {
        throw new Error(`${path}: a DEV_MODE guard must be a statement of its own, without else`);
      }
      cuts.push(node);
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  let out = text;
  for (const node of cuts.sort((a, b) => b.getStart() - a.getStart())) {
    let end = node.end;
    while (out[end] === ' ' || out[end] === '\t') end++;
    if (out[end] === '\n') end++;
    let start = node.getStart();
    while (start > 0 && (out[start - 1] === ' ' || out[start - 1] === '\t')) start--;
    out = out.slice(0, start) + out.slice(end);
  }
  return out;
}

let stripped = 0;
for (const path of [...files(root)]) {
  if (isDevOnly(path)) {
    rmSync(path);
    continue;
  }
  if (!path.endsWith('.js')) continue;
  const text = readFileSync(path, 'utf8');
  if (!LEFTOVER.test(text)) continue;
  const out = strip(path, text);
  if (LEFTOVER.test(out))
    throw new Error(`${path}: DEV_MODE or a probe is still mentioned after stripping`);
  writeFileSync(path, out);
  stripped++;
}
for (const path of files(root)) {
  if (path.endsWith('.d.ts') && LEFTOVER.test(readFileSync(path, 'utf8'))) {
    throw new Error(`${path}: a declaration mentions DEV_MODE or a probe`);
  }
}
console.log(`strip-dev-mode: ${stripped} files of ${root}/ stripped of DEV_MODE code`);
