import type { FtpAccount, FtpOneData } from '@panel247/contract/ftp';
import { FTP_API } from '@panel247/contract/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ftpAccountsQueryKey } from '../../../api/list-ftp-accounts';
import { apiCall } from '../../../lib/api-client';
import { ftpPagesQueryKey } from './list-ftp-page';

export async function saveFtpFolder(serviceId: number, accountId: number, folder: string) {
  const { data, system } = await apiCall<FtpOneData>(
    FTP_API.save(serviceId, accountId),
    { folder },
    { method: 'POST' },
  );
  return { account: data.ftp, info: system.info };
}

/** The account's row is replaced by the one the server returns. */
export function useSaveFtpFolder(serviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ accountId, folder }: { accountId: number; folder: string }) =>
      saveFtpFolder(serviceId, accountId, folder),
    onSuccess: ({ account }) => {
      queryClient.setQueryData<FtpAccount[]>(ftpAccountsQueryKey(serviceId), (list) =>
        list?.map((item) => (item.id === account.id ? account : item)),
      );
      // a new folder can move the row in or out of a filtered page
      return queryClient.invalidateQueries({ queryKey: ftpPagesQueryKey(serviceId) });
    },
  });
}
