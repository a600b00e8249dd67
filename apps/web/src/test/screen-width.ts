import { PHONE_QUERY } from '../lib/use-phone';

/**
 * Makes jsdom's `matchMedia` answer as a wide screen would: every query matches (a table draws a
 * cell only when its column's media query matches, and jsdom's stand-in matches none) except the
 * phone's, so lists are tables. `phone: true` answers as a phone. Returns the undo.
 */
export function emulateScreen({ phone = false }: { phone?: boolean } = {}): () => void {
  const real = window.matchMedia;
  window.matchMedia = (query: string) => ({ ...real(query), matches: query === PHONE_QUERY ? phone : true });
  return () => {
    window.matchMedia = real;
  };
}
