/**
 * Replays a recorded provider stream in the terminal (Node): `npm run example:node -- [provider] [--speed 2]`.
 * Node 20 does not run TypeScript, so the npm script compiles this folder with tsc first.
 * With CALLFOLD_BASE_URL, CALLFOLD_MODEL and OPENAI_API_KEY (or ANTHROPIC_API_KEY and
 * CALLFOLD_PROVIDER=anthropic) set, it streams one request to that live endpoint instead.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { adapters, live, liveConfig, replay } from './live-rows.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { speed: { type: 'string', default: '1' }, file: { type: 'string' } },
});
const config = liveConfig(process.env);
if (config) {
  console.error(`live: ${config.provider} ${config.model} at ${config.baseUrl}`);
  await live(config, {
    redraw: process.stdout.isTTY === true,
    write: (text) => process.stdout.write(text),
  });
  process.exit(0);
}
const provider = positionals[0] ?? 'anthropic-messages';
if (!(provider in adapters)) {
  console.error(`usage: replay [${Object.keys(adapters).join('|')}] [--speed N] [--file x.sse]`);
  process.exit(2);
}
const file = values.file ?? `test/fixtures/${provider}/parallel-write.sse`;
await replay({
  provider,
  sse: readFileSync(file, 'utf8'),
  speed: Number(values.speed) || 1,
  redraw: process.stdout.isTTY === true,
  write: (text) => process.stdout.write(text),
});
