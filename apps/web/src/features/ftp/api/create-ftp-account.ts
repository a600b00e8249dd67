import type { FtpAccount, FtpCreateParams, FtpOneData } from '@panel247/contract/ftp';
import { FTP_API } from '@panel247/contract/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ftpAccountsQueryKey } from '../../../api/list-ftp-accounts';
import { apiCall } from '../../../lib/api-client';
import { ftpPagesQueryKey } from './list-ftp-page';

/** `ftpUser` is the name typed (the server appends "@" and the domain); `folder` is relative to the home. */
export type FtpCreateInput = Omit<FtpCreateParams, 'id'>;

export async function createFtpAccount(serviceId: number, input: FtpCreateInput) {
  const { data, system } = await apiCall<FtpOneData>(
    FTP_API.create(serviceId),
    { ftpUser: input.ftpUser, password: input.password, folder: input.folder },
    { method: 'POST' },
  );
  return { account: data.ftp, info: system.info };
}

/** The new account joins the cached full list (no reload); the pages are asked for again. */
export function useCreateFtpAccount(serviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: FtpCreateInput) => createFtpAccount(serviceId, input),
    onSuccess: ({ account }) => {
      queryClient.setQueryData<FtpAccount[]>(ftpAccountsQueryKey(serviceId), (list) => [
        ...(list ?? []).filter((item) => item.id !== account.id),
        account,
      ]);
      // the server pages: where the new account lands is its answer
      return queryClient.invalidateQueries({ queryKey: ftpPagesQueryKey(serviceId) });
    },
  });
}
