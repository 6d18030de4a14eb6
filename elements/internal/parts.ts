/**
 * The `::part` names each element exposes, and how they travel outward: `<tool-group>`
 * re-exports its rows' parts and `<tool-timeline>` its groups' (`exportparts`), so a document
 * rule reaches a row nested in a timeline (`tool-timeline::part(path)`). A document rule on
 * `tool-row::part(path)` cannot: the row sits in the group's shadow root.
 *
 * A row part keeps its name outward, except where an outer element has a part of the same
 * name: then it is `row-<name>` (`row-header`, `row-chevron`, `row-summary`, `row-text`). A
 * group's own parts are `group-<name>` outside the group (its box, `group`, is `group-box`:
 * `group` is the timeline's part on the `<tool-group>` element itself).
 */

/** Every part a `<tool-row>` renders (its class JSDoc documents each). */
export const rowParts = [
  'row',
  'header',
  'toggle',
  'chevron',
  'icon',
  'title',
  'name',
  'summary',
  'path',
  'more-paths',
  'link',
  'meta',
  'executor',
  'size',
  'exit-code',
  'stage',
  'notice',
  'approval',
  'approve',
  'deny',
  'body',
  'block',
  'label',
  'text',
  'show-more',
  'fields',
  'todos',
] as const;

/** Every part a `<tool-group>` renders itself. */
export const groupParts = [
  'group',
  'header',
  'chevron',
  'counts',
  'count-icon',
  'summary',
  'detail',
  'failures',
  'activity',
  'tools',
] as const;

const renamedRowParts: Readonly<Record<string, string>> = {
  header: 'row-header',
  chevron: 'row-chevron',
  summary: 'row-summary',
  text: 'row-text',
};

/** A row part's name outside the row (in a group, and in a timeline). */
export const outerRowPart = (part: string): string => renamedRowParts[part] ?? part;

/** A group part's name outside the group (in a timeline). */
export const outerGroupPart = (part: string): string =>
  part === 'group' ? 'group-box' : `group-${part}`;

const mapping = (inner: string, outer: string) => (inner === outer ? inner : `${inner}:${outer}`);

/** `exportparts` of each row in a group. */
export const rowExportParts = rowParts.map((p) => mapping(p, outerRowPart(p))).join(', ');

/** `exportparts` of each group in a timeline: the group's own parts, then its rows'. */
export const groupExportParts = [
  ...groupParts.map((p) => mapping(p, outerGroupPart(p))),
  ...rowParts.map(outerRowPart),
].join(', ');
