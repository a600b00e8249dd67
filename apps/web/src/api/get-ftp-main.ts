import type { FtpMainData } from '@panel247/contract/ftp';
import { FTP_API } from '@panel247/contract/routes';
import { useQuery } from '@tanstack/react-query';
import { apiGetQuery } from '../lib/api-query';
import { PENDING_WORK_REFRESH_MS } from '../lib/use-work-refresh';
import { ftpQueryKey } from './list-ftp-accounts';

export type FtpServerData = FtpMainData['ftp'];

export const ftpMainQueryKey = (serviceId: number) => [...ftpQueryKey(serviceId), 'main'] as const;

/**
 * The FTP server of the service (host, SSL host, port, WebFTP), its SFTP side and whether its
 * changes are all on it: one call, which the view's hooks, the boot's prefetch and the server's
 * first render share (app/route-data.ts).
 */
export function ftpMainQuery(serviceId: number) {
  return {
    ...apiGetQuery<FtpMainData>(ftpMainQueryKey(serviceId), { path: FTP_API.main(serviceId) }),
    // The hosts rarely change: fresh for 5 minutes (the changes' state is read again when it moves).
    staleTime: 5 * 60_000,
  };
}

export function useFtpMain(serviceId: number, enabled = true) {
  return useQuery({ ...ftpMainQuery(serviceId), enabled, select: (data: FtpMainData) => data.ftp });
}

/** SFTP on the same host: its port, and the service's own login (null while it has none). */
export function useSftpMain(serviceId: number) {
  return useQuery({ ...ftpMainQuery(serviceId), select: (data: FtpMainData) => data.sftp });
}

/** Whether the service's FTP changes are all on its server; asked again while some wait. */
export function useFtpApplying(serviceId: number) {
  return useQuery({
    ...ftpMainQuery(serviceId),
    select: (data: FtpMainData) => data.applying,
    refetchInterval: (query) => (query.state.data?.applying ? PENDING_WORK_REFRESH_MS : false),
  });
}
