// Builds the package and packs it, once, for the checks that install it: a clean `npm run
// build` (tsc never deletes outputs whose sources are gone, and npm would pack them), then
// `npm pack` into .build-pack/, where the tarball is also copied as callfold.tgz and the list
// of its files written as files.json. `npm test` runs this as its own step so that the Node
// tests (the CLI runs from dist/) start as soon as dist/ is built, while the checks of the
// installed tarball (scripts/pack-check.mjs, scripts/examples-check.mjs) run beside them.
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { npm, run } from './run-command.mjs';

const repository = fileURLToPath(new URL('..', import.meta.url));
/** Where the tarball, its copy callfold.tgz and files.json are. */
export const tarballDir = join(repository, '.build-pack');
const listing = join(tarballDir, 'files.json');

/** @typedef {{ tarball: string, files: string[] }} Packed */

/**
 * Builds, packs and records the tarball.
 * @returns {Packed} the tarball's path and the paths of the files it holds
 */
export function packTarball() {
  for (const built of ['dist/src', 'dist/elements']) {
    rmSync(join(repository, built), { recursive: true, force: true });
  }
  run(npm, ['run', 'build'], repository);
  rmSync(tarballDir, { recursive: true, force: true });
  mkdirSync(tarballDir);
  const [report] = JSON.parse(
    run(npm, ['pack', '--json', '--pack-destination', tarballDir], repository),
  );
  copyFileSync(join(tarballDir, report.filename), join(tarballDir, 'callfold.tgz'));
  /** @type {Packed} */
  const packed = {
    tarball: join(tarballDir, report.filename),
    files: report.files.map((/** @type {{ path: string }} */ file) => file.path),
  };
  writeFileSync(listing, JSON.stringify(packed));
  return packed;
}

/**
 * The tarball this script packed, when `CALLFOLD_PACKED=1` says that the run packed it just
 * before (npm test's build step); else packs it now.
 * @returns {Packed}
 */
export function packedTarball() {
  if (process.env.CALLFOLD_PACKED === '1') return JSON.parse(readFileSync(listing, 'utf8'));
  return packTarball();
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { tarball, files } = packTarball();
  console.log(`packed ${tarball} (${files.length} files)`);
}
