// `npm test`: typecheck and lint; the package built and packed once, and the packed tarball
// checked (installed in scratch projects and the framework apps); then the same compiled core
// tests in Node (node:test), Deno (deno test) and Chromium (web-test-runner).
// `node scripts/test.mjs <layer>…` runs chosen layers one after the other: check, pack, node,
// deno, browser, docs.
//
// The whole suite (no layer named) runs its steps side by side, at most three at a time: each
// starts once the steps it needs are done (the Node tests need the compile and the build, the
// tarball's checks the build…), the ready step that starts first being the one that comes
// first in `priority` (the longest first, so that no long step is left to run alone at the
// end). No step shares a file, a port or a browser profile with another (servers listen on
// port 0, Chromium gets a fresh profile per launch), and every test's verdict is independent
// of the machine's speed, so running side by side only changes how long the run takes.
// `--serial` runs the whole suite one step after the other. One step's output streams
// through at a time; the others' is printed whole when each ends. The last lines give each
// layer's wall time and, on Linux, its CPU time (so that growth shows), and total what the
// runners counted.
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { setPriority } from 'node:os';
import { coreBundles, testFiles } from './test-bundles.mjs';

/**
 * A step of a layer: a command, and the patterns of its passed and failed counts.
 * @typedef {{ name: string, cmd: string, args: string[] | (() => string[]),
 *   env?: Record<string, string>,
 *   count?: [passed: RegExp, failed: RegExp] }} Step
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
    {
      name: 'typecheck (docs site)',
      cmd: bin('tsc'),
      args: ['-p', 'docs/.vitepress/tsconfig.json'],
    },
    { name: 'lint', cmd: bin('biome'), args: ['check', '.'] },
    { name: 'layers', cmd: process.execPath, args: ['scripts/check-layers.mjs'] },
  ],
  node: [
    compile,
    {
      name: 'node',
      cmd: process.execPath,
      // Three files at a time: many of the Node-only ones mostly wait (a Chromium page at a
      // recorded pace, a redis-server, a child process), and each is its own process with its
      // own ports and temporary folders. They go first, as the longest; the core bundles fill in.
      // node-test-setup.mjs keeps node:test's async hook off promises and without `destroy`:
      // the runner's own made every await of a test many times dearer (Node 20).
      args: () => [
        '--import=./scripts/node-test-setup.mjs',
        '--test',
        '--test-concurrency=3',
        '--test-reporter=spec',
        ...testFiles('.build/test', ['.build/test/elements']).filter((file) =>
          file.endsWith('.node.test.js'),
        ),
        ...coreBundles(),
      ],
      count: [/^ℹ pass (\d+)/m, /^ℹ fail (\d+)/m],
    },
  ],
  deno: [
    compile,
    {
      name: 'deno',
      cmd: bin('deno'),
      // --parallel: a worker per core, each bundle of core test files in one of them.
      args: () => [
        'test',
        '--parallel',
        '--allow-read',
        '--allow-env',
        '--no-check',
        ...coreBundles(),
      ],
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
    // `npm run build` and `npm pack`, once: the Node tests need dist/, the checks below the
    // tarball.
    { name: 'build', cmd: process.execPath, args: ['scripts/pack-tarball.mjs'] },
    {
      name: 'pack',
      cmd: process.execPath,
      args: ['--test', '--test-reporter=spec', 'scripts/pack-check.mjs'],
      env: { CALLFOLD_PACKED: '1' },
      count: [/^ℹ pass (\d+)/m, /^ℹ fail (\d+)/m],
    },
    {
      // The framework apps, installed from the tarball the build step packed.
      name: 'framework apps',
      cmd: process.execPath,
      args: ['--test', '--test-reporter=spec', 'scripts/examples-check.mjs'],
      count: [/^ℹ pass (\d+)/m, /^ℹ fail (\d+)/m],
    },
  ],
  docs: [
    {
      // The site's checker reports planted faults (a broken anchor, a console error…).
      name: 'docs checker',
      cmd: process.execPath,
      args: ['--test', '--test-reporter=spec', 'scripts/docs-check.test.mjs'],
      count: [/^ℹ pass (\d+)/m, /^ℹ fail (\d+)/m],
    },
    // `npm run docs`: the reference, the element pages, llms.txt, then VitePress, which fails
    // on a dead link.
    { name: 'docs build', cmd: process.execPath, args: ['scripts/docs-build.mjs'] },
    // Every page in Chromium, every internal link and anchor, the live elements.
    { name: 'docs check', cmd: process.execPath, args: ['scripts/docs-check.mjs'] },
  ],
};

const argv = process.argv.slice(2);
const serial = argv.includes('--serial');
const chosen = argv.filter((arg) => arg !== '--serial');
for (const name of chosen) {
  if (!Object.hasOwn(layers, name)) {
    console.error(`unknown test layer "${name}"; layers: ${Object.keys(layers).join(', ')}`);
    process.exit(2);
  }
}

/** @typedef {{ step: Step, layer: string }} Planned */
/** @param {string[]} names @returns {Planned[]} the layers' steps in order, each step once */
const plan = (names) => {
  /** @type {Planned[]} */
  const steps = [];
  for (const name of names) {
    for (const step of layers[name] ?? []) {
      if (!steps.some((s) => s.step === step)) steps.push({ step, layer: name });
    }
  }
  return steps;
};
/**
 * Check steps that another step of the whole suite already does: `npm run build` (in pack)
 * compiles tsconfig.build.json and tsconfig.build-node.json and fails on a type error, and
 * the compile (tsconfig.test.json) typechecks all that tsconfig.json does. When the suite
 * runs both, the check layer does not typecheck them a second time.
 * @type {Map<string, string>} check step → the step that covers it
 */
const coveredBy = new Map([
  ['typecheck (src, no DOM/Node)', 'pack'],
  ['typecheck (src Node-only modules, no DOM)', 'pack'],
  ['typecheck', 'compile'],
]);
/** @param {Planned[]} steps @returns {Planned[]} */
const uncovered = (steps) =>
  steps.filter(({ step }) => {
    const by = coveredBy.get(step.name);
    return by === undefined || !steps.some((s) => s.step.name === by);
  });
const whole = chosen.length === 0;
const planned = uncovered(
  plan(whole ? ['check', 'pack', 'node', 'deno', 'browser', 'docs'] : chosen),
);
/** Steps at a time: one at a time when layers are named or with `--serial`. */
const slots = whole && !serial ? 3 : 1;
/**
 * Which ready step starts first, by name: the ones others wait for, then the long ones that
 * run on one core (the framework apps and the tarball's checks run one tool after another; the
 * site's build and check follow), then those that spread over both cores (the Node files three
 * at a time, the Chromium pages two, Deno a worker per core), which fill the end of the run.
 * The short checks fill the third place while the build and the compile run. With the site's
 * build and check last, two clean-clone runs on the quiet machine (2026-12-06) spent their last
 * 40–60 s on them alone, a core idle for a quarter of that time or more.
 */
const priority = [
  'build',
  'compile',
  'framework apps',
  'pack',
  'node',
  'docs build',
  'docs check',
  'chromium',
  'deno',
  'typecheck (docs site)',
  'typecheck (scripts, checkJs)',
  'lint',
  'layers',
  'docs checker',
];
/**
 * The steps that spread over both cores, run a little below normal priority (nice 5) when the
 * whole suite runs three steps at a time: the one-core steps (a tool after another) then move
 * at the speed of a core, and the spread ones take what is left, so the run's end is theirs,
 * which can use both cores. A test's verdict never depends on its speed (CONTRIBUTING), and
 * `npm run test:stress` runs the Node layer against two busy loops at normal priority.
 */
const spread = new Set(['node', 'chromium', 'deno']);
/** @param {Planned} p */
const rank = (p) => {
  const i = priority.indexOf(p.step.name);
  return i === -1 ? priority.length : i;
};
/** The steps in the order they may start (the plan's order when one at a time). */
const queue = slots === 1 ? planned : [...planned].sort((a, b) => rank(a) - rank(b));
/** What a step waits for, when the run has it. @type {Map<string, string[]>} */
const needs = new Map([
  ['node', ['compile', 'build']],
  ['deno', ['compile']],
  ['chromium', ['compile']],
  ['pack', ['build']],
  ['framework apps', ['build']],
  ['docs check', ['docs build']],
  // The site's element pages are read from custom-elements.json, which the build rewrites.
  ['docs build', ['build']],
]);
// The documentation samples: when this run packs, the pack layer checks them against the
// installed tarball, and the Node layer skips its own copy of that work
// (test/docs/samples.node.test.ts).
const nodeStep = layers.node?.find((s) => s.name === 'node');
if (nodeStep && planned.some((s) => s.step.name === 'pack')) {
  nodeStep.env = { CALLFOLD_SAMPLES_PACKED: '1' };
}
if (planned.some((s) => s.step === compile)) rmSync('.build', { recursive: true, force: true });

/** The names of the steps that ended, and whether each passed. @type {Map<string, boolean>} */
const ended = new Map();

// biome-ignore lint/suspicious/noControlCharactersInRegex: stripping ANSI colour codes.
const ansi = /\x1b\[[0-9;]*m/g;
let passed = 0;
let failed = 0;
let stopping = false;
/** Wall time of each layer, in ms (its steps' times added), in the order run. @type {Map<string, number>} */
const wall = new Map();
/** CPU time of each layer, in s (user + system of its processes and their children). @type {Map<string, number>} */
const cpu = new Map();
/**
 * CPU seconds of the children this process has waited for, on Linux (`cutime` + `cstime` of
 * /proc/self/stat, in clock ticks of 1/100 s); undefined elsewhere. They grow only when a
 * child is waited for, with its whole process tree's time: a step's CPU time is the growth
 * seen at its exit since the last exit of any step (other steps run meanwhile).
 * @returns {number | undefined}
 */
const childrenCpu = () => {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return undefined;
  }
};
let cpuSeen = childrenCpu();
const times = () =>
  [...wall]
    .map(([layer, ms]) => {
      const used = cpu.get(layer);
      const cpuText = used === undefined ? '' : ` (CPU ${used.toFixed(0)} s)`;
      return `${layer} ${(ms / 1000).toFixed(0)} s${cpuText}`;
    })
    .join(', ');
/**
 * Runs one step; its output streams through (`live`) or is printed whole when it ends.
 * @param {Planned} planned
 * @param {boolean} live
 * @returns {Promise<boolean>} whether it passed
 */
async function runStep({ step, layer }, live) {
  const args = typeof step.args === 'function' ? step.args() : step.args;
  const header = `\n── ${step.name}: ${[step.cmd, ...args].join(' ')}\n`;
  if (live) process.stdout.write(header);
  const started = performance.now();
  let output = '';
  /** @type {Buffer[]} */
  const held = [];
  const code = await new Promise((resolve) => {
    const child = spawn(step.cmd, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: step.env ? { ...process.env, ...step.env } : process.env,
    });
    // Before it starts processes of its own, which take its priority.
    if (slots > 1 && spread.has(step.name) && child.pid !== undefined) {
      try {
        setPriority(child.pid, 5);
      } catch {}
    }
    /**
     * @param {import('node:stream').Readable} stream
     * @param {NodeJS.WriteStream} target
     */
    const relay = (stream, target) =>
      stream.on('data', (/** @type {Buffer} */ chunk) => {
        if (live) target.write(chunk);
        else held.push(chunk);
        output += chunk.toString();
      });
    relay(child.stdout, process.stdout);
    relay(child.stderr, process.stderr);
    child.on('exit', () => {
      const now = childrenCpu();
      if (now !== undefined && cpuSeen !== undefined)
        cpu.set(layer, (cpu.get(layer) ?? 0) + now - cpuSeen);
      cpuSeen = now;
    });
    child.on('close', (status) => resolve(status ?? 1));
  });
  const ms = performance.now() - started;
  wall.set(layer, (wall.get(layer) ?? 0) + ms);
  if (!live) process.stdout.write(`${header}${Buffer.concat(held).toString()}`);
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
  if (slots > 1) {
    const from = ((started - runStarted) / 1000).toFixed(0);
    console.log(
      `── ${step.name}: ${code === 0 ? 'passed' : 'FAILED'} in ${(ms / 1000).toFixed(0)} s (from ${from} s into the run)`,
    );
  }
  if (code !== 0) {
    console.error(`\n${step.name} failed (exit ${code})`);
    failures.push({ name: step.name, text: whatFailed(output.replace(ansi, '')) });
  }
  return code === 0;
}

/**
 * The failed steps and what each printed of its failures, repeated at the end of the run.
 * @type {{ name: string, text: string }[]}
 */
const failures = [];
/** Lines of a failed step's output repeated at the end, at most. */
const failureLines = 200;
/**
 * What a failed step said of its failures: from node:test's closing "✖ failing tests:"
 * section when it printed one, else its last lines; at most `failureLines` lines. A run's
 * last lines are what a CI summary shows, and the steps that ran beside a failed one print
 * long after it.
 * @param {string} output
 */
const whatFailed = (output) => {
  const section = output.lastIndexOf('✖ failing tests:');
  const lines = (section === -1 ? output : output.slice(section)).trimEnd().split('\n');
  return (section === -1 ? lines.slice(-failureLines) : lines.slice(0, failureLines)).join('\n');
};

/** When the run started (`performance.now()`), for each step's start in its closing line. */
const runStarted = performance.now();

/** Whether a step's output streams through now (one at a time). */
let streaming = false;

/**
 * Runs the queue, at most `slots` steps at a time, each once the steps it needs have passed;
 * after a failure no step starts.
 * @returns {Promise<void>} when every started step has ended
 */
function runQueue() {
  const waiting = [...queue];
  let running = 0;
  return new Promise((resolve) => {
    const ready = (/** @type {Planned} */ p) =>
      (needs.get(p.step.name) ?? []).every(
        (need) => ended.get(need) === true || !planned.some((s) => s.step.name === need),
      );
    const next = () => {
      while (!stopping && running < slots) {
        const index = waiting.findIndex(ready);
        if (index === -1) break;
        const [step] = waiting.splice(index, 1);
        if (!step) break;
        running++;
        const live = !streaming;
        if (live) streaming = true;
        runStep(step, live).then((ok) => {
          if (live) streaming = false;
          ended.set(step.step.name, ok);
          if (!ok) stopping = true;
          running--;
          next();
        });
      }
      if (running === 0) resolve();
    };
    next();
  });
}

await runQueue();
const total = `${((performance.now() - runStarted) / 1000).toFixed(0)} s`;
if (stopping) {
  for (const { name, text } of failures) {
    console.log(`\n── what failed in ${name} (repeated from its output above)\n${text}`);
  }
  console.log(`\nwall time: ${times()} (all: ${total})`);
  console.log(`${passed} passed, ${Math.max(failed, 1)} failed`);
  process.exit(1);
}
console.log(`\nwall time: ${times()} (all: ${total}${slots > 1 ? `, ${slots} at a time` : ''})`);
console.log(`tests: ${passed} passed, ${failed} failed`);
