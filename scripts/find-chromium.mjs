// Finds Debian's Chromium for browser tests: CHROME_PATH, else /usr/bin/chromium. As root on
// Debian it installs the `chromium` package with apt-get when neither exists; elsewhere it
// stops with one line saying what to install. It never downloads a browser build.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const candidates = () =>
  [process.env.CHROME_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(Boolean);

export function chromiumPath() {
  const found = candidates().find((path) => path !== undefined && existsSync(path));
  if (found) return found;
  const root = process.getuid?.() === 0;
  if (root && existsSync('/etc/debian_version')) {
    console.error('callfold: no Chromium found; installing Debian package `chromium` with apt-get');
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], { stdio: 'inherit', env });
    const installed = candidates().find((path) => path !== undefined && existsSync(path));
    if (installed) return installed;
  }
  console.error(
    'callfold: browser tests need Chromium: install Debian package `chromium` or set CHROME_PATH',
  );
  process.exit(1);
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(chromiumPath());
