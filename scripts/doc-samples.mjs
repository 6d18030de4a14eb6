// The documentation's marked samples, for the checks that run them against the packed
// package (scripts/pack-check.mjs, scripts/examples-check.mjs): README.md and the guide's
// pages (docs/guide/**/*.md), read from the repository. A sample is a fenced block whose
// opening fence follows a marker line, e.g. `<!-- typecheck -->` before ```ts.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * README.md and the guide's pages, repository-relative, README first.
 * @param {string} repository
 * @returns {string[]}
 */
export function samplePages(repository) {
  /** @type {string[]} */
  const pages = [];
  /** @param {string} dir */
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.md')) pages.push(relative(repository, path));
    }
  };
  walk(join(repository, 'docs/guide'));
  return ['README.md', ...pages.sort()];
}

/**
 * The samples under the given markers, in every page of `samplePages`.
 * @param {string} repository
 * @param {Record<string, string>} markers the fence's language by marker line
 * @returns {{ page: string, line: number, name: string, code: string }[]} `name` is a file
 *   name stem unique among the samples (`docs-guide-serving-line-12`)
 */
export function markedSamples(repository, markers) {
  /** @type {{ page: string, line: number, name: string, code: string }[]} */
  const samples = [];
  for (const page of samplePages(repository)) {
    const lines = readFileSync(join(repository, page), 'utf8').split('\n');
    for (let i = 1; i < lines.length; i++) {
      const marker = (lines[i - 1] ?? '').trim();
      const language = Object.hasOwn(markers, marker) ? markers[marker] : undefined;
      if (!language || (lines[i] ?? '').trim() !== `\`\`\`${language}`) continue;
      const end = lines.indexOf('```', i + 1);
      if (end === -1) throw new Error(`${page} line ${i + 1}: unclosed code block`);
      const stem = page.replace(/\.md$/, '').replace(/\W+/g, '-');
      samples.push({
        page,
        line: i + 1,
        name: `${stem}-line-${i + 1}`,
        code: lines.slice(i + 1, end).join('\n'),
      });
    }
  }
  return samples;
}

/**
 * The few Deno APIs the guide's Deno samples use, declared so that they typecheck with the
 * Node samples (a project's `deno.d.ts`).
 */
export const denoDeclarations = `declare const Deno: {
  serve(
    options: { hostname?: string; port?: number; onListen?: () => void },
    handler: (request: Request) => Response | Promise<Response>,
  ): { readonly addr: { readonly port: number }; shutdown(): Promise<void> };
};
`;
