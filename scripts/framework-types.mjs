// `npm run build` (after `npm run manifest`): framework typings for the elements, generated
// from custom-elements.json into dist/elements/{react,vue,svelte}.{js,d.ts}, so that the
// published entries `callfold/elements/react`, `…/vue` and `…/svelte` describe exactly what
// the manifest lists: each tag's public writable properties, its attributes whose names differ
// from a property, and its events. Property types are the classes' own
// (`ToolRowElement['node']`), event types come from `GlobalEventHandlersEventMap`, which the
// element modules augment; nothing is written by hand twice.
//
// Each entry only augments a framework's types (`declare module 'react'`, `'vue'`,
// `'svelte/elements'`), so it is opt-in: `import type {} from 'callfold/elements/react';`.
// The element modules never import a framework, so a consumer without @types/react is
// unaffected. The .js files are empty modules, so a value import of an entry does not break.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The parts of custom-elements.json (schema 1.0.0) read here.
 * @typedef {{ kind: string, name: string, static?: boolean, readonly?: boolean,
 *   privacy?: string, description?: string }} Member
 * @typedef {{ name: string, fieldName?: string }} Attribute
 * @typedef {{ name: string, description?: string }} ElementEvent
 * @typedef {{ name: string, customElement?: boolean, tagName?: string, summary?: string,
 *   members?: Member[], attributes?: Attribute[], events?: ElementEvent[] }} Declaration
 * @typedef {{ kind: string, name: string, declaration: { name: string } }} Export
 * @typedef {{ modules: { exports?: Export[], declarations?: Declaration[] }[] }} Manifest
 */
/**
 * One element as the generators write it.
 * @typedef {{ tag: string, className: string, summary: string, properties: Member[],
 *   attributes: Attribute[], events: ElementEvent[] }} Element
 */

const repository = fileURLToPath(new URL('..', import.meta.url));
const outDir = join(repository, 'dist/elements');

/**
 * What the manifest says about each element, in tag order.
 * @param {Manifest} manifest
 * @returns {Element[]}
 */
export function elementsOf(manifest) {
  /** @type {Map<string, string>} */
  const tags = new Map();
  for (const mod of manifest.modules)
    for (const exp of mod.exports ?? [])
      if (exp.kind === 'custom-element-definition') tags.set(exp.declaration.name, exp.name);
  /** @type {Element[]} */
  const elements = [];
  for (const mod of manifest.modules)
    for (const declaration of mod.declarations ?? []) {
      if (!declaration.customElement) continue;
      const tag = tags.get(declaration.name) ?? declaration.tagName;
      if (!tag) continue;
      const properties = (declaration.members ?? []).filter(
        (m) =>
          m.kind === 'field' &&
          !m.static &&
          !m.readonly &&
          m.privacy !== 'private' &&
          m.privacy !== 'protected' &&
          !m.name.startsWith('#'),
      );
      const names = new Set(properties.map((p) => p.name));
      const attributes = (declaration.attributes ?? []).filter(
        (a) => a.fieldName && a.name !== a.fieldName && names.has(a.fieldName),
      );
      elements.push({
        tag,
        className: declaration.name,
        summary: declaration.summary ?? '',
        properties,
        attributes,
        events: (declaration.events ?? []).filter((e) => e.name),
      });
    }
  return elements.sort((a, b) => a.tag.localeCompare(b.tag));
}

/** @type {(text: string | undefined, indent: string) => string} */
const doc = (text, indent) =>
  text ? `${indent}/** ${text.replace(/\*\//g, '*\\/').replace(/\s*\n\s*/g, ' ')} */\n` : '';
/** @type {(name: string) => string} */
const quote = (name) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : `'${name}'`);
/** @type {(framework: string, optIn: string) => string} */
const header = (framework, optIn) =>
  `// Generated from custom-elements.json by scripts/framework-types.mjs: do not edit.
// ${framework} typings for <tool-row>, <tool-group> and <tool-timeline>. Opt in once:
//   ${optIn}
`;

/** @param {readonly Element[]} elements */
function classImports(elements) {
  return `import type { ${elements.map((e) => e.className).join(', ')} } from './classes.js';\n`;
}

/**
 * Properties (and differently named attributes) of one element, as optional members.
 * @param {Element} element
 * @param {string} indent
 */
function propertyMembers(element, indent) {
  let out = '';
  for (const p of element.properties)
    out += `${doc(p.description, indent)}${indent}${quote(p.name)}?: ${element.className}['${p.name}'];\n`;
  for (const a of element.attributes)
    out += `${doc(`Attribute of \`${a.fieldName}\`.`, indent)}${indent}${quote(a.name)}?: ${element.className}['${a.fieldName}'] | string;\n`;
  return out;
}

/** @param {readonly Element[]} elements */
function react(elements) {
  let out = header('React 19 JSX', "import type {} from 'callfold/elements/react';");
  out += `import type { DetailedHTMLProps, HTMLAttributes } from 'react';\n${classImports(elements)}`;
  out += `
/**
 * React 19 sets a prop as a property when the element has a property of that name, and
 * listens to \`on<event-name>\` props as DOM events of that exact name.
 */
declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
`;
  for (const element of elements) {
    out += `${doc(element.summary, '      ')}      '${element.tag}': DetailedHTMLProps<HTMLAttributes<${element.className}>, ${element.className}> & {\n`;
    out += propertyMembers(element, '        ');
    for (const e of element.events)
      out += `${doc(e.description, '        ')}        'on${e.name}'?: (event: GlobalEventHandlersEventMap['${e.name}']) => void;\n`;
    out += '      };\n';
  }
  out += '    }\n  }\n}\n';
  return out;
}

/** @param {readonly Element[]} elements */
function vue(elements) {
  let out = header(
    'Vue 3 template (vue-tsc, Volar)',
    "import type {} from 'callfold/elements/vue';",
  );
  out += `import type { EmitFn, HTMLAttributes, PublicProps } from 'vue';\n${classImports(elements)}`;
  out += `
/**
 * A custom element as Vue's template checker sees a component: \`$props\` are its
 * properties (bind them with \`:prop\` or \`.prop\`), \`$emit\` its DOM events (\`@event-name\`).
 * Vue itself must be told the tags are custom elements (\`compilerOptions.isCustomElement\`).
 */
type CustomElement<Element extends HTMLElement, Props, Events extends Record<string, Event>> =
  new () => Element & {
    /** For template type checking only; not a property of the element. */
    $props: HTMLAttributes & Partial<Props> & PublicProps;
    /** For template type checking only; not a property of the element. */
    $emit: EmitFn<{ [K in keyof Events]: (event: Events[K]) => void }>;
  };

declare module 'vue' {
  interface GlobalComponents {
`;
  for (const element of elements) {
    out += `${doc(element.summary, '    ')}    '${element.tag}': CustomElement<\n      ${element.className},\n      {\n`;
    out += propertyMembers(element, '        ').replace(/\?:/g, ':');
    out += '      },\n      {\n';
    for (const e of element.events)
      out += `        '${e.name}': GlobalEventHandlersEventMap['${e.name}'];\n`;
    out += '      }\n    >;\n';
  }
  out += '  }\n}\n';
  return out;
}

/** @param {readonly Element[]} elements */
function svelte(elements) {
  let out = header('Svelte 5 (svelte-check)', "import type {} from 'callfold/elements/svelte';");
  out += `import type { HTMLAttributes } from 'svelte/elements';\n${classImports(elements)}`;
  out += `
/**
 * Svelte 5 sets an attribute as a property when the element has a property of that name,
 * and listens to \`on<event-name>\` attributes as DOM events of that exact name.
 */
declare module 'svelte/elements' {
  interface SvelteHTMLElements {
`;
  for (const element of elements) {
    out += `${doc(element.summary, '    ')}    '${element.tag}': HTMLAttributes<${element.className}> & {\n`;
    out += propertyMembers(element, '      ');
    for (const e of element.events)
      out += `${doc(e.description, '      ')}      'on${e.name}'?: (event: GlobalEventHandlersEventMap['${e.name}']) => void;\n`;
    out += '    };\n';
  }
  out += '  }\n}\n';
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const manifest = JSON.parse(readFileSync(join(repository, 'custom-elements.json'), 'utf8'));
  const elements = elementsOf(manifest);
  if (elements.length === 0) throw new Error('custom-elements.json lists no element');
  mkdirSync(outDir, { recursive: true });
  for (const [name, generate] of Object.entries({ react, vue, svelte })) {
    writeFileSync(join(outDir, `${name}.d.ts`), generate(elements));
    writeFileSync(
      join(outDir, `${name}.js`),
      `// Types only: see ${name}.d.ts (opt in with \`import type {} from 'callfold/elements/${name}'\`).\nexport {};\n`,
    );
  }
}
