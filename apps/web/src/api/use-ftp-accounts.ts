import { useQuery } from '@tanstack/react-query';
import { ftpAccountsQuery } from './list-ftp-accounts';

export function useFtpAccounts(serviceId: number, enabled = true) {
  return useQuery({ ...ftpAccountsQuery(serviceId), enabled });
}
