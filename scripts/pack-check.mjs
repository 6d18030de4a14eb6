// The packed-tarball check (`node --test scripts/pack-check.mjs`, the `pack` test layer):
// builds, packs with npm, installs the tarball into a scratch ESM project the way a user
// would, then imports it by its package name from JavaScript and type-checks a strict
// NodeNext TypeScript consumer against the published declarations. Needs the npm registry
// (or a warm npm cache) for the tarball's dependencies and typescript@5.9.3.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const repository = fileURLToPath(new URL('..', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

// Under `npm test` the parent npm exports its project (local prefix, package fields) into the
// environment; a nested npm must find the scratch project from its own working directory.
const env = Object.fromEntries(
  Object.entries(process.env).filter(
    ([name]) => !/^npm_(config_local_prefix$|package_|lifecycle_|command$)/i.test(name),
  ),
);

function run(command, args, cwd) {
  const result = spawnSync(command, args, {
    cwd,
    env,
    encoding: 'utf8',
    shell: process.platform === 'win32',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0) {
    const output = `${result.stdout ?? ''}${result.stderr ?? ''}`.trim();
    throw new Error(
      `\`${[command, ...args].join(' ')}\` in ${cwd} failed (${result.error?.message ?? `exit ${result.status}`})\n${output}`,
    );
  }
  return result.stdout;
}

let scratch;
let project;
let packed;

before(
  () => {
    scratch = mkdtempSync(join(tmpdir(), 'callfold-pack-'));
    // A clean build: tsc never deletes outputs whose sources are gone, and npm would pack them.
    for (const built of ['dist/src', 'dist/elements']) {
      rmSync(join(repository, built), { recursive: true, force: true });
    }
    run(npm, ['run', 'build'], repository);
    const tarballs = join(scratch, 'tarballs');
    mkdirSync(tarballs);
    const [report] = JSON.parse(
      run(npm, ['pack', '--json', '--pack-destination', tarballs], repository),
    );
    packed = {
      tarball: join(tarballs, report.filename),
      files: report.files.map((file) => file.path),
    };

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
        'typescript@5.9.3',
        '--no-audit',
        '--no-fund',
        '--prefer-offline',
      ],
      project,
    );
  },
  { timeout: 300_000 },
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
