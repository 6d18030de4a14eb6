/**
 * `callfold/internal` (src/internal-api.ts) holds what callfold's own elements read and the
 * docs do not describe; the root entry exports none of it.
 */
import { expect } from 'chai';
import * as root from '../src/index.js';
import * as internal from '../src/internal-api.js';
import { describe, it } from './harness.js';

describe('callfold/internal', () => {
  it('holds the six undocumented names the elements read', () => {
    expect(Object.keys(internal).sort()).to.deep.equal([
      'PATCH_FILES_KEPT',
      'detailText',
      'englishPhrase',
      'englishSummary',
      'patchFileList',
      'toolNamesOf',
    ]);
  });

  it('shares none of its names with the root entry', () => {
    const shared = Object.keys(internal).filter((name) => Object.hasOwn(root, name));
    expect(shared).to.deep.equal([]);
  });
});
