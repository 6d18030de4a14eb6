// The layer check (`node scripts/check-layers.mjs [root]`, in the `check` test layer): every
// relative import in src/ and elements/ must go where its layer may depend, and no two
// layers may import each other. Exits 1 listing each forbidden import. The rules are the
// "Architecture" section of CONTRIBUTING.md; change both together.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';

/**
 * What each layer may import besides itself. `src/index.ts` is the public core API;
 * `src/internal-api.ts` is `callfold/internal`, for the elements only.
 * @type {Record<string, string[]>}
 */
const ALLOWED = {
  'src/internal': [],
  'src/arguments': ['src/internal'],
  // The event model: types, guards, parseEvent.
  'src/events': ['src/internal'],
  // Wire codecs: SSE and JSONL transcripts.
  'src/wire': ['src/events', 'src/internal'],
  // The direct path's contract between a source and its sink (EventSink, joined ends).
  'src/direct': ['src/events', 'src/internal'],
  'src/assembler': ['src/events', 'src/internal'],
  'src/definitions': ['src/assembler', 'src/arguments', 'src/direct', 'src/events', 'src/internal'],
  // The tool vocabulary: categories, argument fields, detail, patch files, summaries.
  'src/tools': ['src/definitions', 'src/arguments', 'src/internal'],
  'src/groups': ['src/tools', 'src/definitions', 'src/internal'],
  'src/conversation': ['src/assembler', 'src/definitions', 'src/groups', 'src/internal'],
  'src/rx': [
    'src/conversation',
    'src/assembler',
    'src/definitions',
    'src/direct',
    'src/events',
    'src/groups',
    'src/internal',
  ],
  // The HTTP client side and transcript files: followSession, loadHistory, replay, record.
  'src/client': ['src/rx', 'src/wire', 'src/events', 'src/internal'],
  'src/providers': ['src/direct', 'src/wire', 'src/events', 'src/internal'],
  'src/schema': ['src/events', 'src/internal'],
  // The `callfold` command: it writes requests with the schema module and reads responses
  // through the provider adapters (the one reader of each wire format). Nothing imports it
  // but bin/callfold.mjs.
  'src/cli': ['src/providers', 'src/schema', 'src/wire', 'src/events', 'src/internal'],
  // The server hosts sessions: events, the fold and adapters; nothing imports it but its own
  // entries (callfold/server, callfold/server/file, callfold/server/redis).
  'src/server': [
    'src/events',
    'src/wire',
    'src/assembler',
    'src/conversation',
    'src/rx',
    'src/providers',
    'src/internal',
  ],
  'src/index.ts': [
    'src/arguments',
    'src/assembler',
    'src/client',
    'src/conversation',
    'src/definitions',
    'src/events',
    'src/groups',
    'src/providers',
    'src/rx',
    'src/schema',
    'src/tools',
    'src/wire',
  ],
  // `callfold/internal`: the undocumented names callfold's own elements read.
  'src/internal-api.ts': ['src/tools'],
  // Elements read the core through its public API, and callfold/internal.
  elements: ['elements/internal'],
  'elements/internal': ['src/index.ts', 'src/internal-api.ts'],
};

/**
 * The layers below the fold's consumers, which import no rxjs: the reader, the event model,
 * the assembler, the Definitions, the tool vocabulary, the Builder and the composition.
 */
const WITHOUT_RXJS = [
  'src/internal',
  'src/arguments',
  'src/events',
  'src/assembler',
  'src/definitions',
  'src/tools',
  'src/groups',
  'src/conversation',
  'src/schema',
];

const RXJS = /\bfrom\s*['"]rxjs(?:\/[^'"]*)?['"]|\bimport\s*\(?\s*['"]rxjs(?:\/[^'"]*)?['"]/;

/**
 * The layer of a path relative to the root: a folder of src/, src/index.ts, or elements.
 * @param {string} path
 * @returns {string}
 */
export function layerOf(path) {
  const parts = path.split(/[\\/]/);
  if (parts[0] === 'src')
    return parts.length > 2 ? `src/${parts[1]}` : `src/${parts[1]}`.replace(/\.js$/, '.ts');
  if (parts[0] === 'elements')
    return parts[1] === 'internal' && parts.length > 2 ? 'elements/internal' : 'elements';
  return parts[0] ?? path;
}

const IMPORT = /\bfrom\s*['"](\.{1,2}\/[^'"]+)['"]|\bimport\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g;

/**
 * The source files under `root`/`dir`, as paths relative to `root`.
 * @param {string} root
 * @param {string} dir
 * @returns {Generator<string>}
 */
function* sources(root, dir) {
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(root, path);
    else if (/\.(ts|mts|js|mjs)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) yield path;
  }
}

/**
 * Every forbidden import under `root`, as "file: imports target (layer → layer)".
 * @param {string} root
 */
export function forbiddenImports(root) {
  const problems = [];
  const edges = new Map();
  for (const top of ['src', 'elements']) {
    for (const file of sources(root, top)) {
      const from = layerOf(file);
      const text = readFileSync(join(root, file), 'utf8');
      if (WITHOUT_RXJS.includes(from) && RXJS.test(text))
        problems.push(`${file}: imports rxjs (${from} is below rxjs)`);
      for (const match of text.matchAll(IMPORT)) {
        const spec = /** @type {string} */ (match[1] ?? match[2]);
        const target = relative('.', normalize(join(dirname(file), spec)));
        const to = layerOf(target);
        if (to === from) continue;
        const key = `${from} → ${to}`;
        if (!edges.has(key)) edges.set(key, `${file}: imports ${spec}`);
        const allowed = ALLOWED[from];
        if (allowed === undefined) problems.push(`${file}: layer ${from} has no rule`);
        else if (!allowed.includes(to))
          problems.push(`${file}: imports ${spec} (${key} is not allowed)`);
      }
    }
  }
  for (const key of edges.keys()) {
    const [from, to] = key.split(' → ');
    if (from < to && edges.has(`${to} → ${from}`)) {
      problems.push(
        `${from} and ${to} import each other: ${edges.get(key)}; ${edges.get(`${to} → ${from}`)}`,
      );
    }
  }
  return problems.map((problem) => problem.split(sep).join('/'));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const problems = forbiddenImports(process.argv[2] ?? '.');
  for (const problem of problems) console.error(`layers: ${problem}`);
  if (problems.length > 0) {
    console.error(
      `layers: ${problems.length} forbidden import(s); see CONTRIBUTING.md "Architecture"`,
    );
    process.exit(1);
  }
  console.log('layers: every import goes where its layer may depend');
}
