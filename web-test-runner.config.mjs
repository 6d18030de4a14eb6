// Core tests (compiled to .build/ by tsconfig.test.json) and element tests in Debian's
// Chromium, its headless shell. scripts/find-chromium.mjs finds it (or installs it with apt-get
// as root on Debian); no browser is ever downloaded.
//
// Visual regression (test/elements/visual.test.ts): baselines are committed under
// test/elements/screenshots/baseline/; a failing run writes the new screenshot and a diff
// under .build/screenshots/failed/ (ignored). `npm run screenshots:update` (or passing
// --update-visual-baseline to wtr) rewrites the baselines instead of comparing.
import { fileURLToPath } from 'node:url';
import { chromeLauncher } from '@web/test-runner-chrome';
import { visualRegressionPlugin } from '@web/test-runner-visual-regression/plugin';
import { focusedPage, testChromiumLaunch } from './scripts/find-chromium.mjs';
import { coreBundles } from './scripts/test-bundles.mjs';

const baselines = fileURLToPath(new URL('test/elements/screenshots/baseline/', import.meta.url));
const screenshots = fileURLToPath(new URL('.build/screenshots/', import.meta.url));

/**
 * Each test page in a window of its own that has focus, as `concurrency` needs
 * (scripts/find-chromium.mjs, `focusedPage`).
 * @param {{ browser: import('puppeteer-core').Browser }} args
 */
const createPage = ({ browser }) => focusedPage(browser);

export default {
  // The core tests, a few files to a page (scripts/test-bundles.mjs), and each element test
  // file in a page of its own; not the Node-only ones (`*.node.test.js`, beside their subject).
  files: [...coreBundles(), '.build/test/elements/**/*.test.js', '!.build/test/**/*.node.test.js'],
  nodeResolve: true,
  // Two test files at a time, each in a window of its own that has focus (createPage above).
  concurrency: 2,
  testFramework: { config: { timeout: 60000 } },
  testsFinishTimeout: 600000,
  plugins: [
    visualRegressionPlugin({
      update: process.argv.includes('--update-visual-baseline'),
      baseDir: screenshots,
      // One browser, so no per-browser folder; an absolute name is used as is.
      getBaselineName: ({ name }) => `${baselines}${name}`,
      getFailedName: ({ name }) => `failed/${name}`,
      getDiffName: ({ name }) => `failed/${name}-diff`,
      // pixelmatch skips antialiased pixels and, at a colour threshold of 0.05 (default 0.1),
      // still sees a light tint change (#f6f8fa → #ffe0e0). Up to 0.1% of differing pixels
      // passes as rendering noise; recolouring a row's title text alone differs by ~0.3%.
      diffOptions: { threshold: 0.05 },
      failureThreshold: 0.1,
      failureThresholdType: 'percent',
    }),
  ],
  browsers: [
    chromeLauncher({
      createPage,
      // Debian's headless shell (scripts/find-chromium.mjs, `testChromiumPath`).
      launchOptions: testChromiumLaunch(['--disable-quic']),
    }),
  ],
};
