// `npm start` serves the demo in examples/ at /. The demo imports the library straight from
// ../src (Vite compiles the TypeScript), so the dev server may read the whole repository.
// CLI flags pass through: `npm start -- --port 5199`.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const repository = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root: fileURLToPath(new URL('./examples', import.meta.url)),
  server: { fs: { allow: [repository] } },
  build: {
    outDir: fileURLToPath(new URL('./dist/demo', import.meta.url)),
    emptyOutDir: true,
    // The recorded transcript (~600 KiB) is inlined through `?raw` so the demo runs offline.
    chunkSizeWarningLimit: 1024,
  },
});
