import type { FtpListData } from '@panel247/contract/ftp';
import { FTP_API } from '@panel247/contract/routes';
import { apiGetFieldQuery } from '../lib/api-query';

/** Every FTP query of a service starts with this key. */
export const ftpQueryKey = (serviceId: number) => ['ftp', serviceId] as const;
export const ftpAccountsQueryKey = (serviceId: number) => [...ftpQueryKey(serviceId), 'accounts'] as const;

/** Every account of the service, unpaged (the hosting overview's WebFTP button signs on as its own). */
export function ftpAccountsQuery(serviceId: number) {
  return apiGetFieldQuery<FtpListData, 'ftps'>(
    ftpAccountsQueryKey(serviceId),
    { path: FTP_API.list(serviceId) },
    'ftps',
  );
}
