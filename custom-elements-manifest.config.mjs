// `npm run manifest` (also part of `npm run build`): custom-elements.json from the elements'
// class JSDoc (@summary @fires @csspart @cssprop @slot, Lit's static properties), with module
// paths pointing at the published JavaScript, and the API tables of elements/README.md
// generated from it, between the `api` markers. Nothing here is written by hand twice.
import { readFileSync, writeFileSync } from 'node:fs';
import { posix } from 'node:path';

/** A source path (elements/x.ts) as its published module (dist/elements/x.js). */
const published = (path) => path.replace(/^elements\/(.*)\.[jt]s$/, 'dist/elements/$1.js');

/**
 * Module paths as the package publishes them: each module's `path`, and each reference to a
 * module (`declaration.module`: relative to the module that holds it, or from the root, with
 * or without a leading slash, as the analyzer writes it). Private (`#`) members are dropped: they are no contract.
 */
function publishedPaths() {
  const visit = (node, from) => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item, from);
      return;
    }
    if (node === null || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key === 'module' && typeof value === 'string') {
        const resolved = value.startsWith('.')
          ? posix.normalize(posix.join(posix.dirname(from), value))
          : value.replace(/^\//, '');
        node[key] = published(resolved);
      } else visit(value, from);
    }
  };
  return {
    name: 'callfold-published-paths',
    packageLinkPhase({ customElementsManifest }) {
      for (const mod of customElementsManifest.modules) {
        visit(mod.exports, mod.path);
        for (const declaration of mod.declarations ?? []) {
          if (declaration.members) {
            declaration.members = declaration.members.filter((m) => !m.name.startsWith('#'));
          }
          visit(declaration, mod.path);
        }
        mod.path = published(mod.path);
      }
    },
  };
}

const cell = (text) => (text ?? '').replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');
const code = (text) => (text ? `\`${text}\`` : '');

function table(title, head, rows) {
  if (rows.length === 0) return [];
  return [
    `**${title}**`,
    '',
    `| ${head.join(' | ')} |`,
    `| ${head.map(() => '---').join(' | ')} |`,
    ...rows.map((row) => `| ${row.map(cell).join(' | ')} |`),
    '',
  ];
}

/** Markdown for each element of the manifest: summary, then one table per contract. */
function apiMarkdown(manifest) {
  const lines = [];
  const declarations = manifest.modules.flatMap((mod) => mod.declarations ?? []);
  const tags = new Map();
  for (const mod of manifest.modules)
    for (const exp of mod.exports ?? [])
      if (exp.kind === 'custom-element-definition') tags.set(exp.declaration.name, exp.name);
  const order = ['tool-row', 'tool-group', 'tool-timeline'];
  const elements = declarations
    .filter((d) => d.customElement)
    .map((element) => ({ element, tag: tags.get(element.name) ?? element.tagName }))
    .sort((a, b) => order.indexOf(a.tag) - order.indexOf(b.tag));
  for (const { element, tag } of elements) {
    lines.push(
      `### \`<${tag}>\` — \`${element.name}\``,
      '',
      `${element.summary ?? ''}`,
      '',
      `${element.description ?? ''}`,
      '',
    );
    const fields = (element.members ?? []).filter(
      (m) =>
        m.kind === 'field' &&
        m.privacy !== 'private' &&
        m.privacy !== 'protected' &&
        !m.static &&
        !m.name.startsWith('#'),
    );
    lines.push(
      ...table(
        'Properties',
        ['Property', 'Attribute', 'Type', 'Description'],
        fields.map((f) => [
          code(f.name),
          code(element.attributes?.find((a) => a.fieldName === f.name)?.name),
          code(f.type?.text),
          f.description,
        ]),
      ),
      ...table(
        'Events',
        ['Event', 'Description'],
        (element.events ?? []).map((e) => [code(e.name), e.description]),
      ),
      ...table(
        'Slots',
        ['Slot', 'Description'],
        (element.slots ?? []).map((s) => [code(s.name || '(default)'), s.description]),
      ),
      ...table(
        'CSS parts',
        ['Part', 'Description'],
        (element.cssParts ?? []).map((p) => [code(p.name), p.description]),
      ),
      ...table(
        'CSS custom properties',
        ['Property', 'Description'],
        (element.cssProperties ?? []).map((p) => [code(p.name), p.description]),
      ),
    );
  }
  return lines.join('\n');
}

function apiTables() {
  return {
    name: 'callfold-api-tables',
    packageLinkPhase({ customElementsManifest }) {
      const file = 'elements/README.md';
      const start =
        '<!-- api:start (generated from custom-elements.json by `npm run manifest`) -->';
      const end = '<!-- api:end -->';
      const readme = readFileSync(file, 'utf8');
      const from = readme.indexOf(start);
      const to = readme.indexOf(end);
      if (from === -1 || to === -1) throw new Error(`${file}: api markers missing`);
      const next = `${readme.slice(0, from + start.length)}\n\n${apiMarkdown(customElementsManifest)}\n${readme.slice(to)}`;
      if (next !== readme) writeFileSync(file, next);
    },
  };
}

export default {
  // The public modules: the registrations, the classes, their events and callback types.
  globs: [
    'elements/*.ts',
    'elements/internal/*-element.ts',
    'elements/internal/events.ts',
    'elements/internal/render-tool.ts',
  ],
  outdir: '.',
  litelement: true,
  plugins: [publishedPaths(), apiTables()],
};
