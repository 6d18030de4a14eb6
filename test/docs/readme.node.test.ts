/**
 * The README's examples work. Every ```ts block preceded by `<!-- tested -->` (run in
 * Node), `<!-- tested: deno -->` (run in Deno) or `<!-- typecheck -->` (browser code,
 * typechecked only) is written to `.build-readme/`, typechecked with the repository's
 * strictness and `'callfold'` mapped to `src/`, then run from the repository root with
 * `'callfold'` rewritten to the compiled `src/index.js` beside this test. Node only.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { expect } from 'chai';
import ts from 'typescript';
import { repositoryRoot } from '../support/repository.js';

type Mode = 'node' | 'deno' | 'typecheck';
interface Block {
  readonly line: number;
  readonly mode: Mode;
  readonly code: string;
}

const MARKERS: Record<string, Mode> = {
  '<!-- tested -->': 'node',
  '<!-- tested: deno -->': 'deno',
  '<!-- typecheck -->': 'typecheck',
};

/** The marked ```ts blocks of a Markdown text: the marker on the line right before the fence. */
export function markedBlocks(markdown: string): Block[] {
  const lines = markdown.split('\n');
  const blocks: Block[] = [];
  for (let i = 1; i < lines.length; i++) {
    const mode = MARKERS[(lines[i - 1] ?? '').trim()];
    if (mode === undefined || (lines[i] ?? '').trim() !== '```ts') continue;
    const end = lines.indexOf('```', i + 1);
    if (end === -1) throw new Error(`README line ${i + 1}: unclosed code block`);
    blocks.push({ line: i + 1, mode, code: lines.slice(i + 1, end).join('\n') });
  }
  return blocks;
}

const root = repositoryRoot();
const work = join(root, '.build-readme');
const blocks = markedBlocks(readFileSync(join(root, 'README.md'), 'utf8'));
/** The compiled library beside this test (.build/src/index.js when run from .build/test/docs). */
const library = new URL('../../src/index.js', import.meta.url).href;
const entries: Record<string, string> = {
  'callfold/server': new URL('../../src/server/index.js', import.meta.url).href,
  'callfold/server/file': new URL('../../src/server/file-store.node.js', import.meta.url).href,
  'callfold/server/redis': new URL('../../src/server/redis/index.js', import.meta.url).href,
};
const fileOf = (block: Block) => join(work, `readme-line-${block.line}.ts`);

/** The few Deno APIs the Deno example uses, so that it typechecks with the others. */
const denoTypes = `declare const Deno: {
  serve(
    options: { hostname?: string; port?: number; onListen?: () => void },
    handler: (request: Request) => Response | Promise<Response>,
  ): { readonly addr: { readonly port: number }; shutdown(): Promise<void> };
};
`;

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

describe('the README examples', { skip }, () => {
  it('marks examples to test: Node, Deno and browser ones', () => {
    const modes = blocks.map((block) => block.mode);
    expect(modes.filter((mode) => mode === 'node').length).to.be.at.least(6);
    expect(modes).to.include('deno').and.to.include('typecheck');
  });

  it('typecheck against the sources with the repository strictness', () => {
    rmSync(work, { recursive: true, force: true });
    mkdirSync(work, { recursive: true });
    writeFileSync(join(work, 'deno.d.ts'), denoTypes);
    for (const block of blocks) writeFileSync(fileOf(block), block.code);
    const browser = blocks.filter((block) => block.mode === 'typecheck');
    const server = blocks.filter((block) => block.mode !== 'typecheck');
    expect(typecheck(browser.map(fileOf), true)).to.deep.equal([]);
    expect(typecheck(server.map(fileOf), false)).to.deep.equal([]);
  });

  for (const block of blocks.filter((b) => b.mode === 'node')) {
    it(`README line ${block.line} runs in Node`, () => {
      const js = ts.transpileModule(runnable(block.code), {
        compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
      }).outputText;
      const file = join(work, `readme-line-${block.line}.mjs`);
      mkdirSync(work, { recursive: true });
      writeFileSync(file, js);
      const { status, output } = run(process.execPath, [file]);
      expect(status, output).to.equal(0);
    });
  }

  for (const block of blocks.filter((b) => b.mode === 'deno')) {
    it(`README line ${block.line} runs in Deno`, () => {
      const file = join(work, `readme-line-${block.line}.deno.ts`);
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
