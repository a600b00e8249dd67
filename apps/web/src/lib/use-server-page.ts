import { useDebouncedValue } from '@mantine/hooks';
import { LIST_PAGE_SIZE } from '@panel247/contract/constants';
import { useEffect, useState } from 'react';

/** How long the typed filter settles before the server is asked (as the DNS list waits). */
export const LIST_FILTER_DEBOUNCE_MS = 300;

/**
 * A list paged and filtered on the server (mail, sites, FTP, redirections): the text as typed,
 * the filter once it settles, and the page, which starts over on a new filter or any of
 * `resetOn` (a type choice, another service).
 */
export function useServerPage(resetOn: readonly unknown[]) {
  const [text, setText] = useState('');
  const [filter] = useDebouncedValue(text.trim(), LIST_FILTER_DEBOUNCE_MS);
  const [page, setPage] = useState(1);
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset on a filter change only
  useEffect(() => setPage(1), [filter, ...resetOn]);
  return { text, setText, filter, page, setPage };
}

/** A delete can empty the last page: once the new total is in, step back to the new last page. */
export function useStepBack(total: number, loaded: boolean, page: number, setPage: (page: number) => void) {
  const lastPage = Math.max(1, Math.ceil(total / LIST_PAGE_SIZE));
  useEffect(() => {
    if (loaded && page > lastPage) setPage(lastPage);
  }, [loaded, page, lastPage, setPage]);
}
