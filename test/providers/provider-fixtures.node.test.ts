/**
 * The committed provider fixtures (test/fixtures/<provider>/parallel-write.*) are exactly what
 * scripts/make-provider-fixtures.mjs writes through the demo's typed encoders: a change to an
 * encoder that changes a wire format shows up here until the fixtures are regenerated
 * (`npm run fixtures:providers`) and the diff reviewed. Node only (runs the script).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { expect } from 'chai';
import { repositoryRoot } from '../support/repository.js';

const root = repositoryRoot();
const providers = [
  'openai-chat-completions',
  'openai-responses',
  'anthropic-messages',
  'ai-sdk-ui-stream',
];

describe('scripts/make-provider-fixtures.mjs', () => {
  const out = mkdtempSync(join(tmpdir(), 'callfold-fixtures-'));
  after(() => rmSync(out, { recursive: true, force: true }));

  it('rewrites every committed provider fixture byte for byte from the typed encoders', () => {
    const run = spawnSync(
      process.execPath,
      [join(root, 'scripts/make-provider-fixtures.mjs'), '--out', out],
      { cwd: root, encoding: 'utf8' },
    );
    expect(run.status, run.stderr).to.equal(0);
    for (const provider of providers) {
      const files = readdirSync(join(out, provider)).sort();
      expect(files).to.deep.equal(['parallel-write.expected.json', 'parallel-write.sse']);
      for (const file of files) {
        const written = readFileSync(join(out, provider, file));
        const committed = readFileSync(join(root, 'test/fixtures', provider, file));
        expect(written.equals(committed), `${provider}/${file} differs: regenerate and review`).to
          .be.true;
      }
    }
  });
});
