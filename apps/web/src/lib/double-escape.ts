import { DOUBLE_ESCAPE_MS } from '@panel247/contract/constants';
import { useEffect, useRef } from 'react';

/**
 * Returns a keydown handler that calls `onDouble` when Escape is pressed twice within
 * DOUBLE_ESCAPE_MS (spec section 9). A single Escape does nothing, so a stray key never throws
 * away what the user typed in a dialog.
 */
export function createDoubleEscape(onDouble: () => void, windowMs: number = DOUBLE_ESCAPE_MS, now = () => Date.now()) {
  let last = Number.NEGATIVE_INFINITY;
  return (event: Pick<KeyboardEvent, 'key'>) => {
    if (event.key !== 'Escape') return;
    const time = now();
    if (time - last <= windowMs) {
      last = Number.NEGATIVE_INFINITY;
      onDouble();
    } else {
      last = time;
    }
  };
}

/** Listens on the document while `active`, so it works wherever the focus is inside the modal. */
export function useDoubleEscape(active: boolean, onDouble: () => void): void {
  const callback = useRef(onDouble);
  callback.current = onDouble;
  useEffect(() => {
    if (!active) return;
    const handler = createDoubleEscape(() => callback.current());
    const listener = (event: KeyboardEvent) => handler(event);
    document.addEventListener('keydown', listener);
    return () => document.removeEventListener('keydown', listener);
  }, [active]);
}
