import { LIST_PAGE_SIZE } from '@panel247/contract/constants';
import { useEffect, useState } from 'react';

/**
 * Paging on the client: the rows of the current page. A shorter list (a delete, a filter) can
 * leave the page past the end: it steps back to the new last page.
 */
export function useClientPage<T>(rows: readonly T[], pageSize = LIST_PAGE_SIZE) {
  const [page, setPage] = useState(1);
  const lastPage = Math.max(1, Math.ceil(rows.length / pageSize));
  useEffect(() => {
    if (page > lastPage) setPage(lastPage);
  }, [page, lastPage]);
  const current = Math.min(page, lastPage);
  return {
    page: current,
    setPage,
    pageRows: rows.slice((current - 1) * pageSize, current * pageSize),
  };
}
