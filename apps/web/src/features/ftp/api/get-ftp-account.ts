import type { FtpAccount, FtpOneData } from '@panel247/contract/ftp';
import { FTP_API } from '@panel247/contract/routes';
import { useQuery } from '@tanstack/react-query';
import { ftpQueryKey } from '../../../api/list-ftp-accounts';
import { api } from '../../../lib/api-client';

/** One account with its password ("show password"). */
export async function getFtpAccount(serviceId: number, accountId: number, signal?: AbortSignal): Promise<FtpAccount> {
  return (await api<FtpOneData>(FTP_API.one(serviceId, accountId), undefined, { method: 'GET', signal })).ftp;
}

/** Read each time the dialog opens and never kept: a password stays in memory only while shown. */
export function useFtpAccount(serviceId: number, accountId: number | null) {
  return useQuery({
    queryKey: [...ftpQueryKey(serviceId), 'account', accountId],
    queryFn: ({ signal }) => getFtpAccount(serviceId, accountId as number, signal),
    enabled: accountId !== null,
    gcTime: 0,
    staleTime: 0,
    retry: false,
  });
}
