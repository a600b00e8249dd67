import { useSyncExternalStore } from 'react';
import { displayHints } from './display-hints';

/** Up to 480 px wide (30em, Mantine's `xs`): the layout where a list's columns no longer fit side by side. */
export const PHONE_QUERY = '(max-width: 30em)';

function subscribe(changed: () => void): () => void {
  const query = window.matchMedia(PHONE_QUERY);
  query.addEventListener('change', changed);
  return () => query.removeEventListener('change', changed);
}

const windowIsPhone = () => window.matchMedia(PHONE_QUERY).matches;
// a server drawing the page has no window: it goes by what the browser said of itself at its last
// visit; hydrating that page starts from the same answer, then takes the window's
const hintedPhone = () => displayHints.phone ?? false;

/**
 * Whether the window is phone-sized. Read at the first render (not in an effect), so a phone never
 * draws the wide table first and swaps it a frame later.
 */
export function usePhone(): boolean {
  return useSyncExternalStore(subscribe, windowIsPhone, hintedPhone);
}
