/**
 * One short turn, inline, shared by the example apps: the model reads a file and writes one.
 * In an app these events come from a provider adapter (`fromAnthropicMessages(response)`) or
 * from `followSession(url)`.
 */
import type { CallfoldEvent } from 'callfold';
import { from, type Observable } from 'rxjs';

const write = '{"file_path":"src/greeting.ts","content":"export const greeting = \\"hello\\";\\n"}';

export const events: readonly CallfoldEvent[] = [
  { type: 'turn/start', seq: 1, turnId: 't1' },
  { type: 'tool/call', seq: 2, callId: 'c1', name: 'Read', args: { file_path: 'README.md' } },
  { type: 'tool/result', seq: 3, callId: 'c1', output: '# My app' },
  { type: 'tool/call', seq: 4, callId: 'c2', name: 'Write', args: write },
  { type: 'tool/result', seq: 5, callId: 'c2', output: 'Wrote 1 file' },
  { type: 'turn/end', seq: 6, turnId: 't1' },
];

/** A fresh Observable of the turn's events, for a timeline's `source`. */
export const session = (): Observable<CallfoldEvent> => from(events);
