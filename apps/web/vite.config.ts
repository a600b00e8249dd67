import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { localeBundles } from './locale-plugin.ts';
import { precompress } from './precompress-plugin.ts';
import { loginShell } from './shell-plugin.ts';
import { sourceStamp } from './source-stamp.ts';

const API_TARGET = process.env.PANEL_API_URL ?? 'http://127.0.0.1:8247';

export default defineConfig({
  root: import.meta.dirname,
  plugins: [react(), localeBundles(), loginShell(), sourceStamp(), precompress()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The login route has a 170 KB gzipped budget; keep chunks honest instead of one vendor blob.
    chunkSizeWarningLimit: 600,
    assetsInlineLimit: 0,
  },
  server: {
    proxy: {
      '/p247/': { target: API_TARGET, changeOrigin: false, ws: true },
    },
  },
});
