import type { TranscriptEntry } from 'callfold';
import { withBase } from 'vitepress';

/**
 * The demo's recorded session (scripts/make-demo-session.mjs, with a 16 KiB Write instead of
 * the demo's 512 KiB), generated into docs/public/ by scripts/docs-build.mjs. Fetched once per
 * page load and shared by the components that show it.
 */
let loading: Promise<TranscriptEntry[]> | undefined;

export function demoSession(): Promise<TranscriptEntry[]> {
  loading ??= (async () => {
    const [{ decodeTranscript }, response] = await Promise.all([
      import('callfold'),
      fetch(withBase('/demo-session.jsonl')),
    ]);
    if (!response.ok) throw new Error(`demo session: HTTP ${response.status}`);
    return decodeTranscript(await response.text());
  })();
  return loading;
}
