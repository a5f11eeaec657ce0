import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { paletteCss } from './common/theme/palette.js';

const root = fileURLToPath(new URL('./renderer', import.meta.url));

/** `virtual:palette.css`: the app's colours from common/theme/palette.ts, which pages outside the renderer share. */
const palette: Plugin = {
  name: 'strata-palette',
  resolveId: (id) => (id === 'virtual:palette.css' ? '\0palette.css' : null),
  load: (id) => (id === '\0palette.css' ? paletteCss() : null),
};

/** The renderer build: served by `app://strata/` in Electron and by `strata host` in a browser tab. */
export default defineConfig({
  root,
  base: './',
  plugins: [react(), palette],
  build: {
    outDir: fileURLToPath(new URL('./dist/renderer', import.meta.url)),
    emptyOutDir: true,
    sourcemap: true,
    chunkSizeWarningLimit: 2000,
  },
  server: { host: '127.0.0.1', strictPort: true },
});
