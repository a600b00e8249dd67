import type { FtpAccount, FtpOneData } from '@panel247/contract/ftp';
import { FTP_API } from '@panel247/contract/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ftpAccountsQueryKey } from '../../../api/list-ftp-accounts';
import { apiCall } from '../../../lib/api-client';

export async function changeFtpPassword(serviceId: number, accountId: number, password: string) {
  const { data, system } = await apiCall<Partial<FtpOneData>>(
    FTP_API.changePassword(serviceId, accountId),
    { password },
    { method: 'POST' },
  );
  return { account: data?.ftp ?? null, info: system.info };
}

/** The account's row is replaced by the one the server returns. */
export function useChangeFtpPassword(serviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ accountId, password }: { accountId: number; password: string }) =>
      changeFtpPassword(serviceId, accountId, password),
    onSuccess: ({ account }) => {
      if (!account) return;
      queryClient.setQueryData<FtpAccount[]>(ftpAccountsQueryKey(serviceId), (list) =>
        list?.map((item) => (item.id === account.id ? account : item)),
      );
    },
  });
}
