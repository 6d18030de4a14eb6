/**
 * The layer check (`scripts/check-layers.mjs`, run by the `check` test layer) passes on the
 * tree and fails on each kind of forbidden import planted in a copy of it.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { expect } from 'chai';
import { repositoryRoot } from '../support/repository.js';

const root = repositoryRoot();
const script = join(root, 'scripts/check-layers.mjs');

function check(dir: string): { status: number | null; output: string } {
  const run = spawnSync(process.execPath, [script, dir], { cwd: dir, encoding: 'utf8' });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

describe('the layer check', () => {
  let copy = '';
  before(() => {
    copy = mkdtempSync(join(tmpdir(), 'callfold-layers-'));
  });
  after(() => rmSync(copy, { recursive: true, force: true }));

  /** A fresh copy of src/ and elements/ with `line` appended to `file`. */
  function planted(file: string, line: string): string {
    const dir = mkdtempSync(join(copy, 'tree-'));
    for (const top of ['src', 'elements'])
      cpSync(join(root, top), join(dir, top), { recursive: true });
    appendFileSync(join(dir, file), `\n${line}\n`);
    return dir;
  }

  it('passes on the repository as it is', () => {
    const { status, output } = check(root);
    expect(output).to.include('every import goes where its layer may depend');
    expect(status).to.equal(0);
  });

  const plants: [string, string, string, string][] = [
    [
      'the Assembler importing the groups Builder',
      'src/assembler/node-assembler.ts',
      "import { Builder } from '../groups/builder.js';",
      'src/assembler → src/groups',
    ],
    [
      'the reader importing the events',
      'src/arguments/field.ts',
      "export type { CallfoldEvent } from '../events/types.js';",
      'src/arguments → src/events',
    ],
    [
      'the events importing a consumer',
      'src/events/types.ts',
      "import '../rx/assemble.js';",
      'src/events → src/rx',
    ],
    [
      'the schema importing a provider adapter',
      'src/schema/json-schema.ts',
      "import '../providers/openai-chat-completions.js';",
      'src/schema → src/providers',
    ],
    [
      'an element importing a core internal',
      'elements/internal/tool-row-element.ts',
      "import '../../src/tools/categories.js';",
      'elements/internal → src/tools',
    ],
    [
      'the schema importing the CLI (the probe moved out of src/schema)',
      'src/schema/define-tool.ts',
      "import '../cli/probe/run-probe.js';",
      'src/schema → src/cli',
    ],
    [
      'the CLI importing the fold (it reads responses through the adapters only)',
      'src/cli/probe/first-call.ts',
      "import '../../rx/assemble.js';",
      'src/cli → src/rx',
    ],
    [
      'the core importing the server',
      'src/rx/assemble.ts',
      "import '../server/index.js';",
      'src/rx → src/server',
    ],
    [
      'a wire codec importing the HTTP client',
      'src/wire/sse.ts',
      "import '../client/follow-session.js';",
      'src/wire → src/client',
    ],
    [
      'the core importing callfold/internal (it is for the elements only)',
      'src/rx/select-groups.ts',
      "import '../internal-api.js';",
      'src/rx → src/internal-api.ts',
    ],
    [
      'callfold/internal importing more than the tool vocabulary',
      'src/internal-api.ts',
      "import './rx/assemble.js';",
      'src/internal-api.ts → src/rx',
    ],
  ];
  for (const [what, file, line, edge] of plants) {
    it(`fails on a planted import: ${what}`, () => {
      const { status, output } = check(planted(file, line));
      expect(status).to.equal(1);
      expect(output).to.include(`(${edge} is not allowed)`);
    });
  }

  it('fails on a planted rxjs import in the event model (rxjs stays above the fold)', () => {
    const { status, output } = check(
      planted('src/events/types.ts', "import { Observable } from 'rxjs';"),
    );
    expect(status).to.equal(1);
    expect(output).to.include('src/events/types.ts: imports rxjs (src/events is below rxjs)');
  });

  it('fails when two layers import each other, naming both imports', () => {
    const dir = planted('src/definitions/tool-definition.ts', "import '../groups/builder.js';");
    appendFileSync(
      join(dir, 'src/groups/builder.ts'),
      "\nimport '../definitions/tool-definition.js';\n",
    );
    const { status, output } = check(dir);
    expect(status).to.equal(1);
    expect(output).to.include('src/definitions and src/groups import each other');
  });
});
