import { defineConfig } from 'vite';

// Vite compiles TSX itself; React 19's automatic runtime needs no plugin for a build.
export default defineConfig({ oxc: { jsx: { runtime: 'automatic' } } });
