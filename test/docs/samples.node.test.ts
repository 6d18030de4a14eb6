/**
 * The documentation's samples work: those of README.md and of every page under docs/ (not
 * the generated reference). Every ```ts block preceded by `<!-- tested -->` (run in Node),
 * `<!-- tested: deno -->` (run in Deno) or `<!-- typecheck -->` (browser code, typechecked
 * only) is written to `.build-samples/`, typechecked with the repository's strictness and
 * `'callfold'` mapped to `src/` (all browser samples in one program, all Node and Deno ones in
 * another), then run from the repository root with `'callfold'` rewritten to the compiled
 * `src/index.js` beside this test. Node only.
 *
 * When the whole suite runs, the pack layer typechecks the same samples against the installed
 * tarball and runs the Node ones from it (scripts/pack-check.mjs), as a user meets them;
 * scripts/test.mjs then sets `CALLFOLD_SAMPLES_PACKED=1` and this file skips its own typecheck
 * and Node runs (about a tenth of the suite's CPU time, spent twice), keeping the Deno runs and
 * the check that every sample is on a page the pack layer reads.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { expect } from 'chai';
import ts from 'typescript';
import { repositoryRoot } from '../support/repository.js';
import { type Block, documentationPages, markedBlocks } from './markdown.js';

const root = repositoryRoot();
const work = join(root, '.build-samples');
const blocks = documentationPages(root).flatMap((page) =>
  markedBlocks(page, readFileSync(join(root, page), 'utf8')),
);
/** The compiled library beside this test (.build/src/index.js when run from .build/test/docs). */
const library = new URL('../../src/index.js', import.meta.url).href;
const entries: Record<string, string> = {
  'callfold/server': new URL('../../src/server/index.js', import.meta.url).href,
  'callfold/server/file': new URL('../../src/server/file-store.node.js', import.meta.url).href,
  'callfold/server/redis': new URL('../../src/server/redis/index.js', import.meta.url).href,
};
/** A block's file name: its page and line (`docs-guide-serving-line-12`). */
const nameOf = (block: Block) =>
  `${block.page.replace(/\.md$/, '').replace(/\W+/g, '-')}-line-${block.line}`;
const fileOf = (block: Block) => join(work, `${nameOf(block)}.ts`);
const where = (block: Block) => `${block.page} line ${block.line}`;

const { denoDeclarations, samplePages } = (await import(
  pathToFileURL(join(root, 'scripts/doc-samples.mjs')).href
)) as { denoDeclarations: string; samplePages: (repository: string) => string[] };

/** Checked against the installed tarball by this run's pack layer (see the top of this file). */
const packed =
  process.env.CALLFOLD_SAMPLES_PACKED === '1'
    ? 'the pack layer of this run checks it against the installed tarball'
    : false;

/**
 * Type errors in `files`. Browser examples see the DOM library; Node and Deno ones see only
 * ECMAScript and Node's types, as in a server project (where Node's web stream types are the
 * ones `Readable.fromWeb` takes).
 */
function typecheck(files: string[], dom: boolean): string[] {
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
    isolatedModules: true,
    skipLibCheck: true,
    noEmit: true,
    lib: dom ? ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'] : ['lib.es2023.d.ts'],
    types: ['node'],
    typeRoots: [join(root, 'node_modules/@types')],
    baseUrl: root,
    paths: {
      callfold: ['src/index.ts'],
      'callfold/elements/*': ['elements/*.ts'],
      'callfold/server': ['src/server/index.ts'],
      'callfold/server/file': ['src/server/file-store.node.ts'],
      'callfold/server/redis': ['src/server/redis/index.ts'],
    },
  };
  const program = ts.createProgram([...files, join(work, 'deno.d.ts')], options);
  return ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.file === undefined || files.includes(d.file.fileName))
    .map((d) => {
      const where = d.file
        ? `${d.file.fileName.slice(work.length + 1)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}`
        : '';
      return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
    });
}

/** The block's code importing the compiled library instead of the package name. */
function runnable(code: string): string {
  return code
    .replace(/from\s+'callfold'/g, `from ${JSON.stringify(library)}`)
    .replace(
      /from\s+'(callfold\/server(?:\/file|\/redis)?)'/g,
      (_, entry: string) => `from ${JSON.stringify(entries[entry])}`,
    );
}

function run(command: string, args: string[]): { status: number | null; output: string } {
  const result = spawnSync(command, args, { cwd: root, encoding: 'utf8', timeout: 60_000 });
  return { status: result.status, output: `${result.stdout}${result.stderr}${result.error ?? ''}` };
}

const skip = 'Deno' in globalThis ? 'runs Node and Deno child processes (Node only)' : false;

describe('the documentation samples', { skip }, () => {
  it('a sample is a ```ts block right under its marker; an unmarked or unclosed one is not taken', () => {
    const page = [
      '<!-- tested -->',
      '```ts',
      'run();',
      '```',
      '```ts',
      'unmarked();',
      '```',
      '<!-- typecheck -->',
      '',
      '```ts',
      'marker not right above();',
      '```',
      '<!-- tested: deno -->',
      '```ts',
      'deno();',
      '```',
    ].join('\n');
    expect(markedBlocks('p.md', page)).to.deep.equal([
      { page: 'p.md', line: 2, mode: 'node', code: 'run();' },
      { page: 'p.md', line: 14, mode: 'deno', code: 'deno();' },
    ]);
    expect(() => markedBlocks('p.md', '<!-- tested -->\n```ts\nrun();\n')).to.throw(/p\.md line 2/);
  });

  it('reads README.md and the pages under docs/, not the generated reference or the site', () => {
    const dir = mkdtempSync(join(tmpdir(), 'callfold-docs-'));
    try {
      for (const page of [
        'README.md',
        'docs/guide/a.md',
        'docs/guide/providers/b.md',
        'docs/decisions/0001-x.md',
        'docs/reference/api.md',
        'docs/.vitepress/theme/c.md',
        'docs/public/llms.md',
      ]) {
        mkdirSync(dirname(join(dir, page)), { recursive: true });
        writeFileSync(join(dir, page), '');
      }
      expect(documentationPages(dir)).to.deep.equal([
        'README.md',
        'docs/decisions/0001-x.md',
        'docs/guide/a.md',
        'docs/guide/providers/b.md',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('marks samples to test: Node, Deno and browser ones, in the README and the guide', () => {
    const modes = blocks.map((block) => block.mode);
    expect(modes.filter((mode) => mode === 'node').length).to.be.at.least(18);
    expect(modes.filter((mode) => mode === 'typecheck').length).to.be.at.least(3);
    const pages = new Set(blocks.map((block) => block.page));
    expect(pages).to.include('README.md').and.to.include('docs/guide/serving.md');
    expect(modes).to.include('deno').and.to.include('typecheck');
  });

  it('every sample is on a page the pack layer reads (README.md and docs/guide/)', () => {
    const read = new Set(samplePages(root));
    expect(blocks.filter((block) => !read.has(block.page)).map(where)).to.deep.equal([]);
    // The control: a page the documentation tests read and the pack layer does not.
    const decision = documentationPages(root).find((page) => page.startsWith('docs/decisions/'));
    expect(decision).to.be.a('string');
    expect(read.has(decision as string)).to.equal(false);
  });

  it('typecheck against the sources with the repository strictness', { skip: packed }, () => {
    rmSync(work, { recursive: true, force: true });
    mkdirSync(work, { recursive: true });
    writeFileSync(join(work, 'deno.d.ts'), denoDeclarations);
    for (const block of blocks) writeFileSync(fileOf(block), block.code);
    const browser = blocks.filter((block) => block.mode === 'typecheck');
    const server = blocks.filter((block) => block.mode !== 'typecheck');
    expect(typecheck(browser.map(fileOf), true)).to.deep.equal([]);
    expect(typecheck(server.map(fileOf), false)).to.deep.equal([]);
  });

  for (const block of blocks.filter((b) => b.mode === 'node')) {
    it(`${where(block)} runs in Node`, { skip: packed }, () => {
      const js = ts.transpileModule(runnable(block.code), {
        compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
      }).outputText;
      const file = join(work, `${nameOf(block)}.mjs`);
      mkdirSync(work, { recursive: true });
      writeFileSync(file, js);
      const { status, output } = run(process.execPath, [file]);
      expect(status, output).to.equal(0);
    });
  }

  for (const block of blocks.filter((b) => b.mode === 'deno')) {
    it(`${where(block)} runs in Deno`, () => {
      const file = join(work, `${nameOf(block)}.deno.ts`);
      mkdirSync(work, { recursive: true });
      writeFileSync(file, runnable(block.code));
      const deno = join(root, 'node_modules/.bin/deno');
      const { status, output } = run(deno, [
        'run',
        '--allow-read',
        '--allow-env',
        '--allow-net=127.0.0.1',
        file,
      ]);
      expect(status, output).to.equal(0);
    });
  }
});
