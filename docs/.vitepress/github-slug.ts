/**
 * GitHub's heading anchors (the rules of github-slugger, which github.com applies to a
 * heading's text): lower case, every character that is not a letter, a mark, a digit, `_`,
 * `-` or a space dropped, each space a `-`. Nothing is trimmed or collapsed, so
 * "`toNodeListener` (Node's http)" becomes `tonodelistener-nodes-http`. Repeated headings of
 * a page get `-1`, `-2`… from markdown-it-anchor, as on GitHub.
 */
export function githubSlug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-');
}
