import react from '@vitejs/plugin-react';
import { defineProject } from 'vitest/config';
import { localeBundles } from './locale-plugin.ts';
import { pageModules } from './page-modules-plugin.ts';

export default defineProject({
  root: import.meta.dirname,
  // as the server's renderer is built (src/server/render-page.test.ts checks what it links)
  plugins: [react(), localeBundles(), pageModules()],
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    // A page rendered in jsdom takes a few hundred milliseconds on a quiet machine and seconds on a
    // busy 2-core one (a preferences page took 7.8 s): the limit only catches a test that hangs.
    testTimeout: 30_000,
  },
});
