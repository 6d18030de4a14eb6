import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The repository: the nearest folder above this file whose package.json names callfold (the
 * tests run compiled from .build/, so a fixed number of `..` would depend on that layout).
 */
export function repositoryRoot(): string {
  for (
    let dir = dirname(fileURLToPath(import.meta.url));
    dir !== dirname(dir);
    dir = dirname(dir)
  ) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && JSON.parse(readFileSync(manifest, 'utf8')).name === 'callfold') {
      return dir;
    }
  }
  throw new Error('the callfold repository was not found above the tests');
}
