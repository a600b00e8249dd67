import type { FtpMainData } from '@panel247/contract/ftp';
import { FTP_API } from '@panel247/contract/routes';
import { useQuery } from '@tanstack/react-query';
import { api } from '../lib/api-client';
import { ftpQueryKey } from './list-ftp-accounts';

export type FtpServerData = FtpMainData['ftp'];

export const ftpMainQueryKey = (serviceId: number) => [...ftpQueryKey(serviceId), 'main'] as const;

/** The FTP server of the service: host, SSL host, port and the WebFTP address. */
export async function getFtpMain(serviceId: number, signal?: AbortSignal): Promise<FtpServerData> {
  return (await api<FtpMainData>(FTP_API.main(serviceId), undefined, { method: 'GET', signal })).ftp;
}

/** The hosts rarely change: fresh for 5 minutes. */
export function useFtpMain(serviceId: number, enabled = true) {
  return useQuery({
    enabled,
    queryKey: ftpMainQueryKey(serviceId),
    queryFn: ({ signal }) => getFtpMain(serviceId, signal),
    staleTime: 5 * 60_000,
  });
}
