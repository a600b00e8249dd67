import { LIST_PAGE_SIZE } from '@panel247/contract/constants';
import type { FtpListData } from '@panel247/contract/ftp';
import type { ListPageQuery } from '@panel247/contract/list-query';
import { FTP_API } from '@panel247/contract/routes';
import { ftpQueryKey } from '../../../api/list-ftp-accounts';
import { apiGetQuery } from '../../../lib/api-query';

/** Every page of a service's accounts: the changes invalidate them as a whole. */
export const ftpPagesQueryKey = (serviceId: number) => [...ftpQueryKey(serviceId), 'pages'] as const;

/** The page the view opens on: the first, unfiltered. */
export const FIRST_FTP_PAGE: ListPageQuery = { page: 1, filter: '' };

/**
 * One page of the accounts, paged and filtered (login, folder) on the server: its key and call,
 * which the view's hook, the boot's prefetch and the server's first render share.
 */
export function ftpPageQuery(serviceId: number, query: ListPageQuery) {
  return apiGetQuery<FtpListData>([...ftpPagesQueryKey(serviceId), query], {
    path: FTP_API.list(serviceId),
    params: { page: query.page, pageSize: LIST_PAGE_SIZE, filter: query.filter },
  });
}
