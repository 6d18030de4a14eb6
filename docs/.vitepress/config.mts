// The documentation site (`npm run docs`, `npm run docs:dev`): the guide (docs/guide/), the
// reference generated into docs/reference/ by scripts/docs-build.mjs, the decision records,
// and pages with callfold's live elements, imported from the sources (`callfold` → src/).
// The site is served at / (`base`); to publish under a sub-path, set `base` here.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitepress';
import { githubSlug } from '../../scripts/github-slug.mjs';
import { REPOSITORY_WEB, repositoryLinks } from './repository-links.js';
import { sidebar } from './sidebar.js';

const repository = fileURLToPath(new URL('../../', import.meta.url));
const docs = fileURLToPath(new URL('../', import.meta.url));
const from = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));

export default defineConfig({
  title: 'callfold',
  description:
    'Show LLM tool calls while they stream: fold agent events into live tool nodes and render them with custom elements.',
  lang: 'en',
  base: '/',
  // Not a page: a README of docs/ itself would be for readers of the folder on GitHub (the
  // site's home is index.md). decisions/README.md is a page: the records' index.
  srcExclude: ['README.md'],
  // A dead internal link fails the build (and `npm test`).
  ignoreDeadLinks: false,
  lastUpdated: false,
  head: [['link', { rel: 'icon', href: 'data:,' }]],
  markdown: {
    // GitHub's anchors, so that `./serving.md#following-a-session` works on GitHub and here.
    anchor: { slugify: githubSlug },
    config: (md) => repositoryLinks(md, repository, 'docs'),
  },
  vue: {
    template: {
      compilerOptions: { isCustomElement: (tag) => tag.startsWith('tool-') },
    },
  },
  vite: {
    resolve: {
      alias: [
        { find: /^callfold$/, replacement: from('src/index.ts') },
        { find: /^callfold\/elements\/(.*)\.js$/, replacement: from('elements/$1.ts') },
      ],
    },
    server: { fs: { allow: [repository] } },
    // The local search index of every page is one chunk (~700 KB), loaded when search opens.
    build: { chunkSizeWarningLimit: 1024 },
    plugins: [
      {
        // package.json's `sideEffects` names the registrations in dist/ only, so the bundler
        // would drop `import './tool-group.js'` of the sources: the elements' entry files
        // register tags, which is a side effect.
        name: 'callfold-element-registrations',
        transform(code, id) {
          if (id.startsWith(from('elements/')) && !id.includes('/internal/'))
            return { code, map: null, moduleSideEffects: true };
          return undefined;
        },
      },
    ],
  },
  themeConfig: {
    nav: [
      { text: 'Guide', link: '/guide/getting-started', activeMatch: '^/guide/' },
      { text: 'Live elements', link: '/showcase' },
      { text: 'Reference', link: '/reference/', activeMatch: '^/reference/' },
      { text: 'Decisions', link: '/decisions/README', activeMatch: '^/decisions/' },
    ],
    sidebar: sidebar(docs),
    search: { provider: 'local' },
    outline: { level: [2, 3] },
    socialLinks: [{ icon: 'github', link: REPOSITORY_WEB }],
    footer: { message: 'MIT licensed.' },
  },
});
