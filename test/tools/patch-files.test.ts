/**
 * The files a patch names, as its headers stream (`patchFiles`): Codex and unified formats,
 * the same answer for any fragmentation, a header only once its line ends, and only new
 * text read per publication (with a negative control).
 */
import { expect } from 'chai';
import { PartialArguments } from '../../src/arguments/partial-arguments.js';
import { toolDetail } from '../../src/tools/detail.js';
import { PATCH_FILES_KEPT, patchFileList, patchFiles } from '../../src/tools/patch-files.js';
import { fragment } from '../arguments/support/json-text.js';
import { work } from '../arguments/support/work.js';
import { describe, it } from '../harness.js';

const codex = [
  '*** Begin Patch',
  '*** Update File: src/app.ts',
  '@@ export function main() {',
  '-  run();',
  '+  run({ verbose: true });',
  '+*** Add File: not/a/header.ts',
  '+++ also not a header',
  '*** Add File: docs/usage.md',
  '+# Usage',
  '*** Delete File: old/legacy.ts',
  '*** Update File: src/name.ts',
  '*** Move to: src/renamed.ts',
  '@@',
  '-a',
  '+b',
  '*** End Patch',
].join('\n');

const expected = [
  { path: 'src/app.ts', action: 'update' },
  { path: 'docs/usage.md', action: 'add' },
  { path: 'old/legacy.ts', action: 'delete' },
  { path: 'src/name.ts', action: 'move', to: 'src/renamed.ts' },
];

const filesOf = (text: string) =>
  patchFiles(PartialArguments.fromText(JSON.stringify({ input: text })), 'input');

describe('patchFiles', () => {
  it('reads the Codex headers: add, update, delete and move; added lines are not headers', () => {
    const patch = filesOf(codex);
    expect(patch?.files).to.deep.equal(expected);
    expect(patch?.count).to.equal(4);
    expect(patchFileList(patch!)).to.equal(
      'src/app.ts, docs/usage.md, old/legacy.ts, src/name.ts → src/renamed.ts',
    );
  });

  it('reads unified diff headers, without /dev/null', () => {
    const diff =
      '--- a/x.ts\n+++ b/x.ts\n@@\n-a\n+b\n--- a/gone.ts\n+++ /dev/null\n@@\n-c\r\n+++ y.ts\r\n';
    expect(filesOf(diff)?.files.map((file) => file.path)).to.deep.equal(['x.ts', 'y.ts']);
  });

  it('is undefined for a field that is not a string, empty with no header', () => {
    const args = PartialArguments.fromText('{"input":[1],"other":"no headers\\nhere"}');
    expect(patchFiles(args, 'input')).to.equal(undefined);
    expect(patchFiles(args, 'other')?.count).to.equal(0);
  });

  for (const sizes of [[1], [3, 1, 7], [16], [200]]) {
    it(`streamed in fragments of ${sizes}: the same files, each header only once its line ended`, () => {
      const text = JSON.stringify({ input: codex });
      const view = PartialArguments.streaming();
      const finals = new Set(expected.flatMap((file) => [file.path, file.to ?? file.path]));
      for (const piece of fragment(text, sizes)) {
        view.append(piece);
        for (const file of patchFiles(view, 'input')?.files ?? []) {
          expect(finals.has(file.path), `never half a path: ${file.path}`).to.be.true;
        }
      }
      expect(patchFiles(view.seal(text), 'input')?.files).to.deep.equal(expected);
    });
  }

  it('the last header counts when the patch closes without a newline', () => {
    expect(filesOf('*** Begin Patch\n*** Add File: a.ts')?.files).to.deep.equal([
      { path: 'a.ts', action: 'add' },
    ]);
  });

  it(`keeps the first ${PATCH_FILES_KEPT} files and counts the rest`, () => {
    const many = Array.from({ length: 100 }, (_, i) => `*** Add File: f${i}.ts\n+x`).join('\n');
    const patch = filesOf(`*** Begin Patch\n${many}\n*** End Patch`);
    expect(patch?.files).to.have.length(PATCH_FILES_KEPT);
    expect(patch?.count).to.equal(100);
    expect(patchFileList(patch!)).to.match(/^f0\.ts, f1\.ts, .* f7\.ts, \+92 more$/);
  });

  it('answers the same object until a header arrives', () => {
    const view = PartialArguments.streaming();
    view.append('{"input":"*** Begin Patch\\n*** Add File: a.ts\\n+x');
    const first = patchFiles(view, 'input');
    view.append('yz\\n+more');
    expect(patchFiles(view, 'input')).to.equal(first);
    view.append('\\n*** Add File: b.ts\\n');
    expect(patchFiles(view, 'input')).to.not.equal(first);
  });

  it('the group detail lists the files as they stream', () => {
    const view = PartialArguments.streaming();
    view.append('{"input":"*** Begin Patch\\n*** Update File: src/a.ts\\n@@\\n-x\\n+y\\n');
    expect(toolDetail({ name: 'apply_patch', args: view })).to.equal('src/a.ts');
    view.append('*** Add File: src/b.ts\\n+z\\n*** End Patch"}');
    expect(toolDetail({ name: 'apply_patch', args: view })).to.equal('src/a.ts, src/b.ts');
  });

  // A 2 MiB patch: one small header, then long added lines, then more headers at the end.
  const body = Array.from({ length: 20_000 }, (_, i) => `+${'const x = "y";'.repeat(7)} // ${i}`);
  const huge = [
    '*** Begin Patch',
    '*** Add File: big.ts',
    ...body,
    '*** Add File: end.ts',
    '+1',
    '*** End Patch',
  ].join('\n');
  const hugeText = JSON.stringify({ input: huge });
  const hugeFragments = fragment(hugeText, [32]);

  /**
   * Publishes every 64 fragments of the first `share` of the patch, as the Tool Definition
   * and a row do while it streams; returns the work and the characters received.
   */
  function publishing(read: (view: PartialArguments) => unknown, share = 1) {
    const view = PartialArguments.streaming();
    const pieces = hugeFragments.slice(0, Math.floor(hugeFragments.length * share));
    const received = pieces.reduce((sum, piece) => sum + piece.length, 0);
    const w = work(() => {
      pieces.forEach((piece, i) => {
        view.append(piece);
        if (i % 64 === 63) {
          read(view);
          view.refresh();
        }
      });
      return read(share === 1 ? view.seal(hugeText) : view);
    });
    return { ...w, received };
  }

  function expectEachCharacterReadAboutOnce(decoded: number, received: number): void {
    expect(decoded, 'characters decoded').to.be.at.most(received + 64 * 1024);
  }

  it('reads only the new text at each publication: a 2 MiB patch is walked once', () => {
    const w = publishing((view) => patchFiles(view, 'input'));
    expect((w.result as ReturnType<typeof patchFiles>)?.files.map((f) => f.path)).to.deep.equal([
      'big.ts',
      'end.ts',
    ]);
    expectEachCharacterReadAboutOnce(w.decoded, w.received);
  });

  it('reads only the new text at each publication (negative control)', () => {
    // A scan that reads the patch from its start at each publication, as one without a
    // per-reader position would.
    const w = publishing(
      (view) => view.textFrom('input', 0, 1 << 30)?.includes('*** Add File: end.ts'),
      1 / 8,
    );
    expect(() => expectEachCharacterReadAboutOnce(w.decoded, w.received)).to.throw(
      /characters decoded/,
    );
  });
});
