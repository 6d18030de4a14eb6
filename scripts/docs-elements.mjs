// Writes the elements' reference pages from custom-elements.json (the manifest `npm run
// manifest` generates from the classes' JSDoc): one page per tag with its attributes,
// properties, events, slots, CSS parts and CSS custom properties, into
// docs/reference/elements/, with their sidebar (sidebar.json), and the reference's home,
// docs/reference/index.md. Run by scripts/docs-build.mjs; the output is git-ignored.
//
//   node scripts/docs-elements.mjs [--manifest custom-elements.json] [--out docs/reference]
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

/**
 * The parts of a custom-elements.json declaration the pages show.
 * @typedef {{ name: string, description?: string, type?: { text: string }, default?: string,
 *   attribute?: string, fieldName?: string, kind?: string, privacy?: string, static?: boolean,
 *   readonly?: boolean }} Entry
 * @typedef {{ tagName?: string, name: string, summary?: string, description?: string,
 *   attributes?: Entry[], members?: Entry[], events?: Entry[], slots?: Entry[],
 *   cssParts?: Entry[], cssProperties?: Entry[] }} Declaration
 * @typedef {{ path: string, declarations?: Declaration[] }} ManifestModule
 */

/**
 * Text for a Markdown table cell: one line, pipes escaped, HTML outside code spans escaped.
 * @param {string | undefined} text
 */
const cell = (text) => escapeHtml((text ?? '').replace(/\s*\n\s*/g, ' ')).replaceAll('|', '\\|');

/**
 * Escapes `<` and `>` outside code spans, so that a tag named in prose (`<tool-row>` without
 * backticks) is shown, not created, by the page.
 * @param {string} text
 */
function escapeHtml(text) {
  return text
    .split(/(`[^`]*`)/)
    .map((part, i) => (i % 2 ? part : part.replaceAll('<', '&lt;').replaceAll('>', '&gt;')))
    .join('');
}

/** @param {string} text */
const code = (text) =>
  text
    ? `\`${text
        .replace(/\s*\n\s*/g, ' ')
        .replaceAll('`', "'")
        .replaceAll('|', '\\|')}\``
    : '';

/**
 * A Markdown table, or nothing when there are no rows.
 * @param {string} title
 * @param {string[]} head
 * @param {string[][]} rows
 */
function section(title, head, rows) {
  if (!rows.length) return '';
  return [
    `## ${title}`,
    '',
    `| ${head.join(' | ')} |`,
    `|${head.map(() => '---').join('|')}|`,
    ...rows.map((row) => `| ${row.join(' | ')} |`),
    '',
  ].join('\n');
}

/**
 * One element's page.
 * @param {Declaration} element
 * @returns {string}
 */
export function elementPage(element) {
  const tag = element.tagName ?? '';
  const properties = (element.members ?? []).filter(
    (m) => m.kind === 'field' && !m.static && (m.privacy ?? 'public') === 'public',
  );
  return [
    '---',
    `title: ${tag}`,
    'outline: [2, 2]',
    '---',
    '',
    '::: v-pre',
    '',
    `# \`<${tag}>\``,
    '',
    element.summary ? `${escapeHtml(element.summary)}\n` : '',
    `Register it with \`import 'callfold/elements/${tag}';\`; its class is \`${element.name}\` in \`callfold/elements/classes\` (importable without registering).`,
    '',
    escapeHtml(element.description ?? ''),
    '',
    section(
      'Attributes',
      ['attribute', 'property', 'type', 'default', 'description'],
      (element.attributes ?? []).map((a) => [
        code(a.name),
        code(a.fieldName ?? ''),
        code(a.type?.text ?? ''),
        code(a.default ?? ''),
        cell(a.description),
      ]),
    ),
    section(
      'Properties',
      ['property', 'type', 'default', 'description'],
      properties.map((p) => [
        `${code(p.name)}${p.readonly ? ' (read-only)' : ''}`,
        code(p.type?.text ?? ''),
        code(p.default ?? ''),
        cell(p.description),
      ]),
    ),
    section(
      'Events',
      ['event', 'description'],
      (element.events ?? []).map((e) => [code(e.name), cell(e.description)]),
    ),
    section(
      'Slots',
      ['slot', 'description'],
      (element.slots ?? []).map((s) => [s.name ? code(s.name) : '(default)', cell(s.description)]),
    ),
    section(
      'CSS parts',
      ['part', 'description'],
      (element.cssParts ?? []).map((p) => [code(p.name), cell(p.description)]),
    ),
    section(
      'CSS custom properties',
      ['property', 'description'],
      (element.cssProperties ?? []).map((p) => [code(p.name), cell(p.description)]),
    ),
    ':::',
    '',
  ]
    .join('\n')
    .replace(/\n{3,}/g, '\n\n');
}

/**
 * The elements declared in a manifest, by tag name.
 * @param {{ modules: ManifestModule[] }} manifest
 * @returns {Declaration[]}
 */
export function elementsOf(manifest) {
  return manifest.modules
    .flatMap((module) => module.declarations ?? [])
    .filter((declaration) => declaration.tagName)
    .sort((a, b) => (a.tagName ?? '').localeCompare(b.tagName ?? ''));
}

/**
 * Writes the pages, their sidebar and the reference's home.
 * @param {string} manifestPath
 * @param {string} out the reference's folder (docs/reference)
 * @returns {string[]} the tags written
 */
export function writeElementPages(manifestPath, out) {
  const elements = elementsOf(JSON.parse(readFileSync(manifestPath, 'utf8')));
  const dir = join(out, 'elements');
  mkdirSync(dir, { recursive: true });
  for (const element of elements)
    writeFileSync(join(dir, `${element.tagName}.md`), elementPage(element));
  const sidebar = elements.map((e) => ({
    text: e.tagName,
    link: `/reference/elements/${e.tagName}`,
  }));
  writeFileSync(join(dir, 'sidebar.json'), `${JSON.stringify(sidebar, null, 2)}\n`);
  writeFileSync(join(out, 'index.md'), referenceHome(elements));
  return elements.map((e) => e.tagName ?? '');
}

/** @param {Declaration[]} elements */
function referenceHome(elements) {
  return `# Reference

Generated by \`npm run docs\`: the API from the TSDoc of the package's public entries
(TypeDoc), the elements from \`custom-elements.json\`. \`callfold/internal\` is not described:
it is for callfold's own elements and may change in any release.

## Entries

| import | what it holds |
|---|---|
| [\`callfold\`](./api/callfold/index.md) | events, the Assembler and its Definitions, \`PartialArguments\`, the provider adapters, the RxJS operators, tool schemas, SSE and transcripts |
| [\`callfold/server\`](./api/callfold/server/index.md) | the session handler, the \`SessionStore\` contract, the memory store, \`recordAttempt\` |
| [\`callfold/server/file\`](./api/callfold/server/file/index.md) | a session store in files (Node) |
| [\`callfold/server/redis\`](./api/callfold/server/redis/index.md) | a session store on Redis (\`ioredis\`) |

## Elements

| tag | summary |
|---|---|
${elements.map((e) => `| [\`<${e.tagName}>\`](./elements/${e.tagName}.md) | ${cell(e.summary)} |`).join('\n')}
`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      manifest: { type: 'string', default: 'custom-elements.json' },
      out: { type: 'string', default: 'docs/reference' },
    },
  });
  const tags = writeElementPages(values.manifest, values.out);
  console.log(`element pages: ${tags.join(', ')}`);
}
