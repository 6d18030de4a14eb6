/**
 * The URL as an `href`, only when it parses as an absolute `http:` or `https:` URL; undefined
 * otherwise (`javascript:`, `data:`, relative or malformed text), and the caller shows it as
 * text. The parsed form is returned, so what is linked is exactly what was checked.
 */
export function httpUrl(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return undefined;
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
}
