/** Characters a long text shows before "Show more". */
export const CLIP_CHARS = 4000;
/** Lines a long text shows before "Show more". */
export const CLIP_LINES = 40;

/**
 * Where a long text is cut for its preview: after CLIP_LINES lines or CLIP_CHARS characters,
 * whichever comes first; undefined when the whole text fits. Looks at no more than the
 * preview's length, however long the text.
 */
export function clipAt(text: string): number | undefined {
  let at = -1;
  for (let line = 0; line < CLIP_LINES; line++) {
    at = text.indexOf('\n', at + 1);
    if (at === -1 || at >= CLIP_CHARS) break;
  }
  if (at !== -1 && at < CLIP_CHARS && at < text.length - 1) return at;
  if (text.length > CLIP_CHARS) {
    // Never end the preview on the high half of a surrogate pair.
    const unit = text.charCodeAt(CLIP_CHARS - 1);
    return unit >= 0xd800 && unit <= 0xdbff ? CLIP_CHARS - 1 : CLIP_CHARS;
  }
  return undefined;
}
