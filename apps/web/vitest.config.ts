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
    // A file of plain logic opts out with `// @vitest-environment node` on its first line: a jsdom
    // built per file was two thirds of those files' time (47 files: 43 s with one, 14 s without).
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    // A page rendered in jsdom takes a few hundred milliseconds on a quiet machine and seconds on a
    // busy 2-core one (a preferences page took 7.8 s): the limit only catches a test that hangs.
    testTimeout: 30_000,
  },
});
