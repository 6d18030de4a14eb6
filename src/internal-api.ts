/**
 * `callfold/internal`: what callfold's own elements read from the core that is not public
 * API — the English phrases of a group's summary, the patch file list of a row, the plain
 * text of a detail, the tool names of a category.
 *
 * For callfold's own elements only (as material-web's `internal/` and lit's `_$LH` are for
 * their sibling packages): **breaking changes may occur in any release**, patch releases
 * included. Import from `callfold` instead; if you need one of these, open an issue so that
 * it can be documented there.
 *
 * @module
 */
export { toolNamesOf } from './tools/categories.js';
export { detailText } from './tools/detail-text.js';
export { PATCH_FILES_KEPT, patchFileList } from './tools/patch-files.js';
export { englishPhrase, englishSummary } from './tools/summary.js';
