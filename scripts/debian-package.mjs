// Installs a Debian package for the tests that need a real program (Chromium, redis-server),
// when the tests run as root on Debian and the program is missing. Several test processes may
// need the same package at once (npm test runs its lanes side by side, node --test runs files
// concurrently), and apt-get fails while another apt-get holds dpkg's lock: every install goes
// through one lock file (`flock`, util-linux), and whoever gets it second finds the program
// installed and installs nothing. It never downloads anything but Debian's packages.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const LOCK = '/tmp/callfold-apt.lock';

/**
 * The first of `paths` that exists; else, as root on Debian, installs `pkg` (serialized with
 * any other install of this script) and returns the first that exists then, or undefined.
 * @param {string} pkg the Debian package
 * @param {() => readonly (string | undefined)[]} paths where the program may be, in order
 * @param {readonly string[]} [options] extra apt-get install options
 * @returns {string | undefined}
 */
export function findOrInstall(pkg, paths, options = []) {
  const found = () => paths().find((path) => path !== undefined && existsSync(path));
  const existing = found();
  if (existing) return existing;
  if (process.getuid?.() !== 0 || !existsSync('/etc/debian_version')) return undefined;
  console.error(`callfold: ${pkg} not found; installing Debian package \`${pkg}\` with apt-get`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const install = ['apt-get', 'install', '-y', '-qq', ...options, pkg].join(' ');
  // Inside the lock, check again: a process that held it may have installed the package.
  const script = `dpkg -s ${pkg} >/dev/null 2>&1 || { apt-get update -qq && ${install}; }`;
  execFileSync('flock', [LOCK, 'sh', '-c', script], { stdio: 'inherit', env });
  return found();
}
