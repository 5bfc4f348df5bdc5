import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/**
 * The browser page and the operator's console: built from web/ into web/dist/, which the server
 * serves at `/` and `/console/`. Two entries, two bundles: nothing of the console is in the
 * player's page.
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // One small bundle: the page is light (Preact and the Colyseus SDK), nothing to split.
    assetsInlineLimit: 0,
    reportCompressedSize: true,
    rollupOptions: {
      input: {
        page: fileURLToPath(new URL('index.html', import.meta.url)),
        console: fileURLToPath(new URL('console/index.html', import.meta.url)),
      },
    },
  },
});
