import { existsSync, statSync } from 'node:fs';
import { posix } from 'node:path';
import type { MarkdownRenderer } from 'vitepress';

/** Where a file of the repository is read on the web: the site publishes docs/ only. */
export const REPOSITORY_WEB = 'https://github.com/callfold/callfold';

/**
 * Relative links from a page to a file outside docs/ (`../../README.md`, `../src/…ts`) resolve
 * on GitHub but not on the site, which holds docs/ only: they become links to the file on
 * GitHub (`blob/main/…`, `tree/main/…` for a folder), anchor kept. Runs as a core rule, before
 * VitePress's own link handling and dead-link check see the link.
 */
export function repositoryLinks(md: MarkdownRenderer, repository: string, docs: string): void {
  md.core.ruler.push('callfold-repository-links', (state) => {
    const page = (state.env as { relativePath?: string }).relativePath;
    if (page === undefined) return;
    const from = posix.dirname(posix.join(docs, page));
    for (const block of state.tokens) {
      for (const token of block.children ?? []) {
        if (token.type !== 'link_open') continue;
        const href = token.attrGet('href');
        if (href === null || /^[a-z][a-z0-9+.-]*:|^\/|^#/i.test(href)) continue;
        const [path = '', anchor] = href.split('#', 2);
        const target = posix.normalize(posix.join(from, decodeURI(path))).replace(/\/$/, '');
        if (target === docs || target.startsWith(`${docs}/`)) continue;
        if (target.startsWith('..')) continue;
        const full = posix.join(repository, target);
        const kind = existsSync(full) && statSync(full).isDirectory() ? 'tree' : 'blob';
        const web = `${REPOSITORY_WEB}/${kind}/main/${encodeURI(target)}`;
        token.attrSet('href', anchor === undefined ? web : `${web}#${anchor}`);
      }
    }
  });
}
