// The packed-tarball check (`node --test scripts/pack-check.mjs`, the `pack` test layer):
// builds and packs with npm (scripts/pack-tarball.mjs; under npm test, its build step did it
// just before), installs the tarball into a scratch ESM project the way a user
// would, then imports it by its package name from JavaScript and type-checks a strict
// NodeNext TypeScript consumer against the published declarations. Needs the npm registry
// (or a warm npm cache) for the tarball's dependencies and typescript@5.9.3.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { denoDeclarations, markedSamples } from './doc-samples.mjs';
import { packedTarball } from './pack-tarball.mjs';
import { env, npm, run } from './run-command.mjs';

const repository = fileURLToPath(new URL('..', import.meta.url));

/** The scratch folder of the consumer projects (removed at the end). */
/** @type {string | undefined} */
let scratch;
/** The consumer project the tarball is installed in. */
/** @type {string} */
let project;
/** The packed tarball and the paths of the files it holds. */
/** @type {{ tarball: string, files: string[] }} */
let packed;

// Versions the consumer projects install (the frameworks' typings are checked against these).
const consumerDependencies = [
  'typescript@5.9.3',
  '@types/node@20',
  '@types/react@19',
  'vue@3.5',
  'vue-tsc@3',
  // The optional peer of callfold/server/redis, which the guide's Redis samples import.
  'ioredis@5',
];

before(
  () => {
    scratch = mkdtempSync(join(tmpdir(), 'callfold-pack-'));
    packed = packedTarball();
    project = join(scratch, 'consumer');
    mkdirSync(project);
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: 'callfold-consumer', private: true, type: 'module' }, null, 2),
    );
    run(
      npm,
      [
        'install',
        packed.tarball,
        ...consumerDependencies,
        '--no-audit',
        '--no-fund',
        '--prefer-offline',
      ],
      project,
    );
  },
  { timeout: 600_000 },
);

after(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

test('the tarball holds the built entry points and no sources, tests or benchmarks', () => {
  const { files } = packed;
  for (const entry of ['package.json', 'dist/src/index.js', 'dist/src/index.d.ts']) {
    assert.ok(files.includes(entry), `${entry} is missing from the tarball`);
  }
  const stray = files.filter(
    (path) =>
      /^(src|test|bench|examples|scripts)\//.test(path) ||
      (path.endsWith('.ts') && !path.endsWith('.d.ts')),
  );
  assert.deepEqual(stray, [], 'sources, tests, benchmarks or examples were packed');
});

test('the published code carries no dev-mode instrumentation: no DEV_MODE guard, no probe counter', () => {
  const devCode = /\bDEV_MODE\b|\bargumentProbe\b|\bgroupProbe\b/;
  // The control: the sources do count (the build strips it; see scripts/strip-dev-mode.mjs).
  const index = readFileSync(join(repository, 'src/arguments/argument-index.ts'), 'utf8');
  assert.match(index, /if \(DEV_MODE\) argumentProbe\.scanned/);
  const installed = join(project, 'node_modules', 'callfold', 'dist');
  /** @type {string[]} */
  const carrying = [];
  /** @param {string} dir */
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (devCode.test(readFileSync(path, 'utf8')))
        carrying.push(path.slice(installed.length + 1));
    }
  };
  walk(installed);
  assert.deepEqual(carrying, [], 'published files mention DEV_MODE or a probe');
  assert.ok(!packed.files.some((path) => /\/(probe|dev-mode)\.(js|d\.ts)$/.test(path)));
});

const streamingConsumer = `
import assert from 'node:assert/strict';
import { PartialArguments } from 'callfold';

// Escapes, a non-BMP character and enough text to cross several 1024-unit steps.
const content = 'export const greeting = "h\\u00e9llo \\u{1F44B}";\\n\\tconsole.log(greeting);\\n'.repeat(120);
const text = JSON.stringify({ file_path: 'src/hello.ts', content });

const args = PartialArguments.streaming();
let pathWhileContentOpen;
let previous = 0;
for (let at = 0; at < text.length; at += 7) {
  args.append(text.slice(at, at + 7));
  if (args.complete('file_path') && !args.complete('content')) {
    pathWhileContentOpen ??= args.text('file_path');
  }
  const length = args.stringLength('content', { step: 1024 });
  if (length !== undefined && !args.complete('content')) {
    assert.equal(length % 1024, 0, 'an open length is a multiple of the step');
    assert.ok(length >= previous && length <= content.length, 'an open length only grows');
    previous = length;
  }
}
assert.equal(pathWhileContentOpen, 'src/hello.ts', 'the path is readable once it closes');
assert.ok(previous >= 1024, 'the content length grew while it streamed');
assert.equal(args.stringLength('content', { step: 1024 }), content.length, 'exact once complete');
assert.equal(args.text('content'), content);
const sealed = args.seal(text);
assert.equal(sealed, args, 'matching fragments seal the same reader');
assert.equal(sealed.closed(), true);
assert.equal(sealed.invalid, null);
assert.deepEqual(sealed.value('content'), content);
console.log('streamed', text.length, 'units');
`;

test('an installed copy streams a write call through PartialArguments', () => {
  writeFileSync(join(project, 'stream.mjs'), streamingConsumer);
  assert.match(run(process.execPath, ['stream.mjs'], project), /^streamed \d+ units/);
});

const serverConsumer = `
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { followSession, loadHistory } from 'callfold';
import { memoryStore, sessionHandler } from 'callfold/server';
import { fileStore } from 'callfold/server/file';

assert.equal(typeof followSession, 'function');
assert.equal(typeof loadHistory, 'function');
const dir = mkdtempSync(join(tmpdir(), 'callfold-pack-store-'));
for (const store of [memoryStore(), fileStore({ dir })]) {
  await store.append('s1', [{ type: 'turn/start', turnId: 't' }]);
  const handler = sessionHandler(store, { sessionId: () => 's1', authorize: () => true });
  const page = await (await handler(new Request('http://x/s1'))).json();
  assert.deepEqual(page.map((event) => event.seq), [1]);
  await store.close();
}
rmSync(dir, { recursive: true, force: true });
console.log('served');
`;

test('an installed copy serves a session from callfold/server and callfold/server/file', () => {
  writeFileSync(join(project, 'serve.mjs'), serverConsumer);
  assert.match(run(process.execPath, ['serve.mjs'], project), /^served/);
});

const typedConsumer = `
import { type ArgumentKind, PartialArguments } from 'callfold';
import { memoryStore, type SessionStore, sessionHandler } from 'callfold/server';

const store: SessionStore = memoryStore();
const handler: (request: Request) => Promise<Response> = sessionHandler(store, {
  sessionId: (request) => new URL(request.url).pathname.slice(1),
  authorize: (request) => request.headers.get('authorization') !== null,
});

const args: PartialArguments = PartialArguments.streaming();
args.append('{"file_path":"src/hello.ts","content":"export {}');
const path: string | undefined = args.complete('file_path') ? args.text('file_path') : undefined;
const size: number | undefined = args.stringLength('content', { step: 1024 });
const kind: ArgumentKind | undefined = args.kind('content');
const sealed: PartialArguments = args.seal('{"file_path":"src/hello.ts","content":"export {}"}');
const changed: boolean = sealed.refresh();
const problem: Error | null = sealed.invalid;
const value: unknown = PartialArguments.fromObject({ a: 1 }).value('a');
const empty: PartialArguments = PartialArguments.empty;

// @ts-expect-error answers are typed, not any
const wrong: number = args.text('file_path');

export { changed, empty, handler, kind, path, problem, size, value, wrong };
`;

test('a strict NodeNext TypeScript consumer type-checks against the published declarations', () => {
  writeFileSync(join(project, 'consumer.ts'), typedConsumer);
  // A browser-typed consumer (lib ES2023 + DOM, no Node types): the stream-facing API names
  // web types (ReadableStream, rxjs's setTimeout), which every runtime callfold targets has.
  const compilerOptions = {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    lib: ['ES2023', 'DOM'],
    types: [],
    strict: true,
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
    skipLibCheck: false,
    noEmit: true,
  };
  writeFileSync(
    join(project, 'tsconfig.json'),
    JSON.stringify({ compilerOptions, files: ['consumer.ts'] }, null, 2),
  );
  run(process.execPath, [join(project, 'node_modules/typescript/bin/tsc'), '-p', '.'], project);
});

test('every entry of package.json exports resolves to files in the tarball', () => {
  const manifest = JSON.parse(readFileSync(join(repository, 'package.json'), 'utf8'));
  const missing = [];
  for (const [entry, target] of Object.entries(manifest.exports)) {
    const paths = typeof target === 'string' ? [target] : Object.values(target);
    for (const path of paths) {
      const file = path.replace(/^\.\//, '');
      if (!file.includes('*')) {
        if (!packed.files.includes(file)) missing.push(`${entry} → ${file}`);
        continue;
      }
      // A wildcard entry: at least one packed file matches it.
      const [prefix, suffix] = file.split('*');
      if (!packed.files.some((f) => f.startsWith(prefix) && f.endsWith(suffix)))
        missing.push(`${entry} → ${file}`);
    }
  }
  assert.deepEqual(missing, []);
  for (const entry of ['LICENSE', 'README.md', 'custom-elements.json']) {
    assert.ok(packed.files.includes(entry), `${entry} is missing from the tarball`);
  }
  for (const framework of ['react', 'vue', 'svelte']) {
    for (const ext of ['js', 'd.ts']) {
      const file = `dist/elements/${framework}.${ext}`;
      assert.ok(packed.files.includes(file), `${file} is missing from the tarball`);
    }
  }
});

test('npm publish --dry-run is clean (no warning but the missing login)', () => {
  const result = spawnSync(npm, ['publish', '--dry-run'], {
    cwd: repository,
    env,
    encoding: 'utf8',
    shell: process.platform === 'win32',
  });
  assert.equal(result.status, 0, result.stderr);
  const warnings = `${result.stdout}${result.stderr}`
    .split('\n')
    .filter((line) => /^npm warn/i.test(line) && !/requires you to be logged in/.test(line));
  assert.deepEqual(warnings, []);
});

// Runs in the consumer project with its own TypeScript: each job is one set of compiler
// options and groups of root files; each group is its own program (so one group's imports
// cannot bring another's global augmentations along). Prints the diagnostics per group.
const typecheckScript = `
import ts from 'typescript';
const jobs = JSON.parse(process.argv[2]);
const results = {};
for (const { options, groups, emit } of jobs) {
  const { options: parsed, errors } = ts.convertCompilerOptionsFromJson(options, process.cwd());
  if (errors.length) throw new Error(ts.flattenDiagnosticMessageText(errors[0].messageText, '\\n'));
  const host = ts.createCompilerHost(parsed);
  const cache = new Map();
  const read = host.getSourceFile;
  host.getSourceFile = (name, ...rest) => {
    if (!cache.has(name)) cache.set(name, read.call(host, name, ...rest));
    return cache.get(name);
  };
  for (const [name, files] of Object.entries(groups)) {
    const program = ts.createProgram(files, parsed, host);
    const diagnostics = [...ts.getPreEmitDiagnostics(program)];
    if (emit) diagnostics.push(...program.emit().diagnostics);
    results[name] = diagnostics.map((d) => {
      const at = d.file ? d.file.fileName.split('/').pop() + ':' + (d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1) + ' ' : '';
      return at + 'TS' + d.code + ' ' + ts.flattenDiagnosticMessageText(d.messageText, '\\n');
    });
  }
}
console.log(JSON.stringify(results));
`;

/**
 * Runs `typecheckScript` in the consumer project.
 * @param {{ options: Record<string, unknown>, groups: Record<string, string[]>, emit?: boolean }[]} jobs
 * @returns {Record<string, string[]>} the diagnostics of each group
 */
function typecheck(jobs) {
  writeFileSync(join(project, 'typecheck.mjs'), typecheckScript);
  return JSON.parse(run(process.execPath, ['typecheck.mjs', JSON.stringify(jobs)], project));
}

// Library declarations are checked once per resolution (the `declarations` groups); the other
// programs skip them, as most projects do, which keeps each program to a second or two.
const strictness = {
  target: 'ES2022',
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  skipLibCheck: true,
  noEmit: true,
};
const checkDeclarations = { skipLibCheck: false, skipDefaultLibCheck: true };
const resolutions = {
  bundler: { module: 'ESNext', moduleResolution: 'Bundler' },
  node16: { module: 'Node16', moduleResolution: 'Node16' },
};
const browser = { lib: ['ES2023', 'DOM', 'DOM.Iterable'], types: [] };

/** One consumer file per element entry point: it imports that entry alone. */
const entryConsumers = {
  'tool-row': `import 'callfold/elements/tool-row';
const row = document.createElement('tool-row');
row.node = undefined;
row.addEventListener('tool-open-path', (event) => {
  const path: string = event.detail.path;
  console.log(path, event.detail.node.callId);
});
row.addEventListener('tool-row-toggle', (event) => console.log(event.detail.expanded));
`,
  'tool-group': `import 'callfold/elements/tool-group';
import type { ToolGroupToggleEvent } from 'callfold/elements/tool-group';
const group = document.querySelector('tool-group')!;
const onToggle = (event: ToolGroupToggleEvent) => console.log(event.detail.id);
group.addEventListener('tool-group-toggle', onToggle);
group.addEventListener('tool-open-path', (event) => console.log(event.detail.path));
document.createElement('tool-row').expanded = true;
`,
  'tool-timeline': `import 'callfold/elements/tool-timeline';
import { type CallfoldEvent } from 'callfold';
import { of } from 'rxjs';
const timeline = document.querySelector('tool-timeline')!;
timeline.source = of<CallfoldEvent>({ type: 'turn/start', seq: 1, turnId: 't1' });
timeline.addEventListener('tool-open-path', (event) => console.log(event.detail.path));
timeline.addEventListener('tool-timeline-error', (event) => console.log(event.detail.error));
`,
  index: `import { ToolTimelineElement } from 'callfold/elements/index';
const timeline: ToolTimelineElement = document.createElement('tool-timeline');
timeline.addEventListener('tool-open-path', (event) => console.log(event.detail.path));
`,
  classes: `import { ToolRowElement } from 'callfold/elements/classes';
customElements.define('my-row', class extends ToolRowElement {});
const row = new ToolRowElement();
row.addEventListener('tool-open-path', (event) => console.log(event.detail.path));
`,
};
// The negative twin: the tag is known, the property's type is wrong.
const negativeConsumer = `import 'callfold/elements/tool-row';
document.createElement('tool-row').node = 12345;
`;
const wrongNodeType = /TS2322 Type 'number' is not assignable to type 'ToolNode'/;

test('every element entry point brings its typed events and tags to a consumer (bundler and node16 resolution), and a wrong property type fails', () => {
  mkdirSync(join(project, 'entries'), { recursive: true });
  /** @type {Record<string, string[]>} */
  const groups = {};
  for (const [entry, code] of Object.entries(entryConsumers)) {
    writeFileSync(join(project, 'entries', `${entry}.ts`), code);
    groups[entry] = [`entries/${entry}.ts`];
  }
  writeFileSync(join(project, 'entries/negative.ts'), negativeConsumer);
  groups.negative = ['entries/negative.ts'];
  const entries = Object.keys(entryConsumers).map((entry) => `entries/${entry}.ts`);
  const jobs = Object.values(resolutions).flatMap((resolution) => [
    { options: { ...strictness, ...resolution, ...browser }, groups },
    {
      options: { ...strictness, ...resolution, ...browser, ...checkDeclarations },
      groups: { declarations: entries },
    },
  ]);
  /** @type {[string, Record<string, string[]>][]} */
  const results = [
    ['bundler', typecheck(jobs.slice(0, 2))],
    ['node16', typecheck(jobs.slice(2))],
  ];
  for (const [name, result] of results) {
    assert.deepEqual(result.declarations, [], `${name}: the published declarations`);
    for (const entry of Object.keys(entryConsumers)) {
      assert.deepEqual(result[entry], [], `${name}: callfold/elements/${entry}`);
    }
    const negative = result.negative ?? [];
    assert.equal(negative.length, 1, `${name}: ${negative.join('\n')}`);
    assert.match(negative[0] ?? '', wrongNodeType, name);
  }
});

const reactConsumer = `import { useState } from 'react';
import 'callfold/elements/tool-timeline';
import type {} from 'callfold/elements/react';
import { type CallfoldEvent } from 'callfold';
import { of } from 'rxjs';

export function Activity({ onOpen }: { onOpen: (path: string) => void }) {
  const [source] = useState(() => of<CallfoldEvent>({ type: 'turn/start', seq: 1, turnId: 't1' }));
  return (
    <tool-timeline
      source={source}
      expandGroups
      ontool-open-path={(event) => onOpen(event.detail.path)}
      ontool-timeline-error={(event) => console.error(event.detail.error)}
    >
      <p slot="empty">No activity yet.</p>
    </tool-timeline>
  );
}
`;
const reactNegative = `import 'callfold/elements/tool-row';
import type {} from 'callfold/elements/react';

export const Row = () => <tool-row node={12345} />;
`;

test('React 19: a TSX consumer typechecks the tags with callfold/elements/react, and a wrong property type fails for its type', () => {
  mkdirSync(join(project, 'react'), { recursive: true });
  writeFileSync(join(project, 'react/activity.tsx'), reactConsumer);
  writeFileSync(join(project, 'react/negative.tsx'), reactNegative);
  const options = { ...strictness, ...resolutions.bundler, ...browser, jsx: 'react-jsx' };
  const result = typecheck([
    { options, groups: { negative: ['react/negative.tsx'] } },
    // The generated react.d.ts itself is checked here (against @types/react).
    { options: { ...options, ...checkDeclarations }, groups: { activity: ['react/activity.tsx'] } },
  ]);
  assert.deepEqual(result.activity, []);
  const negative = result.negative ?? [];
  assert.equal(negative.length, 1, negative.join('\n'));
  assert.match(negative[0] ?? '', wrongNodeType);
  assert.doesNotMatch(negative[0] ?? '', /IntrinsicElements/);
});

const vueConsumer = `<script setup lang="ts">
import 'callfold/elements/tool-timeline';
import type {} from 'callfold/elements/vue';
import type { CallfoldEvent } from 'callfold';
import { of } from 'rxjs';

const source = of<CallfoldEvent>({ type: 'turn/start', seq: 1, turnId: 't1' });
const opened: string[] = [];
function onOpen(path: string): void {
  opened.push(path);
}
</script>

<template>
  <tool-timeline :source="source" expand-groups @tool-open-path="onOpen($event.detail.path)">
    <p slot="empty">No activity yet.</p>
  </tool-timeline>
</template>
`;
const vueNegative = `<script setup lang="ts">
import 'callfold/elements/tool-row';
import type {} from 'callfold/elements/vue';
</script>

<template>
  <tool-row :node="12345" />
</template>
`;

/**
 * vue-tsc over `vue/<file>.vue` in the consumer project.
 * @param {string} name the tsconfig's name
 * @param {readonly string[]} files
 */
function vueTsc(name, files) {
  const config = `tsconfig.${name}.json`;
  writeFileSync(
    join(project, config),
    JSON.stringify({
      compilerOptions: { ...strictness, ...resolutions.bundler, ...browser, jsx: 'preserve' },
      files: files.map((file) => `vue/${file}.vue`),
    }),
  );
  return spawnSync(
    process.execPath,
    [join(project, 'node_modules/vue-tsc/bin/vue-tsc.js'), '-p', config],
    { cwd: project, env, encoding: 'utf8' },
  );
}

test("Vue 3: an SFC and the guide's recipe typecheck the tags with vue-tsc and callfold/elements/vue, and a wrong property type fails for its type", () => {
  mkdirSync(join(project, 'vue'), { recursive: true });
  writeFileSync(join(project, 'vue/App.vue'), vueConsumer);
  writeFileSync(join(project, 'vue/Negative.vue'), vueNegative);
  // The guide's Vue recipe too (docs/guide/frameworks.md).
  const recipes = markedSamples(repository, { '<!-- typecheck: vue -->': 'vue' });
  assert.ok(recipes.length >= 1, 'the guide has a Vue recipe');
  for (const recipe of recipes) writeFileSync(join(project, `vue/${recipe.name}.vue`), recipe.code);
  const good = vueTsc('good', ['App', ...recipes.map((recipe) => recipe.name)]);
  assert.equal(good.status, 0, `${good.stdout}${good.stderr}`);
  const bad = vueTsc('negative', ['Negative']);
  const output = `${bad.stdout}${bad.stderr}`;
  assert.notEqual(bad.status, 0, 'a number bound to :node must not typecheck');
  assert.match(output, /Type 'number' is not assignable to type 'ToolNode/);
});

test('the samples of the README and the guide typecheck against the installed package (one program per setting), and their Node samples run from it', () => {
  const browserSamples = markedSamples(repository, { '<!-- typecheck -->': 'ts' });
  const nodeSamples = markedSamples(repository, { '<!-- tested -->': 'ts' });
  // Typechecked with the Node ones; test/docs/samples.node.test.ts runs them in Deno.
  const denoSamples = markedSamples(repository, { '<!-- tested: deno -->': 'ts' });
  const reactSamples = markedSamples(repository, { '<!-- typecheck: react -->': 'tsx' });
  // As many as the pages hold today, give or take a few: a page that moves or loses its
  // samples fails here rather than quietly testing less.
  assert.ok(browserSamples.length >= 3, `browser samples: ${browserSamples.length}`);
  assert.ok(nodeSamples.length >= 18, `Node samples: ${nodeSamples.length}`);
  assert.ok(reactSamples.length >= 1, `React samples: ${reactSamples.length}`);
  assert.ok(denoSamples.length >= 2, `Deno samples: ${denoSamples.length}`);
  assert.ok(
    nodeSamples.some((sample) => sample.page === 'README.md') &&
      nodeSamples.some((sample) => sample.page === 'docs/guide/serving.md'),
    'Node samples come from the README and the guide',
  );
  mkdirSync(join(project, 'samples'), { recursive: true });
  /**
   * @param {readonly { name: string, code: string }[]} samples
   * @param {string} ext
   */
  const write = (samples, ext) =>
    samples.map((sample) => {
      const file = `samples/${sample.name}.${ext}`;
      // `export {}` makes each sample a module (top-level await, no shared globals).
      writeFileSync(join(project, file), `${sample.code}\nexport {};\n`);
      return file;
    });
  const browserFiles = [...write(browserSamples, 'ts'), ...write(reactSamples, 'tsx')];
  const nodeFiles = write(nodeSamples, 'mts');
  writeFileSync(join(project, 'samples/deno.d.ts'), denoDeclarations);
  const denoFiles = [...write(denoSamples, 'mts'), 'samples/deno.d.ts'];
  const result = typecheck([
    {
      options: { ...strictness, ...resolutions.bundler, ...browser, jsx: 'react-jsx' },
      groups: { browser: browserFiles },
    },
    {
      options: {
        ...strictness,
        ...resolutions.node16,
        lib: ['ES2023'],
        types: ['node'],
        noEmit: false,
        outDir: 'samples-built',
        rootDir: '.',
      },
      groups: { node: [...nodeFiles, ...denoFiles] },
      emit: true,
    },
  ]);
  assert.deepEqual(Object.keys(result).sort(), ['browser', 'node']);
  for (const [group, diagnostics] of Object.entries(result)) {
    assert.deepEqual(diagnostics, [], `the ${group} samples`);
  }
  for (const file of nodeFiles) {
    const built = join('samples-built', file.replace(/\.mts$/, '.mjs'));
    run(process.execPath, [built], project);
  }
});

test('deno publish --dry-run passes: deno.json names the JSR package, its exports have no slow types', () => {
  const deno = join(repository, 'node_modules/.bin/deno');
  const output = run(deno, ['publish', '--dry-run', '--allow-dirty'], repository);
  assert.doesNotMatch(output, /warning/i);
  const config = JSON.parse(readFileSync(join(repository, 'deno.json'), 'utf8'));
  const manifest = JSON.parse(readFileSync(join(repository, 'package.json'), 'utf8'));
  assert.equal(config.version, manifest.version, 'deno.json and package.json versions agree');
});
