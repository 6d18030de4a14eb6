/**
 * What the documentation tests read from Markdown: the pages that hold samples and links
 * (README.md and docs/**, without the generated reference and the site's own folder), the
 * marked sample blocks, the links, and the anchors GitHub gives headings.
 */
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repositoryRoot } from '../support/repository.js';

/** The site's slug rule (scripts/github-slug.mjs), so that the guide and the site agree. */
const { githubSlug } = (await import(
  pathToFileURL(join(repositoryRoot(), 'scripts/github-slug.mjs')).href
)) as { githubSlug: (text: string) => string };

/** Folders of docs/ that are not hand-written pages: the generated reference, the site. */
const NOT_PAGES = new Set(['reference', '.vitepress', 'public']);

/** The repository-relative paths of README.md and every hand-written page under docs/, sorted. */
export function documentationPages(root: string): string[] {
  const pages = ['README.md'];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.') || NOT_PAGES.has(entry.name)) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.md')) pages.push(relative(root, path));
    }
  };
  walk(join(root, 'docs'));
  return pages.sort((a, b) => (a === 'README.md' ? -1 : b === 'README.md' ? 1 : a < b ? -1 : 1));
}

export type Mode = 'node' | 'deno' | 'typecheck';
export interface Block {
  /** The page, repository-relative. */
  readonly page: string;
  /** The line of the opening fence, 1-based. */
  readonly line: number;
  readonly mode: Mode;
  readonly code: string;
}

const MARKERS: Record<string, Mode> = {
  '<!-- tested -->': 'node',
  '<!-- tested: deno -->': 'deno',
  '<!-- typecheck -->': 'typecheck',
};

/** The marked ```ts blocks of a page: the marker on the line right before the fence. */
export function markedBlocks(page: string, markdown: string): Block[] {
  const lines = markdown.split('\n');
  const blocks: Block[] = [];
  for (let i = 1; i < lines.length; i++) {
    const mode = MARKERS[(lines[i - 1] ?? '').trim()];
    if (mode === undefined || (lines[i] ?? '').trim() !== '```ts') continue;
    const end = lines.indexOf('```', i + 1);
    if (end === -1) throw new Error(`${page} line ${i + 1}: unclosed code block`);
    blocks.push({ page, line: i + 1, mode, code: lines.slice(i + 1, end).join('\n') });
  }
  return blocks;
}

/** The lines of a page outside fenced code blocks, with inline code spans blanked. */
function prose(markdown: string): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  let fence: string | undefined;
  markdown.split('\n').forEach((text, i) => {
    const opening = /^\s*(`{3,}|~{3,})/.exec(text)?.[1];
    if (fence !== undefined) {
      if (opening !== undefined && opening[0] === fence[0] && opening.length >= fence.length)
        fence = undefined;
      return;
    }
    if (opening !== undefined) {
      fence = opening;
      return;
    }
    out.push({
      line: i + 1,
      text: text.replace(/(`+)[^`]*?\1/g, (span) => ' '.repeat(span.length)),
    });
  });
  return out;
}

export interface Link {
  readonly line: number;
  readonly target: string;
}

/** The targets of the Markdown links and images of a page (`[text](target)`), outside code. */
export function linksOf(markdown: string): Link[] {
  const links: Link[] = [];
  for (const { line, text } of prose(markdown)) {
    for (const match of text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      links.push({ line, target: match[1] ?? '' });
    }
  }
  return links;
}

/**
 * The anchors GitHub gives a page's headings: the heading's text (code spans, links and
 * emphasis reduced to their text), lowercased, every character but letters, digits,
 * spaces, `-` and `_` removed, each space a `-`; a repeated anchor gets `-1`, `-2`, … Explicit
 * `<a id>` / `<a name>` anchors count too.
 */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fence: string | undefined;
  for (const line of markdown.split('\n')) {
    const opening = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence !== undefined) {
      if (opening !== undefined && opening[0] === fence[0] && opening.length >= fence.length)
        fence = undefined;
      continue;
    }
    if (opening !== undefined) {
      fence = opening;
      continue;
    }
    for (const match of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(match[1] ?? '');
    const heading = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const base = slug(heading);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** GitHub's anchor for a heading's Markdown text: its links, code and emphasis reduced to text. */
export function slug(heading: string): string {
  return githubSlug(
    heading
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/`/g, '')
      .replace(/(\*\*|__|\*)/g, ''),
  );
}

/** What the link check needs of the repository: whether a path is a file or a folder, and a page's text. */
export interface Files {
  kind(path: string): 'file' | 'dir' | undefined;
  read(path: string): string;
}

const GITHUB = 'https://github.com/callfold/callfold';
const RAW = 'https://raw.githubusercontent.com/callfold/callfold/main/';

/**
 * The broken links of a page, one line each: a relative link or an absolute link into this
 * repository (`github.com/callfold/callfold/blob/main/<file>`, `…/tree/main/<folder>`, a raw
 * file) whose target does not exist, or whose `#anchor` is no heading of the Markdown page it
 * names; and, in README.md (shown on npm, where relative links lead nowhere), any link that
 * is not absolute. Other sites' links are not followed.
 */
export function brokenLinks(page: string, markdown: string, files: Files): string[] {
  const problems: string[] = [];
  const anchors = new Map<string, Set<string>>();
  const anchorsIn = (path: string): Set<string> => {
    let found = anchors.get(path);
    if (found === undefined) {
      found = anchorsOf(path === page ? markdown : files.read(path));
      anchors.set(path, found);
    }
    return found;
  };
  const check = (
    line: number,
    target: string,
    path: string,
    kind: 'file' | 'dir' | 'any',
    anchor: string,
  ) => {
    const exists = files.kind(path);
    if (exists === undefined || (kind !== 'any' && exists !== kind)) {
      problems.push(`${page}:${line} ${target}: no ${kind === 'dir' ? 'folder' : 'file'} ${path}`);
    } else if (
      anchor !== '' &&
      exists === 'file' &&
      path.endsWith('.md') &&
      !anchorsIn(path).has(anchor)
    ) {
      problems.push(`${page}:${line} ${target}: no heading #${anchor} in ${path}`);
    }
  };
  for (const { line, target } of linksOf(markdown)) {
    const [address = '', anchor = ''] = splitAnchor(target);
    if (/^[a-z][a-z+.-]*:/i.test(target)) {
      if (target.startsWith(`${GITHUB}/`)) {
        const match =
          /^https:\/\/github\.com\/callfold\/callfold\/(blob|tree)\/main\/([^#?]+)$/.exec(address);
        if (match === null)
          problems.push(`${page}:${line} ${target}: not a blob/main or tree/main link`);
        else
          check(
            line,
            target,
            decodeURIComponent(match[2] ?? '').replace(/\/$/, ''),
            match[1] === 'tree' ? 'dir' : 'file',
            anchor,
          );
      } else if (target.startsWith(RAW)) {
        check(line, target, decodeURIComponent(address.slice(RAW.length)), 'file', '');
      }
      continue;
    }
    if (page === 'README.md') {
      problems.push(`${page}:${line} ${target}: relative link in the README (broken on npm)`);
      continue;
    }
    const path = address === '' ? page : resolveFrom(page, decodeURIComponent(address));
    if (path === undefined) problems.push(`${page}:${line} ${target}: leaves the repository`);
    else check(line, target, path, 'any', anchor);
  }
  return problems;
}

function splitAnchor(target: string): [string, string] {
  const hash = target.indexOf('#');
  return hash === -1 ? [target, ''] : [target.slice(0, hash), target.slice(hash + 1)];
}

/** A relative link's repository-relative path, or undefined when it climbs out of the repository. */
function resolveFrom(page: string, address: string): string | undefined {
  const parts = page.split('/').slice(0, -1);
  for (const part of address.split('/')) {
    if (part === '..') {
      if (parts.length === 0) return undefined;
      parts.pop();
    } else if (part !== '.' && part !== '') parts.push(part);
  }
  return parts.join('/');
}
