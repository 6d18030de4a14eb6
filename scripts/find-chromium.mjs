// Finds Debian's Chromium for browser tests: CHROME_PATH, else /usr/bin/chromium. As root on
// Debian it installs the `chromium` package when neither exists (scripts/debian-package.mjs:
// one install at a time, however many test processes ask); elsewhere it stops with one line
// saying what to install. It never downloads a browser build.
import { findOrInstall } from './debian-package.mjs';

const candidates = () => [
  process.env.CHROME_PATH,
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
];

export function chromiumPath() {
  const found = findOrInstall('chromium', candidates);
  if (found) return found;
  console.error(
    'callfold: browser tests need Chromium: install Debian package `chromium` or set CHROME_PATH',
  );
  process.exit(1);
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(chromiumPath());
