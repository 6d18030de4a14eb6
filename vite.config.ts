// `npm start` serves the demo in examples/ at /. The demo imports the library straight from
// ../src (Vite compiles the TypeScript), so the dev server may read the whole repository.
// CLI flags pass through: `npm start -- --port 5199`.
// The demo's session goes over real HTTP: the page publishes what it plays to /demo-sessions,
// served by `sessionHandler` + `memoryStore` in this dev server, and follows it back with
// `followSession` / `loadHistory` (examples/demo/session-endpoint.node.ts).
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { demoSessions } from './examples/demo/session-endpoint.node.js';

const repository = fileURLToPath(new URL('.', import.meta.url));
const page = (name: string) => fileURLToPath(new URL(`./examples/${name}.html`, import.meta.url));

export default defineConfig({
  root: fileURLToPath(new URL('./examples', import.meta.url)),
  server: {
    fs: { allow: [repository] },
    // Each page's script and what it imports (its pre-bundled packages too) are transformed
    // when the server starts, not at the page's first visit: a page first opened minutes
    // later is served from memory as fast as the first one.
    warmup: {
      clientFiles: ['./demo/main.ts', './write-replay.ts', './react-demo.ts', './elements.ts'],
    },
  },
  plugins: [demoSessions()],
  // Bundled when the server starts, so that a first visit never waits for a re-optimization
  // (and a reload) when it meets them.
  optimizeDeps: {
    include: [
      'lit',
      'lit/directives/guard.js',
      'lit/directives/repeat.js',
      'lit/directives/style-map.js',
      'rxjs',
      'react',
      'react-dom/client',
    ],
  },
  build: {
    outDir: fileURLToPath(new URL('./dist/demo', import.meta.url)),
    emptyOutDir: true,
    // The write page inlines its recorded transcript (~600 KiB) through `?raw`, so it runs
    // offline; the session pages fetch theirs (~2.9 MiB, emitted as an asset through `?url`).
    chunkSizeWarningLimit: 1024,
    rolldownOptions: {
      input: {
        index: page('index'),
        write: page('write'),
        react: page('react'),
        elements: page('elements'),
      },
    },
  },
});
