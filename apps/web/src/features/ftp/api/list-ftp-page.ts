import { LIST_PAGE_SIZE } from '@panel247/contract/constants';
import type { FtpListData } from '@panel247/contract/ftp';
import type { ListPageQuery } from '@panel247/contract/list-query';
import { FTP_API } from '@panel247/contract/routes';
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

/** The page the view opens on: the first, unfiltered. */
export const FIRST_FTP_PAGE: ListPageQuery = { page: 1, filter: '' };

/** One page's key and call: the view's hook and the boot's prefetch (app/route-data.ts) share them. */
export function ftpPageQuery(serviceId: number, query: ListPageQuery) {
  return {
    queryKey: [...ftpPagesQueryKey(serviceId), query],
    queryFn: ({ signal }: { signal?: AbortSignal }) => listFtpPage(serviceId, query, signal),
  };
}
