/**
 * What the Chromium benchmarks (`bench:elements`, `bench:timeline`) run in: bench/elements/
 * served by Vite's JS API on a free port of 127.0.0.1, and Debian's Chromium (found, or
 * installed, by scripts/find-chromium.mjs; never downloaded) launched headless through
 * puppeteer-core. The caller opens its page at `http://127.0.0.1:${address.port}/…` and closes
 * both when done: `browser.close()`, then `server.close()`.
 */
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import puppeteer, { type Browser, type LaunchOptions } from 'puppeteer-core';
import { createServer, type InlineConfig, type ViteDevServer } from 'vite';

const repository = fileURLToPath(new URL('../../../', import.meta.url));

export interface ChromiumPageOptions {
  /** The dependencies Vite pre-bundles before the first page load. */
  readonly optimize: readonly string[];
  /** More of Vite's configuration, e.g. `resolve` conditions, a `cacheDir`, the `mode`. */
  readonly vite?: Pick<InlineConfig, 'resolve' | 'cacheDir' | 'mode'>;
  /** More launch options, e.g. `protocolTimeout` and `defaultViewport`. */
  readonly launch?: Pick<LaunchOptions, 'protocolTimeout' | 'defaultViewport'>;
  /** Chromium flags after the common ones, e.g. `--js-flags=--expose-gc`. */
  readonly args?: readonly string[];
}

export interface ChromiumPage {
  readonly server: ViteDevServer;
  readonly browser: Browser;
  /** Where the server listens (127.0.0.1, a free port). */
  readonly address: AddressInfo;
}

/** Starts the Vite server, then Chromium; if Chromium does not start, the server is closed. */
export async function chromiumPage(options: ChromiumPageOptions): Promise<ChromiumPage> {
  const findChromium = '../../../scripts/find-chromium.mjs';
  const { chromiumPath, chromiumArgs } = (await import(findChromium)) as {
    chromiumPath(): string;
    chromiumArgs: readonly string[];
  };
  const server = await createServer({
    configFile: false,
    root: `${repository}bench/elements`,
    logLevel: 'error',
    server: { host: '127.0.0.1', port: 0, strictPort: false, fs: { allow: [repository] } },
    ...options.vite,
    optimizeDeps: { include: [...options.optimize] },
  });
  try {
    await server.listen();
    const address = server.httpServer?.address();
    if (!address || typeof address === 'string') throw new Error('no server address');
    const browser = await puppeteer.launch({
      executablePath: chromiumPath(),
      headless: true,
      ...options.launch,
      args: [...chromiumArgs, ...(options.args ?? [])],
    });
    return { server, browser, address };
  } catch (error) {
    await server.close();
    throw error;
  }
}
