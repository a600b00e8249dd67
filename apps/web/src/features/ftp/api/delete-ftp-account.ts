import type { EmptyData } from '@panel247/contract/envelope';
import type { FtpAccount } from '@panel247/contract/ftp';
import { FTP_API } from '@panel247/contract/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ftpAccountsQueryKey } from '../../../api/list-ftp-accounts';
import { apiCall } from '../../../lib/api-client';
import { ftpPagesQueryKey } from './list-ftp-page';
import { sftpKeysQueryKey } from './sftp-keys';

/** Returns the server's info messages (the first one is shown). */
export async function deleteFtpAccount(serviceId: number, accountId: number): Promise<string[]> {
  return (await apiCall<EmptyData>(FTP_API.remove(serviceId, accountId), undefined, { method: 'POST' })).system.info;
}

/** The account leaves the cached full list; the pages are asked for again. */
export function useDeleteFtpAccount(serviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (accountId: number) => deleteFtpAccount(serviceId, accountId),
    onSuccess: (_info, accountId) => {
      queryClient.setQueryData<FtpAccount[]>(ftpAccountsQueryKey(serviceId), (list) =>
        list?.filter((item) => item.id !== accountId),
      );
      // its SFTP keys went with it
      void queryClient.invalidateQueries({ queryKey: sftpKeysQueryKey(serviceId) });
      return queryClient.invalidateQueries({ queryKey: ftpPagesQueryKey(serviceId) });
    },
  });
}
