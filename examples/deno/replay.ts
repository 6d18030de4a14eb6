/**
 * Replays a recorded provider stream in the terminal (Deno, which runs TypeScript itself):
 * `npm run example:deno -- [provider] [--speed 2]`, i.e.
 * `deno run --allow-read --sloppy-imports examples/deno/replay.ts [provider]`.
 * `--sloppy-imports` lets Deno resolve the library's `./x.js` imports to its `.ts` sources.
 * With `--allow-env --allow-net` and CALLFOLD_BASE_URL, CALLFOLD_MODEL and OPENAI_API_KEY
 * (or ANTHROPIC_API_KEY and CALLFOLD_PROVIDER=anthropic) set, it streams one live request.
 */
import { adapters, live, liveConfig, replay } from '../node/live-rows.js';

/** The few Deno APIs used, typed here so the repository's typecheck needs no Deno types. */
interface DenoApi {
  readonly args: string[];
  readTextFile(path: string): Promise<string>;
  readonly stdout: { isTerminal(): boolean; writeSync(bytes: Uint8Array): number };
  exit(code: number): never;
  readonly env: { toObject(): Record<string, string> };
}
const deno = (globalThis as unknown as { Deno: DenoApi }).Deno;

const args = [...deno.args];
const flag = (name: string) => {
  const at = args.indexOf(`--${name}`);
  return at === -1 ? undefined : args.splice(at, 2)[1];
};
const speed = Number(flag('speed') ?? 1) || 1;
const file = flag('file');
const provider = args[0] ?? 'openai-responses';
if (!(provider in adapters)) {
  console.error(`usage: replay [${Object.keys(adapters).join('|')}] [--speed N] [--file x.sse]`);
  deno.exit(2);
}
const encoder = new TextEncoder();
const write = (text: string) => {
  const bytes = encoder.encode(text);
  for (let done = 0; done < bytes.length; ) done += deno.stdout.writeSync(bytes.subarray(done));
};
let env: Record<string, string> = {};
try {
  env = deno.env.toObject();
} catch {
  // No --allow-env: replay the fixture.
}
const config = liveConfig(env);
if (config) {
  console.error(`live: ${config.provider} ${config.model} at ${config.baseUrl}`);
  await live(config, { redraw: deno.stdout.isTerminal(), write });
  deno.exit(0);
}
await replay({
  provider,
  sse: await deno.readTextFile(file ?? `test/fixtures/${provider}/parallel-write.sse`),
  speed,
  redraw: deno.stdout.isTerminal(),
  write,
});
