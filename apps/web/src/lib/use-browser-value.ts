import { useSyncExternalStore } from 'react';

const unchanging = () => () => {};

/**
 * A value only the browser can tell (a capability) and that does not change while the page is
 * open. A server drawing the page, and the app hydrating that page, render with `assumed`; the
 * browser's own answer follows at once, without a hydration mismatch.
 */
export function useBrowserValue<T>(read: () => T, assumed: T): T {
  return useSyncExternalStore(unchanging, read, () => assumed);
}
