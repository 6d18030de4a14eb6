// Core tests (compiled to .build/ by tsconfig.test.json) and element tests in Debian's
// Chromium. scripts/find-chromium.mjs finds it (or installs it with apt-get as root on
// Debian); no browser is ever downloaded.
import { chromeLauncher } from '@web/test-runner-chrome';
import { chromiumPath } from './scripts/find-chromium.mjs';

export default {
  files: ['.build/test/**/*.test.js', '!.build/test/node/**'],
  nodeResolve: true,
  concurrency: 1,
  testFramework: { config: { timeout: 60000 } },
  testsFinishTimeout: 600000,
  browsers: [
    chromeLauncher({
      launchOptions: {
        executablePath: chromiumPath(),
        headless: true,
        args: [
          '--no-sandbox',
          '--disable-gpu',
          '--disable-dev-shm-usage',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
          '--disable-quic',
          '--no-first-run',
        ],
      },
    }),
  ],
};
