import type { FtpAccount, FtpListData } from '@panel247/contract/ftp';
import { FTP_API } from '@panel247/contract/routes';
import { api } from '../lib/api-client';

/** Every FTP query of a service starts with this key. */
export const ftpQueryKey = (serviceId: number) => ['ftp', serviceId] as const;
export const ftpAccountsQueryKey = (serviceId: number) => [...ftpQueryKey(serviceId), 'accounts'] as const;

export async function listFtpAccounts(serviceId: number, signal?: AbortSignal): Promise<FtpAccount[]> {
  return (await api<FtpListData>(FTP_API.list(serviceId), undefined, { method: 'GET', signal })).ftps;
}
