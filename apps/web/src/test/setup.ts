import '@testing-library/jest-dom/vitest';

// A file of plain logic runs in Node (`// @vitest-environment node` on its first line), without a
// jsdom built for it: making one took 0.5 s a file on a quiet machine and seconds on a busy one.
if (typeof window !== 'undefined') await import('./dom-setup');
