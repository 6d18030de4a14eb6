import vue from '@vitejs/plugin-vue';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [
    // The tags are custom elements, not Vue components (else: "Failed to resolve component").
    vue({ template: { compilerOptions: { isCustomElement: (tag) => tag.startsWith('tool-') } } }),
  ],
});
