// `npm test`: typecheck and lint; the packed-tarball check (it builds dist/, which the CLI
// test uses); then the same compiled core tests in Node (node:test), Deno (deno test) and
// Chromium (web-test-runner). `node scripts/test.mjs <layer>…` runs chosen layers: check,
// pack, node, deno, browser. Each runner's output streams through; the last line totals
// what the runners counted, and each layer's wall time (so that growth shows).
import { spawn } from 'node:child_process';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Compiled test files (Node 20's --test takes no globs).
 * @param {string} dir
 * @param {readonly string[]} [skip] folders left out
 * @returns {string[]}
 */
function testFiles(dir, skip = []) {
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
 * A step of a layer: a command, and the patterns of its passed and failed counts.
 * @typedef {{ name: string, cmd: string, args: string[] | (() => string[]),
 *   ignoreDirs?: string[], count?: [passed: RegExp, failed: RegExp] }} Step
 */

/** @param {string} name */
const bin = (name) => `node_modules/.bin/${name}`;
/** @type {Step} */
const compile = { name: 'compile', cmd: bin('tsc'), args: ['-p', 'tsconfig.test.json'] };
/** @type {Record<string, Step[]>} */
const layers = {
  check: [
    {
      name: 'typecheck (src, no DOM/Node)',
      cmd: bin('tsc'),
      args: ['-p', 'tsconfig.build.json', '--noEmit'],
    },
    {
      name: 'typecheck (src Node-only modules, no DOM)',
      cmd: bin('tsc'),
      args: ['-p', 'tsconfig.build-node.json', '--noEmit'],
    },
    { name: 'typecheck', cmd: bin('tsc'), args: ['-p', 'tsconfig.json'] },
    {
      name: 'typecheck (scripts, checkJs)',
      cmd: bin('tsc'),
      args: ['-p', 'tsconfig.scripts.json'],
    },
    { name: 'lint', cmd: bin('biome'), args: ['check', '.'] },
    { name: 'layers', cmd: process.execPath, args: ['scripts/check-layers.mjs'] },
  ],
  node: [
    compile,
    {
      name: 'node',
      cmd: process.execPath,
      args: () => [
        '--test',
        '--test-reporter=spec',
        ...testFiles('.build/test', ['.build/test/elements']),
      ],
      count: [/^ℹ pass (\d+)/m, /^ℹ fail (\d+)/m],
    },
  ],
  deno: [
    compile,
    {
      name: 'deno',
      cmd: bin('deno'),
      args: ['test', '--allow-read', '--allow-env', '--no-check', '.build/test/'],
      ignoreDirs: ['.build/test/elements', '.build/test/node'],
      // Deno counts each top-level describe as a test and its cases as steps.
      count: [/\d+ passed \((\d+) steps\)/, /(\d+) failed/],
    },
  ],
  browser: [
    compile,
    {
      name: 'chromium',
      cmd: process.execPath,
      args: [bin('wtr'), '--config', 'web-test-runner.config.mjs'],
      count: [/(\d+) passed/, /(\d+) failed/],
    },
  ],
  pack: [
    {
      name: 'pack',
      cmd: process.execPath,
      args: ['--test', '--test-reporter=spec', 'scripts/pack-check.mjs'],
      count: [/^ℹ pass (\d+)/m, /^ℹ fail (\d+)/m],
    },
    {
      // The framework apps, installed from the tarball the step above packed.
      name: 'framework apps',
      cmd: process.execPath,
      args: ['--test', '--test-reporter=spec', 'scripts/examples-check.mjs'],
      count: [/^ℹ pass (\d+)/m, /^ℹ fail (\d+)/m],
    },
  ],
};

const chosen = process.argv.slice(2);
// pack builds dist/ first, which the CLI test in the node layer runs.
const names = chosen.length ? chosen : ['check', 'pack', 'node', 'deno', 'browser'];
/** @type {{ step: Step, layer: string }[]} */
const steps = [];
for (const name of names) {
  const layer = Object.hasOwn(layers, name) ? layers[name] : undefined;
  if (!layer) {
    console.error(`unknown test layer "${name}"; layers: ${Object.keys(layers).join(', ')}`);
    process.exit(2);
  }
  for (const step of layer)
    if (!steps.some((s) => s.step === step)) steps.push({ step, layer: name });
}
if (steps.some((s) => s.step === compile)) rmSync('.build', { recursive: true, force: true });

// biome-ignore lint/suspicious/noControlCharactersInRegex: stripping ANSI colour codes.
const ansi = /\x1b\[[0-9;]*m/g;
let passed = 0;
let failed = 0;
/** Wall time of each layer run, in ms, in the order run. @type {Map<string, number>} */
const wall = new Map();
const times = () =>
  [...wall].map(([layer, ms]) => `${layer} ${(ms / 1000).toFixed(0)} s`).join(', ');
for (const { step, layer } of steps) {
  const started = performance.now();
  let args = typeof step.args === 'function' ? step.args() : step.args;
  if (step.ignoreDirs)
    args = [...args.slice(0, 1), `--ignore=${step.ignoreDirs.join(',')}`, ...args.slice(1)];
  console.log(`\n── ${step.name}: ${[step.cmd, ...args].join(' ')}`);
  let output = '';
  const code = await new Promise((resolve) => {
    const child = spawn(step.cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    /**
     * @param {import('node:stream').Readable} stream
     * @param {NodeJS.WriteStream} target
     */
    const relay = (stream, target) =>
      stream.on('data', (/** @type {Buffer} */ chunk) => {
        target.write(chunk);
        if (step.count) output += chunk.toString();
      });
    relay(child.stdout, process.stdout);
    relay(child.stderr, process.stderr);
    child.on('close', (status) => resolve(status ?? 1));
  });
  wall.set(layer, (wall.get(layer) ?? 0) + performance.now() - started);
  if (step.count) {
    const plain = output.replace(ansi, '');
    /** @param {RegExp} re */
    const lastNumber = (re) => {
      const all = [...plain.matchAll(new RegExp(re.source, `${re.flags.replace('g', '')}g`))];
      return all.length ? Number(all.at(-1)?.[1]) : 0;
    };
    passed += lastNumber(step.count[0]);
    failed += lastNumber(step.count[1]);
  }
  if (code !== 0) {
    console.error(`\n${step.name} failed (exit ${code})`);
    console.log(`wall time: ${times()}`);
    console.log(`${passed} passed, ${Math.max(failed, 1)} failed`);
    process.exit(1);
  }
}
console.log(`\nwall time: ${times()}`);
console.log(`tests: ${passed} passed, ${failed} failed`);
