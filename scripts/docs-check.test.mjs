// The documentation site's checker (scripts/docs-check.mjs) reports what it is meant to: each
// test plants one kind of fault in a small site of its own and expects it named, beside a
// sound page that must pass. Also GitHub's heading slugs (scripts/github-slug.mjs).
//
//   node --test scripts/docs-check.test.mjs
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { linkProblems, pageProblems } from './docs-check.mjs';
import { githubSlug } from './github-slug.mjs';

const repository = fileURLToPath(new URL('..', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'callfold-docs-check-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

/**
 * A site of pages, each marked as mounted the way Vue marks VitePress's (`#app.__vue_app__`).
 * @param {string} name
 * @param {Record<string, string>} pages path → body
 */
function site(name, pages) {
  const dist = join(scratch, name);
  for (const [path, body] of Object.entries(pages)) {
    mkdirSync(dirname(join(dist, path)), { recursive: true });
    writeFileSync(
      join(dist, path),
      `<!doctype html><html><head><link rel="icon" href="data:,"></head><body><div id="app">${body}</div><script>document.getElementById('app').__vue_app__ = {}</script></body></html>`,
    );
  }
  return dist;
}

test('links: a planted broken anchor, a link to no page and a missing repository file are reported; sound links are not', () => {
  const dist = site('links', {
    'index.html': [
      '<h2 id="top">Top</h2>',
      '<a href="./guide/a.html#here">sound</a>',
      '<a href="/guide/a#here">sound, without .html</a>',
      '<a href="guide/">sound, a folder</a>',
      '<a href="#top">sound, this page</a>',
      '<a href="https://github.com/callfold/callfold/blob/main/package.json">sound, a file</a>',
      '<a href="https://github.com/callfold/callfold/tree/main/docs/decisions">sound, a folder</a>',
      '<a href="https://example.com/nowhere">external, not checked</a>',
      '<a href="./guide/a.html#planted-missing">broken anchor</a>',
      '<a href="./guide/gone.html">no page</a>',
      '<a href="https://github.com/callfold/callfold/blob/main/docs/no-such-file.md">no file</a>',
    ].join('\n'),
    'guide/a.html': '<h2 id="here">Here</h2>',
    'guide/index.html': '<p>folder</p>',
  });
  const problems = linkProblems(dist, repository);
  assert.equal(problems.length, 3, problems.join('\n'));
  assert.match(problems.join('\n'), /guide\/a\.html has no id "planted-missing"/);
  assert.match(problems.join('\n'), /\.\/guide\/gone\.html leads to no page/);
  assert.match(problems.join('\n'), /docs\/no-such-file\.md, which is not in the repository/);
});

test('pages: a planted console.error, an uncaught error, a missing resource, a failed check and an element outside the live ones are reported; a sound page is not', async () => {
  const dist = site('pages', {
    'sound.html':
      '<p>fine</p><div class="callfold-replay"><tool-timeline></tool-timeline></div><script>console.log("not an error")</script>',
    'stray.html': '<p class="text">Long sessions in <tool-timeline></tool-timeline></p>',
    'console.html': '<script>console.error("planted console error")</script>',
    'throws.html': '<script>throw new Error("planted uncaught error")</script>',
    'missing.html': '<img src="/planted-missing.png" alt="">',
    'checked.html': '<p id="shown">no rows here</p>',
  });
  const problems = await pageProblems(
    dist,
    ['sound.html', 'stray.html', 'console.html', 'throws.html', 'missing.html', 'checked.html'],
    {
      'checked.html': async (page) => {
        const rows = await page.evaluate(() => document.querySelectorAll('tool-row').length);
        if (rows === 0) throw new Error('planted: the page shows no rows');
      },
    },
  );
  const text = problems.join('\n');
  assert.doesNotMatch(text, /^sound\.html/m, text);
  assert.match(text, /^console\.html: console error: planted console error/m);
  assert.match(text, /^throws\.html: uncaught: .*planted uncaught error/m);
  assert.match(
    text,
    /^missing\.html: HTTP 404 for http:\/\/127\.0\.0\.1:\d+\/planted-missing\.png/m,
  );
  assert.match(text, /^checked\.html: planted: the page shows no rows/m);
  assert.match(text, /^stray\.html: an element outside the live ones: <tool-timeline> in text/m);
});

test("GitHub's heading slugs", () => {
  // github-slugger's rules, which github.com applies to headings: punctuation and symbols
  // dropped, letters of any script and `_` kept, each space a hyphen, nothing collapsed.
  const cases = /** @type {const} */ ([
    ['Install and use', 'install-and-use'],
    ["toNodeListener (Node's http)", 'tonodelistener-nodes-http'],
    ['Sessions in production: Redis', 'sessions-in-production-redis'],
    ['A — B', 'a--b'],
    ['PartialArguments.get() / .text()', 'partialargumentsget--text'],
    ['snake_case and kebab-case', 'snake_case-and-kebab-case'],
    ['Événements à l’heure', 'événements-à-lheure'],
    ['1. First', '1-first'],
  ]);
  for (const [heading, slug] of cases) assert.equal(githubSlug(heading), slug, heading);
});
