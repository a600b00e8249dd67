import { LIST_PAGE_SIZE } from '@panel247/contract/constants';
import type { FtpListData } from '@panel247/contract/ftp';
import type { ListPageQuery } from '@panel247/contract/list-query';
import { FTP_API } from '@panel247/contract/routes';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ftpQueryKey } from '../../../api/list-ftp-accounts';
import { api } from '../../../lib/api-client';

/** Every page of a service's accounts: the changes invalidate them as a whole. */
export const ftpPagesQueryKey = (serviceId: number) => [...ftpQueryKey(serviceId), 'pages'] as const;

/** One page of the accounts, paged and filtered (login, folder) on the server. */
export function listFtpPage(serviceId: number, query: ListPageQuery, signal?: AbortSignal): Promise<FtpListData> {
  return api<FtpListData>(
    FTP_API.list(serviceId),
    { page: query.page, pageSize: LIST_PAGE_SIZE, filter: query.filter },
    { method: 'GET', signal },
  );
}

export function useFtpPage(serviceId: number, query: ListPageQuery) {
  return useQuery({
    queryKey: [...ftpPagesQueryKey(serviceId), query],
    queryFn: ({ signal }) => listFtpPage(serviceId, query, signal),
    // the previous page stays on screen while the next one loads (no flicker while typing)
    placeholderData: keepPreviousData,
  });
}
