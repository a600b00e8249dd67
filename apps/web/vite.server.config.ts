import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { localeBundles } from './locale-plugin.ts';
import { pageModules } from './page-modules-plugin.ts';

/**
 * The server's renderer of signed-in pages (src/server/render-worker.ts), built after the browser's
 * app into dist/server/. Every dependency is bundled in (`noExternal`): a production install
 * carries the built files, not the web app's node_modules. The panel never serves this folder
 * (apps/server/src/http/web-app.ts).
 */
export default defineConfig(({ mode }) => ({
  root: import.meta.dirname,
  // the routes' modules named beside their loaders: a drawn page links their chunks
  plugins: [react(), localeBundles(), pageModules()],
  // A server build leaves process.env.NODE_ENV to the runtime, where it is unset outside the
  // systemd unit: React's development build then drew each page 2-3× slower (a CPU profile found
  // its element validation and dev JSX). The build's mode decides, as for the browser's bundle.
  define: { 'process.env.NODE_ENV': JSON.stringify(mode === 'development' ? 'development' : 'production') },
  ssr: { noExternal: true, target: 'node' },
  build: {
    ssr: 'src/server/render-worker.ts',
    outDir: 'dist/server',
    emptyOutDir: true,
    target: 'node20',
    // the browser's build already copied public/ into dist/
    copyPublicDir: false,
  },
}));
