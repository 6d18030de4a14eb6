// Writes llms.txt and llms-full.txt (https://llmstxt.org) for the documentation site, into
// docs/public/ so that both the built site and `npm run docs:dev` serve them at the root:
// llms.txt is the title, a one-paragraph summary and the list of pages with a line each;
// llms-full.txt the README and every guide page, whole. Run by scripts/docs-build.mjs; the
// output is git-ignored.
//
//   node scripts/docs-llms.mjs [--docs docs]
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

/** The guide's reading order, as the site's sidebar has it. @type {string[]} */
const ORDER = JSON.parse(
  readFileSync(new URL('../docs/.vitepress/guide-order.json', import.meta.url), 'utf8'),
);

/**
 * The Markdown files under `dir`, in reading order (a folder's index.md first).
 * @param {string} dir
 * @returns {string[]}
 */
export function guideFiles(dir) {
  if (!existsSync(dir)) return [];
  /** @param {string} name */
  const rank = (name) => {
    if (name === 'index.md') return -1;
    const at = ORDER.indexOf(name.replace(/\.md$/, ''));
    return at === -1 ? ORDER.length : at;
  };
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => rank(a.name) - rank(b.name) || a.name.localeCompare(b.name))
    .flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return guideFiles(path);
      return entry.name.endsWith('.md') ? [path] : [];
    });
}

/**
 * A page's title (its first `# ` heading) and a one-line description (the first sentence of
 * its first paragraph of prose).
 * @param {string} text
 * @returns {{ title: string, description: string }}
 */
export function describe(text) {
  const body = text.replace(/^---\n[\s\S]*?\n---\n/, '');
  let title = '';
  /** @type {string[]} */
  const paragraph = [];
  let fenced = false;
  for (const line of body.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      if (paragraph.length) break;
      continue;
    }
    if (fenced) continue;
    if (!title && line.startsWith('# ')) {
      title = line.slice(2).replaceAll('`', '').trim();
      continue;
    }
    if (!title) continue;
    if (!line.trim()) {
      if (paragraph.length) break;
      continue;
    }
    if (/^(#|!\[|<|>|\||[-*] |\d+\. )/.test(line.trim()) && !paragraph.length) continue;
    paragraph.push(line.trim());
  }
  const prose = paragraph
    .join(' ')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\s+/g, ' ');
  const sentence = /^.*?[.!?](?=\s|$)/.exec(prose)?.[0] ?? prose;
  return { title, description: sentence.length > 200 ? `${sentence.slice(0, 199)}…` : sentence };
}

/** @param {string} docs @param {string} file the page's URL on the site (`/guide/serving.html`) */
const pageUrl = (docs, file) =>
  `/${relative(docs, file)
    .replaceAll('\\', '/')
    .replace(/(^|\/)index\.md$/, '$1')
    .replace(/\.md$/, '.html')}`;

/**
 * The two files' text.
 * @param {string} docs the site's source folder
 * @param {string} readme the repository's README.md
 * @returns {{ llms: string, full: string }}
 */
export function llmsTexts(docs, readme) {
  const readmeText = readFileSync(readme, 'utf8');
  const intro = readmeText
    .replace(/^# .*\n+/, '')
    .split(/\n\s*\n/)
    .find((block) => /^[A-Za-z]/.test(block) && block.length > 80);
  const about = (intro ?? '').replace(/\s+/g, ' ').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
  const { description: summary } = JSON.parse(
    readFileSync(join(readme, '../package.json'), 'utf8'),
  );
  /** @param {string} file @param {boolean} [described] */
  const item = (file, described = true) => {
    const { title, description } = describe(readFileSync(file, 'utf8'));
    const line = described && description ? `: ${description}` : '';
    return `- [${title}](${pageUrl(docs, file)})${line}`;
  };
  const guide = guideFiles(join(docs, 'guide'));
  const elements = existsSync(join(docs, 'reference/elements'))
    ? readdirSync(join(docs, 'reference/elements'))
        .filter((name) => name.endsWith('.md'))
        .sort()
    : [];
  const decisions = guideFiles(join(docs, 'decisions')).filter((f) => !f.endsWith('README.md'));
  const llms = [
    '# callfold',
    '',
    `> ${summary}`,
    '',
    about,
    '',
    'Install with `npm install callfold`. Entries: `callfold` (the core, any runtime), `callfold/server`, `callfold/server/file`, `callfold/server/redis`, and the custom elements `callfold/elements/tool-timeline`, `…/tool-group`, `…/tool-row`.',
    '',
    '## Guide',
    '',
    ...guide.map((file) => item(file)),
    '',
    '## Reference',
    '',
    '- [Reference](/reference/): the API of every public entry (TypeDoc) and the elements (custom-elements.json)',
    ...elements.map(
      (name) =>
        `- [<${name.replace(/\.md$/, '')}>](/reference/elements/${name.replace(/\.md$/, '.html')}): attributes, properties, events, slots, CSS parts and custom properties`,
    ),
    '- [llms-full.txt](/llms-full.txt): the README and every guide page in one file',
    '',
    '## Optional',
    '',
    ...decisions.map((file) => item(file, false)),
    '',
  ].join('\n');
  const full = [readme, ...guide]
    .map((file) => {
      const name = file === readme ? 'README.md' : relative(docs, file).replaceAll('\\', '/');
      return `<!-- ${name} -->\n\n${readFileSync(file, 'utf8')
        .replace(/^---\n[\s\S]*?\n---\n/, '')
        .trim()}\n`;
    })
    .join('\n');
  return { llms, full };
}

/**
 * Writes both files into `docs`/public.
 * @param {string} docs
 * @param {string} readme
 */
export function writeLlms(docs, readme) {
  const { llms, full } = llmsTexts(docs, readme);
  mkdirSync(join(docs, 'public'), { recursive: true });
  writeFileSync(join(docs, 'public/llms.txt'), llms);
  writeFileSync(join(docs, 'public/llms-full.txt'), full);
  return { llms: llms.length, full: full.length };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { docs: { type: 'string', default: 'docs' } } });
  const sizes = writeLlms(values.docs, 'README.md');
  console.log(`llms.txt ${sizes.llms} chars, llms-full.txt ${sizes.full} chars`);
}
