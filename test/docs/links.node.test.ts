/**
 * The documentation's links lead somewhere: every relative link of a page under docs/ and
 * every absolute link into this repository, from README.md or a page, names a file or folder
 * that exists, and its `#anchor` a heading of that page (GitHub's anchors); README.md, shown
 * on npm, has no relative link. Node only.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { expect } from 'chai';
import { repositoryRoot } from '../support/repository.js';
import {
  anchorsOf,
  brokenLinks,
  documentationPages,
  type Files,
  linksOf,
  slug,
} from './markdown.js';

const root = repositoryRoot();
const repository: Files = {
  kind(path) {
    try {
      return statSync(join(root, path)).isDirectory() ? 'dir' : 'file';
    } catch {
      return undefined;
    }
  },
  read: (path) => readFileSync(join(root, path), 'utf8'),
};

/** A repository of a few files in memory, for the checker's own tests. */
function filesOf(pages: Record<string, string>): Files {
  return {
    kind: (path) =>
      path in pages
        ? 'file'
        : Object.keys(pages).some((file) => file.startsWith(`${path}/`))
          ? 'dir'
          : undefined,
    read: (path) => pages[path] ?? '',
  };
}

const skip = 'Deno' in globalThis ? 'reads the repository with node:fs (Node only)' : false;

describe('links in the documentation', { skip }, () => {
  it('anchors are GitHub slugs of the headings, repeated ones numbered', () => {
    expect(slug("Turns and the user's prompt")).to.equal('turns-and-the-users-prompt');
    expect(slug('Long sessions in `<tool-timeline>`')).to.equal('long-sessions-in-tool-timeline');
    expect(slug('Serving sessions (`npm run bench:server`)')).to.equal(
      'serving-sessions-npm-run-benchserver',
    );
    expect(slug('Reading [arguments](./x.md): `PartialArguments`')).to.equal(
      'reading-arguments-partialarguments',
    );
    const anchors = anchorsOf(
      '# A\n\n## Node\n\n```md\n## Fenced\n```\n\n### Node\n<a id="here"></a>\n',
    );
    expect([...anchors]).to.have.members(['a', 'node', 'node-1', 'here']);
  });

  it('finds the links of prose, not of code', () => {
    const links = linksOf('See [a](./a.md) and ![b](b.png).\n`[c](c.md)`\n```md\n[d](d.md)\n```\n');
    expect(links.map((link) => link.target)).to.deep.equal(['./a.md', 'b.png']);
  });

  it('reports a missing file, a missing anchor and a relative README link (negative controls)', () => {
    const files = filesOf({
      'README.md': '',
      'docs/guide/a.md': '# A\n\n## Present\n',
      'docs/guide/b.md': '',
      'examples/x.ts': '',
    });
    const page = [
      '[ok](./a.md#present) [ok](#local) [ok](../../examples/x.ts) [ok](../../examples)',
      '[gone](./missing.md) [bad anchor](./a.md#absent) [out](../../../x.md)',
      '## Local',
    ].join('\n');
    expect(brokenLinks('docs/guide/b.md', page, files)).to.deep.equal([
      'docs/guide/b.md:2 ./missing.md: no file docs/guide/missing.md',
      'docs/guide/b.md:2 ./a.md#absent: no heading #absent in docs/guide/a.md',
      'docs/guide/b.md:2 ../../../x.md: leaves the repository',
    ]);
    const blob = 'https://github.com/callfold/callfold/blob/main';
    const readme = [
      `[ok](${blob}/docs/guide/a.md#present) [ok](https://github.com/callfold/callfold/tree/main/examples)`,
      `[ok](https://raw.githubusercontent.com/callfold/callfold/main/examples/x.ts) [ok](https://example.com/nowhere)`,
      `[relative](docs/guide/a.md) [anchor only](#present) [gone](${blob}/docs/guide/c.md)`,
      `[bad anchor](${blob}/docs/guide/a.md#absent) [file as folder](https://github.com/callfold/callfold/tree/main/examples/x.ts)`,
      '[not main](https://github.com/callfold/callfold/blob/dev/README.md)',
    ].join('\n');
    expect(brokenLinks('README.md', readme, files)).to.deep.equal([
      'README.md:3 docs/guide/a.md: relative link in the README (broken on npm)',
      'README.md:3 #present: relative link in the README (broken on npm)',
      `README.md:3 ${blob}/docs/guide/c.md: no file docs/guide/c.md`,
      `README.md:4 ${blob}/docs/guide/a.md#absent: no heading #absent in docs/guide/a.md`,
      'README.md:4 https://github.com/callfold/callfold/tree/main/examples/x.ts: no folder examples/x.ts',
      'README.md:5 https://github.com/callfold/callfold/blob/dev/README.md: not a blob/main or tree/main link',
    ]);
  });

  const pages = documentationPages(root);

  it('covers README.md and the guide', () => {
    expect(pages).to.include('README.md').and.to.include('docs/guide/getting-started.md');
  });

  for (const page of pages) {
    it(`${page}: every link resolves`, () => {
      expect(brokenLinks(page, repository.read(page), repository)).to.deep.equal([]);
    });
  }
});
