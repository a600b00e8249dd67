import type { FtpListData } from '@panel247/contract/ftp';
import type { ListPageQuery } from '@panel247/contract/list-query';
import { FTP_API } from '@panel247/contract/routes';
import { ftpQueryKey } from '../../../api/list-ftp-accounts';
import { listPageQuery } from '../../../lib/api-query';

/** Every page of a service's accounts: the changes invalidate them as a whole. */
export const ftpPagesQueryKey = (serviceId: number) => [...ftpQueryKey(serviceId), 'pages'] as const;

/**
 * One page of the accounts, paged and filtered (login, folder) on the server: its key and call,
 * which the view's hook, the boot's prefetch and the server's first render share.
 */
export function ftpPageQuery(serviceId: number, query: ListPageQuery) {
  return listPageQuery<FtpListData>(ftpPagesQueryKey(serviceId), FTP_API.list(serviceId), query);
}
