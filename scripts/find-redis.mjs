// Finds Debian's redis-server for the Redis tests and benchmark: REDIS_SERVER, else
// /usr/bin/redis-server. As root on Debian it installs the `redis-server` package when
// neither exists (scripts/debian-package.mjs: one install at a time); elsewhere it throws
// with one line saying what to install.
import { findOrInstall } from './debian-package.mjs';

const candidates = () => [
  process.env.REDIS_SERVER,
  '/usr/bin/redis-server',
  '/usr/local/bin/redis-server',
];

export function redisServerPath() {
  const found = findOrInstall('redis-server', candidates, ['--no-install-recommends']);
  if (found) return found;
  throw new Error(
    'callfold: the Redis tests need redis-server: install Debian package `redis-server` or set REDIS_SERVER',
  );
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(redisServerPath());
