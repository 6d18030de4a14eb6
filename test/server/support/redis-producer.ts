/**
 * A producer process for the multi-instance tests:
 * - `stream <url> <session>`: records the demo session (attempts, a retried one, tool
 *   results) through recordAttempt at a quick pace, then prints `done`;
 * - `append <url> <session> <n> <tag>`: appends n events one by one, printing each seq;
 * - `die <url> <session>`: streams part of an attempt, prints `live`, and waits to be killed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { concatMap, delay, from, of } from 'rxjs';
import { recordAttempt } from '../../../src/server/record-attempt.js';
import { redisStore } from '../../../src/server/redis/redis-store.js';
import { decodeTranscript } from '../../../src/wire/transcript.js';
import { repositoryRoot } from '../../support/repository.js';

const [mode, url = '', session = ''] = process.argv.slice(2);
// The killed producer's attempt must be withdrawn quickly; the streaming one must outlive a busy machine's pauses.
const store = await redisStore({ url, leaseMs: mode === 'die' ? 1000 : 10_000 });

if (mode === 'stream') {
  const text = readFileSync(
    join(repositoryRoot(), 'examples/transcripts/demo-session.jsonl'),
    'utf8',
  );
  const events = decodeTranscript(text).map((entry) => entry.event);
  const paced = from(events.map((event, index) => ({ event, index }))).pipe(
    concatMap(({ event, index }) => (index % 25 === 0 ? of(event).pipe(delay(2)) : of(event))),
  );
  await recordAttempt(store, session, paced);
  process.stdout.write('done\n');
} else if (mode === 'append') {
  const count = Number(process.argv[5]);
  const tag = process.argv[6] ?? 'x';
  for (let i = 0; i < count; i++) {
    const [event] = await store.append(session, [
      { type: 'tool/result', callId: `${tag}${i}`, output: i },
    ]);
    process.stdout.write(`${event?.seq}\n`);
  }
} else if (mode === 'die') {
  await store.live(session, [
    {
      type: 'stream/tool-call-delta',
      attemptId: 'doomed',
      block: 0,
      callId: 'd1',
      name: 'Write',
      args: '{"file_path":',
    },
  ]);
  process.stdout.write('live\n');
  await new Promise(() => {});
}
await store.close();
