// The framework apps check (`node --test scripts/examples-check.mjs`, in the `pack` layer after
// scripts/pack-tarball.mjs, whose tarball it installs): copies examples/frameworks/ to a scratch
// directory, points each app's `callfold` dependency at the packed tarball, installs the
// workspace once, typechecks and builds every app (vanilla TypeScript, Vue 3, Svelte 5, React
// 19, Angular 20) with its own toolchain, then serves each build and checks it in headless Chromium: the
// rows render, and a click on a row's path reaches the framework's own handler (the app shows
// the path it received). Svelte's negative twin: a wrong property type fails svelte-check for
// its type (as the Vue and React twins of scripts/pack-check.mjs do), and the same file without
// the `callfold/elements/svelte` opt-in passes (the control: an unknown tag takes anything).
// Angular's twin: ngc types `(tool-open-path)`'s `$event` from the element typings under
// strictTemplates (a handler taking another event fails; off, the control, it passes), and
// compiles the guide's Angular recipe. `ng build` asks nothing: the app's angular.json turns
// the CLI's analytics off, and nothing needs an install script (esbuild ships its binary as an
// optional dependency). Needs the npm registry or a warm npm cache.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import puppeteer from 'puppeteer-core';
import { markedSamples } from './doc-samples.mjs';
import { chromiumArgs, chromiumPath } from './find-chromium.mjs';
import { npm, run } from './run-command.mjs';

const repository = fileURLToPath(new URL('..', import.meta.url));
const examples = join(repository, 'examples/frameworks');
const tarball = join(repository, '.build-pack/callfold.tgz');
const apps = ['vanilla', 'vue', 'svelte', 'react', 'angular'];

/** @type {string | undefined} */
let scratch;
/** The copy of examples/frameworks the apps are installed and built in. */
/** @type {string} */
let workspace;
/** @type {import('puppeteer-core').Browser | undefined} */
let browser;

before(
  async () => {
    if (!existsSync(tarball)) {
      throw new Error(
        `${tarball} is missing: run scripts/pack-tarball.mjs first (the pack layer's build)`,
      );
    }
    scratch = mkdtempSync(join(tmpdir(), 'callfold-examples-'));
    workspace = join(scratch, 'frameworks');
    cpSync(examples, workspace, {
      recursive: true,
      filter: (path) =>
        !/[/\\](node_modules|dist|\.angular)([/\\]|$)/.test(path.slice(examples.length)),
    });
    for (const app of apps) {
      const file = join(workspace, app, 'package.json');
      const manifest = JSON.parse(readFileSync(file, 'utf8'));
      manifest.dependencies.callfold = `file:${tarball}`;
      writeFileSync(file, JSON.stringify(manifest, null, 2));
    }
    run(npm, ['install', '--no-audit', '--no-fund', '--prefer-offline'], workspace);
    browser = await puppeteer.launch({
      executablePath: chromiumPath(),
      headless: true,
      args: [...chromiumArgs],
    });
  },
  { timeout: 600_000 },
);

after(async () => {
  await browser?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** @type {Record<string, string>} */
const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };

/**
 * Serves a built app's files on a free loopback port.
 * @param {string} dir
 */
async function serve(dir) {
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    if (path === '/favicon.ico') {
      response.writeHead(204).end();
      return;
    }
    const file = normalize(join(dir, path === '/' ? 'index.html' : path));
    if (!file.startsWith(dir) || !existsSync(file)) {
      response.writeHead(404).end();
      return;
    }
    const type = Object.hasOwn(types, extname(file)) ? types[extname(file)] : undefined;
    response.writeHead(200, { 'content-type': type ?? 'application/octet-stream' });
    response.end(readFileSync(file));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  return { server, url: `http://127.0.0.1:${port}/` };
}

/** Runs in the page: the rows inside the timeline's groups, through their shadow roots. */
function rowsOf() {
  const timeline = document.querySelector('tool-timeline');
  const groups = Array.from(timeline?.shadowRoot?.querySelectorAll('tool-group') ?? []);
  return groups.flatMap((group) =>
    Array.from(group.shadowRoot?.querySelectorAll('tool-row') ?? []),
  );
}

for (const app of apps) {
  test(`${app}: the app typechecks and builds from the tarball; in Chromium its rows render and tool-open-path reaches its handler`, async () => {
    const dir = join(workspace, app);
    // Angular's `ng build` typechecks (strictTemplates) itself: its app has no typecheck script.
    const { scripts } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    if (scripts.typecheck) run(npm, ['run', 'typecheck'], dir);
    run(npm, ['run', 'build'], dir);
    const { server, url } = await serve(join(dir, 'dist'));
    if (!browser) throw new Error('Chromium did not start');
    const page = await browser.newPage();
    /** @type {string[]} */
    const errors = [];
    page.on('pageerror', (error) =>
      errors.push(error instanceof Error ? error.message : String(error)),
    );
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warn') errors.push(message.text());
    });
    try {
      await page.goto(url);
      await page.waitForFunction(
        `(${rowsOf})().filter((row) => row.getAttribute('stage') === 'result').length === 2`,
        { timeout: 20_000 },
      );
      const titles = await page.evaluate(
        `(${rowsOf})().map((row) => row.shadowRoot.querySelector('[part~="path"]')?.textContent.trim())`,
      );
      assert.deepEqual(titles, ['README.md', 'src/greeting.ts']);
      assert.equal(
        await page.$eval('output#opened', (/** @type {Element} */ node) => node.textContent),
        '',
      );
      await page.evaluate(`(${rowsOf})()[1].shadowRoot.querySelector('[part~="path"]').click()`);
      await page.waitForFunction(
        () => document.querySelector('output#opened')?.textContent === 'src/greeting.ts',
        { timeout: 5_000 },
      );
      // Vue warns "Failed to resolve component" when isCustomElement is missing; nothing may.
      assert.deepEqual(
        errors.filter((text) => !/Lit is in dev mode/.test(text)),
        [],
      );
    } finally {
      await page.close();
      server.close();
    }
  });
}

/**
 * A Svelte component binding a number to `<tool-row node>`, with or without the typings.
 * @param {boolean} optIn
 */
const svelteNegative = (optIn) => `<script lang="ts">
import 'callfold/elements/tool-row';
${optIn ? "import type {} from 'callfold/elements/svelte';\n" : ''}</script>

<tool-row node={12345} expanded />
`;

test("Svelte 5: a wrong property type fails svelte-check for its type; without callfold/elements/svelte (the control) it passes; the guide's recipe checks", () => {
  const dir = join(workspace, 'svelte');
  mkdirSync(join(dir, 'negative'), { recursive: true });
  writeFileSync(
    join(dir, 'tsconfig.negative.json'),
    JSON.stringify({ extends: './tsconfig.json', include: ['negative/**/*.svelte'] }),
  );
  const bin = join(workspace, 'node_modules/svelte-check/bin/svelte-check');
  /** @param {boolean} optIn */
  const check = (optIn) => {
    writeFileSync(join(dir, 'negative/Negative.svelte'), svelteNegative(optIn));
    const result = spawnSync(
      process.execPath,
      [bin, '--tsconfig', './tsconfig.negative.json', '--output', 'machine'],
      { cwd: dir, encoding: 'utf8' },
    );
    return { status: result.status, output: `${result.stdout}${result.stderr}` };
  };
  const typed = check(true);
  assert.notEqual(typed.status, 0, `a number bound to node must not typecheck:\n${typed.output}`);
  assert.match(typed.output, /Type 'number' is not assignable to type 'ToolNode/);
  assert.match(typed.output, /Negative\.svelte/);
  const untyped = check(false);
  assert.equal(untyped.status, 0, `without the typings the tag takes anything:\n${untyped.output}`);
  // The guide's Svelte recipe (docs/guide/frameworks.md), in a program of its own: its opt-in
  // to the typings would reach the control above.
  const recipes = markedSamples(repository, { '<!-- typecheck: svelte -->': 'svelte' });
  assert.ok(recipes.length >= 1, 'the guide has a Svelte recipe');
  mkdirSync(join(dir, 'recipes'), { recursive: true });
  for (const recipe of recipes) {
    writeFileSync(join(dir, `recipes/${recipe.name.replaceAll('-', '_')}.svelte`), recipe.code);
  }
  writeFileSync(
    join(dir, 'tsconfig.recipes.json'),
    JSON.stringify({ extends: './tsconfig.json', include: ['recipes/**/*.svelte'] }),
  );
  const recipe = spawnSync(
    process.execPath,
    [bin, '--tsconfig', './tsconfig.recipes.json', '--output', 'machine'],
    { cwd: dir, encoding: 'utf8' },
  );
  assert.equal(recipe.status, 0, `the guide's Svelte recipe:\n${recipe.stdout}${recipe.stderr}`);
});

// biome-ignore lint/suspicious/noControlCharactersInRegex: stripping ANSI colour codes.
const ansi = /\x1b\[[0-9;]*m/g;

/**
 * An Angular component whose `(tool-open-path)` handler takes the wrong event type, and which
 * binds a number to `[source]`.
 */
const angularNegative = `import { Component, CUSTOM_ELEMENTS_SCHEMA } from '@angular/core';
import 'callfold/elements/tool-timeline';
import type { ToolRowToggleEvent } from 'callfold/elements/tool-timeline';

@Component({
  selector: 'app-negative',
  schemas: [CUSTOM_ELEMENTS_SCHEMA],
  template: '<tool-timeline [source]="12345" (tool-open-path)="toggled($event)"></tool-timeline>',
})
export class NegativeComponent {
  toggled(event: ToolRowToggleEvent): string {
    return event.detail.callId;
  }
}
`;

test("Angular 20: the guide's recipe typechecks with strictTemplates; (tool-open-path)'s $event is a ToolOpenPathEvent (a handler taking another event fails ngc for its type; with strictDomEventTypes off, the control, it passes); [source] is not typechecked", () => {
  const dir = join(workspace, 'angular');
  mkdirSync(join(dir, 'negative'), { recursive: true });
  writeFileSync(join(dir, 'negative/negative.component.ts'), angularNegative);
  // The guide's Angular recipe (docs/guide/frameworks.md).
  const recipes = markedSamples(repository, { '<!-- typecheck: angular -->': 'ts' });
  assert.ok(recipes.length >= 1, 'the guide has an Angular recipe');
  const files = ['negative/negative.component.ts'];
  for (const recipe of recipes) {
    const file = `negative/${recipe.name}.component.ts`;
    writeFileSync(join(dir, file), recipe.code);
    files.push(file);
  }
  const bin = join(workspace, 'node_modules/@angular/compiler-cli/bundles/src/bin/ngc.js');
  /** @param {boolean} strictDomEventTypes */
  const check = (strictDomEventTypes) => {
    writeFileSync(
      join(dir, 'tsconfig.negative.json'),
      JSON.stringify({
        extends: './tsconfig.json',
        files,
        angularCompilerOptions: { strictDomEventTypes },
      }),
    );
    const result = spawnSync(process.execPath, [bin, '-p', 'tsconfig.negative.json', '--noEmit'], {
      cwd: dir,
      encoding: 'utf8',
    });
    // ngc prints TypeScript's coloured diagnostics whatever the terminal.
    const output = `${result.stdout}${result.stderr}`.replace(ansi, '');
    return { status: result.status, output };
  };
  const typed = check(true);
  assert.notEqual(
    typed.status,
    0,
    `a handler of another event must not typecheck:\n${typed.output}`,
  );
  // One error, in the negative template's event binding: none in the guide's recipe, none
  // for the number bound to [source].
  const errors = typed.output.match(/error TS\d+/g) ?? [];
  assert.equal(errors.length, 1, typed.output);
  assert.match(
    typed.output,
    /negative\/negative\.component\.ts:8:\d+ - error TS\d+: Argument of type 'ToolOpenPathEvent' is not assignable to parameter of type 'ToolRowToggleEvent'/,
  );
  const untyped = check(false);
  assert.equal(untyped.status, 0, `with $event as any the handler takes it:\n${untyped.output}`);
});
