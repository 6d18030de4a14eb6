// GitHub's heading anchors, for the documentation site (docs/.vitepress/config.mts sets it as
// VitePress's `markdown.anchor.slugify`), so that one `page.md#anchor` link works on GitHub
// and on the site. Tested by scripts/docs-check.test.mjs.

/**
 * The anchor github.com gives a heading (github-slugger's rules): lower case, every character
 * that is not a letter, a mark, a digit, `_`, `-` or a space dropped, each space a `-`.
 * Nothing is trimmed or collapsed: "`toNodeListener` (Node's http)" becomes
 * `tonodelistener-nodes-http`, "A — B" `a--b`. Repeated headings of a page get `-1`, `-2`…
 * (markdown-it-anchor does that, as GitHub does).
 * @param {string} text the heading's text, code spans' backticks already gone
 * @returns {string}
 */
export function githubSlug(text) {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-');
}
