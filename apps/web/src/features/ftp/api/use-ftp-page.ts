import type { ListPageQuery } from '@panel247/contract/list-query';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ftpPageQuery } from './list-ftp-page';

export function useFtpPage(serviceId: number, query: ListPageQuery) {
  return useQuery({
    ...ftpPageQuery(serviceId, query),
    // the previous page stays on screen while the next one loads (no flicker while typing)
    placeholderData: keepPreviousData,
  });
}
