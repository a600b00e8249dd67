import { startTransition, useEffect, useState } from 'react';

/**
 * False in a component's first render, true from a second one after it was painted: for a small
 * part of the first screen whose cost would lengthen the first render's task (the item's expiry
 * indicators build the language's date formatter, about 20 ms the first time in a page).
 */
export function useAfterFirstRender(): boolean {
  const [after, setAfter] = useState(false);
  useEffect(() => startTransition(() => setAfter(true)), []);
  return after;
}
