import { useQuery } from '@tanstack/react-query';
import { ftpAccountsQueryKey, listFtpAccounts } from './list-ftp-accounts';

export function useFtpAccounts(serviceId: number, enabled = true) {
  return useQuery({
    queryKey: ftpAccountsQueryKey(serviceId),
    queryFn: ({ signal }) => listFtpAccounts(serviceId, signal),
    enabled,
  });
}
