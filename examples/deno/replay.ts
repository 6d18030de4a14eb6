/**
 * Replays a recorded provider stream in the terminal (Deno, which runs TypeScript itself):
 * `npm run example:deno -- [provider] [--speed 2]`, i.e.
 * `deno run --allow-read --sloppy-imports examples/deno/replay.ts [provider]`.
 * `--sloppy-imports` lets Deno resolve the library's `./x.js` imports to its `.ts` sources.
 */
import { adapters, replay } from '../node/live-rows.js';

/** The few Deno APIs used, typed here so the repository's typecheck needs no Deno types. */
interface DenoApi {
  readonly args: string[];
  readTextFile(path: string): Promise<string>;
  readonly stdout: { isTerminal(): boolean; writeSync(bytes: Uint8Array): number };
  exit(code: number): never;
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
await replay({
  provider,
  sse: await deno.readTextFile(file ?? `test/fixtures/${provider}/parallel-write.sse`),
  speed,
  redraw: deno.stdout.isTerminal(),
  write: (text) => {
    const bytes = encoder.encode(text);
    for (let done = 0; done < bytes.length; ) done += deno.stdout.writeSync(bytes.subarray(done));
  },
});
