/**
 * Visual regression: a row at each stage and an expanded group, in the light and the dark
 * scheme, screenshotted and compared against the committed baselines in
 * test/elements/screenshots/baseline/ (see CONTRIBUTING.md: Screenshots). The scheme comes from
 * emulating `prefers-color-scheme`, the theme's own switch; reduced motion stops the
 * activity pulse and the chevron transition; fonts are pinned to DejaVu (Debian's
 * fonts-dejavu-core) so the baselines do not depend on the system font.
 */
import { fixture, html } from '@open-wc/testing';
import { emulateMedia } from '@web/test-runner-commands';
import * as visualRegression from '@web/test-runner-visual-regression';
import type { TemplateResult } from 'lit';
import '../../elements/tool-group.js';
import '../../elements/tool-row.js';
import { describe, it } from '../harness.js';
import { Session } from './session.js';

// 0.10's index.d.ts re-exports './browser/commands.mjs', which ships no .d.mts, so the
// types come from browser/commands.d.ts by hand.
const { visualDiff } = visualRegression as unknown as {
  visualDiff(element: Node, name: string): Promise<void>;
};

const wrapper = [
  'width: 560px',
  'padding: 8px',
  'box-sizing: border-box',
  "--callfold-font-family: 'DejaVu Sans', sans-serif",
  "--callfold-mono-font-family: 'DejaVu Sans Mono', monospace",
  '--callfold-font-size: 14px',
].join('; ');

/** Renders `content` in the fixed-width wrapper, in the scheme, once fonts have loaded. */
async function render(content: TemplateResult, scheme: 'light' | 'dark'): Promise<HTMLElement> {
  await emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
  const el = await fixture<HTMLElement>(
    html`<div
      style="${wrapper}; background: ${scheme === 'dark' ? '#0d1117' : '#ffffff'}"
    >
      ${content}
    </div>`,
  );
  const inner = el.firstElementChild as
    | (HTMLElement & { updateComplete?: Promise<unknown> })
    | null;
  await inner?.updateComplete;
  await document.fonts.ready;
  await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  return el;
}

const stages: Record<string, () => TemplateResult> = {
  'row-preparing': () => {
    const session = new Session().delta(
      'c1',
      `{"file_path":"src/report.ts","content":"${'x'.repeat(2100)}`,
      'Write',
    );
    return html`<tool-row .node=${session.tool('c1')}></tool-row>`;
  },
  'row-started': () => {
    const session = new Session().call('c1', 'Bash', {
      command: 'npm ci',
      description: 'Install dependencies',
    });
    return html`<tool-row .node=${session.tool('c1')}></tool-row>`;
  },
  'row-result': () => {
    const session = new Session()
      .call('c1', 'Bash', { command: 'ls src', description: 'List the sources' })
      .result('c1', 'assembler\ndefinitions\nevents\ngroups\nindex.ts');
    return html`<tool-row expanded .node=${session.tool('c1')}></tool-row>`;
  },
  'row-error': () => {
    const session = new Session()
      .call('c1', 'Bash', { command: 'npm run missing', description: 'Run a missing script' })
      .result('c1', 'npm error Missing script: "missing"', true);
    return html`<tool-row expanded .node=${session.tool('c1')}></tool-row>`;
  },
  'row-patch': () => {
    const session = new Session().delta(
      'c1',
      JSON.stringify({
        input:
          '*** Begin Patch\n*** Update File: src/app.ts\n@@\n-run();\n+run({ verbose: true });\n' +
          '*** Add File: docs/usage.md\n+# Usage\n',
      }).slice(0, -2),
      'apply_patch',
    );
    return html`<tool-row .node=${session.tool('c1')}></tool-row>`;
  },
  'row-provider': () => {
    const session = new Session().providerCall(
      'c1',
      'web_search',
      { query: 'lit 3 release date' },
      'Lit 3.0 was released on 2023-10-10.',
    );
    return html`<tool-row expanded .node=${session.tool('c1')}></tool-row>`;
  },
  'row-cut': () => {
    const args = `{"file_path":"src/report.ts","content":"${'x'.repeat(5000)}`;
    const session = new Session().delta('c1', args, 'Write').cut('c1', 'Write', args);
    return html`<tool-row .node=${session.tool('c1')}></tool-row>`;
  },
  'row-approval': () => {
    const session = new Session().call('c1', 'Bash', {
      command: 'npm publish',
      description: 'Publish the package',
    });
    return html`<tool-row .node=${session.approvalRequest('c1').tool('c1')}></tool-row>`;
  },
  'row-denied': () => {
    const session = new Session().call('c1', 'Bash', {
      command: 'git push --force',
      description: 'Force-push main',
    });
    session.approvalRequest('c1').approval('c1', false, 'never force-push main');
    return html`<tool-row .node=${session.tool('c1')}></tool-row>`;
  },
  group: () => {
    const session = new Session()
      .call('c1', 'Read', { file_path: 'src/index.ts' })
      .call('c2', 'Grep', { pattern: 'publish', path: 'src' })
      .call('c3', 'Bash', { command: 'npm test', description: 'Run the tests' })
      .call('c4', 'Edit', { file_path: 'src/index.ts', old_string: 'a', new_string: 'b' })
      .result('c1', 'export * from "./assembler/assembler.js";')
      .result('c2', 'src/assembler/assembler.ts')
      .result('c3', '1 failed', true);
    return html`<tool-group expanded .group=${session.group('c1')}></tool-group>`;
  },
};

describe('visual regression', () => {
  for (const scheme of ['light', 'dark'] as const) {
    for (const [name, content] of Object.entries(stages)) {
      it(`${name} (${scheme})`, async () => {
        const el = await render(content(), scheme);
        await visualDiff(el, `${name}-${scheme}`);
      });
    }
  }
});
