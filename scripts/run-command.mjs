// Runs the commands of the pack layer's checks (scripts/pack-check.mjs,
// scripts/examples-check.mjs) in scratch projects: synchronously, failing with the command,
// its directory, why it failed and everything it printed.
import { spawnSync } from 'node:child_process';

/** `npm`, as this platform names its executable. */
export const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/**
 * The environment without what a parent npm (`npm test`) exports about its own project (local
 * prefix, package fields), so that a nested npm finds the scratch project from its own
 * working directory.
 */
export const env = Object.fromEntries(
  Object.entries(process.env).filter(
    ([name]) => !/^npm_(config_local_prefix$|package_|lifecycle_|command$)/i.test(name),
  ),
);

/**
 * Runs `command` with `args` in `cwd` and returns what it printed on stdout; throws when it
 * does not exit with 0.
 * @param {string} command
 * @param {readonly string[]} args
 * @param {string} cwd
 * @returns {string}
 */
export function run(command, args, cwd) {
  const result = spawnSync(command, args, {
    cwd,
    env,
    encoding: 'utf8',
    shell: process.platform === 'win32',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0) {
    const output = `${result.stdout ?? ''}${result.stderr ?? ''}`.trim();
    throw new Error(
      `\`${[command, ...args].join(' ')}\` in ${cwd} failed (${result.error?.message ?? `exit ${result.status}`})\n${output}`,
    );
  }
  return result.stdout;
}
