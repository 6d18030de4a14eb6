#!/usr/bin/env node
// The `callfold` command. The CLI itself is compiled from src/cli/cli.ts into
// dist/ (`npm run build`); this file only hands it Node's process, streams and file system.
import { writeFile } from 'node:fs/promises';

let cli;
try {
  cli = await import('../dist/src/cli/cli.js');
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND') throw error;
  process.stderr.write('callfold: dist/ is missing or stale; run `npm run build` first.\n');
  process.exit(1);
}

let interrupts = 0;
process.exitCode = await cli.main(process.argv.slice(2), {
  env: process.env,
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  stderrIsTTY: process.stderr.isTTY === true,
  writeFile: (path, text) => writeFile(path, text, 'utf8'),
  onInterrupt: (handler) =>
    process.on('SIGINT', () => {
      // The first Ctrl-C lets requests in flight finish and reports; the second quits.
      if (++interrupts > 1) process.exit(130);
      process.stderr.write('\ninterrupted: finishing requests in flight (Ctrl-C again to quit)\n');
      handler();
    }),
});
