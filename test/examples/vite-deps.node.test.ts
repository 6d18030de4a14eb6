/**
 * `npm start`'s Vite server pre-bundles every package the demo pages import
 * (`optimizeDeps.include` in vite.config.ts). A package it meets only while a page loads is
 * bundled then, and Vite reloads the page: a fetch the page had started fails with "Failed to
 * fetch". Whether Vite meets it before its crawl of the first page ends depends on the
 * machine's speed, so the demo's browser tests failed that way only now and then (the node
 * layer of a loaded run, with `lit/directives/guard.js` missing from the list). This test
 * follows the pages' imports from their `<script>` tags and checks the list holds every
 * package they reach. Node only.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { expect } from 'chai';
import { repositoryRoot } from '../support/repository.js';

const root = repositoryRoot();

/** Module specifiers a source file imports: static, re-exported, side-effect and dynamic. */
export function importsOf(source: string): string[] {
  const found: string[] = [];
  const patterns = [
    /^\s*(?:import|export)\s[^'";]*?\sfrom\s*['"]([^'"]+)['"]/gm,
    /^\s*import\s*['"]([^'"]+)['"]/gm,
    /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  for (const pattern of patterns) {
    for (const match of source.matchAll(pattern)) if (match[1]) found.push(match[1]);
  }
  return found;
}

/** The TypeScript file a relative specifier of `from` names (`./x.js` is `./x.ts` here). */
function resolveLocal(from: string, specifier: string): string | undefined {
  const base = join(dirname(from), specifier);
  const candidates = [base, base.replace(/\.js$/, '.ts'), `${base}.ts`, join(base, 'index.ts')];
  return candidates.find((path) => path.endsWith('.ts') && existsSync(path));
}

/** Every package (bare specifier) reachable from the entry files, through local imports. */
function packagesReached(entries: readonly string[]): Set<string> {
  const packages = new Set<string>();
  const seen = new Set<string>();
  const queue = [...entries];
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    const source = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
    for (const specifier of importsOf(source)) {
      if (specifier.startsWith('.')) {
        // `?raw` and `?url` imports are assets, not modules.
        if (specifier.includes('?')) continue;
        const local = resolveLocal(file, specifier);
        if (local) queue.push(local);
      } else packages.add(specifier);
    }
  }
  return packages;
}

/** The packages of `reached` that the config's `optimizeDeps.include` does not list. */
export function notPrebundled(reached: Iterable<string>, config: string): string[] {
  const list = /optimizeDeps:\s*\{[^}]*?include:\s*\[([^\]]*)\]/.exec(config)?.[1] ?? '';
  const included = new Set([...list.matchAll(/'([^']+)'/g)].map((match) => match[1]));
  return [...reached].filter((name) => !included.has(name)).sort();
}

/** The `src` of each page's module scripts in examples/, as files. */
function pageEntries(): string[] {
  const dir = join(root, 'examples');
  return readdirSync(dir)
    .filter((name) => name.endsWith('.html'))
    .flatMap((name) =>
      [...readFileSync(join(dir, name), 'utf8').matchAll(/<script type="module" src="([^"]+)"/g)]
        .map((match) => join(dir, match[1] ?? ''))
        .filter((file) => existsSync(file)),
    );
}

describe("the demo's Vite server pre-bundles what its pages import", () => {
  it('reads the imports of a source, and a missing package is named (negative control)', () => {
    expect(
      importsOf(
        "import { a } from 'lit';\nimport 'x/y.js';\nexport { b } from './b.js';\nconst c = await import('rxjs');",
      ).sort(),
    ).to.deep.equal(['./b.js', 'lit', 'rxjs', 'x/y.js']);
    const config = "optimizeDeps: {\n  include: [\n    'lit',\n    'rxjs',\n  ],\n},";
    expect(notPrebundled(['rxjs', 'lit/directives/guard.js', 'lit'], config)).to.deep.equal([
      'lit/directives/guard.js',
    ]);
  });

  it('optimizeDeps.include in vite.config.ts lists every package the demo pages reach', () => {
    const entries = pageEntries();
    expect(entries.map((file) => relative(root, file))).to.include('examples/demo/main.ts');
    const reached = [...packagesReached(entries)].sort();
    expect(reached, 'the pages reach lit and rxjs').to.include.members(['lit', 'rxjs']);
    const config = readFileSync(join(root, 'vite.config.ts'), 'utf8');
    expect(notPrebundled(reached, config)).to.deep.equal([]);
  });
});
