import { useCallback, useState } from 'react';

/**
 * The state of a page's dialog: what it is open for (a row, `true`), or `closed`. `close` keeps
 * its identity, so dialogs and right guards can list it as an effect dependency.
 */
export function useDialog<T>(closed: T) {
  const [value, setValue] = useState<T>(closed);
  const close = useCallback(() => setValue(closed), [closed]);
  return [value, setValue, close] as const;
}
