// Finds Debian's redis-server for the Redis tests and benchmark: REDIS_SERVER, else
// /usr/bin/redis-server. As root on Debian it installs the `redis-server` package with
// apt-get when neither exists; elsewhere it throws with one line saying what to install.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const candidates = () =>
  [process.env.REDIS_SERVER, '/usr/bin/redis-server', '/usr/local/bin/redis-server'].filter(
    Boolean,
  );

export function redisServerPath() {
  const found = candidates().find((path) => path !== undefined && existsSync(path));
  if (found) return found;
  const root = process.getuid?.() === 0;
  if (root && existsSync('/etc/debian_version')) {
    console.error('callfold: no redis-server found; installing Debian package `redis-server`');
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'redis-server'], {
      stdio: 'inherit',
      env,
    });
    const installed = candidates().find((path) => path !== undefined && existsSync(path));
    if (installed) return installed;
  }
  throw new Error(
    'callfold: the Redis tests need redis-server: install Debian package `redis-server` or set REDIS_SERVER',
  );
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(redisServerPath());
