import react from '@vitejs/plugin-react';
import { defineProject } from 'vitest/config';
import { localeBundles } from './locale-plugin.ts';

export default defineProject({
  root: import.meta.dirname,
  plugins: [react(), localeBundles()],
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
  },
});
