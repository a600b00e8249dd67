import type { FtpMainData } from '@panel247/contract/ftp';
import { FTP_API } from '@panel247/contract/routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ftpMainQueryKey } from '../../../api/get-ftp-main';
import { apiCall } from '../../../lib/api-client';

/** Applies the service's pending FTP changes now ("try again"); answers the server's message. */
export async function applyFtpChanges(serviceId: number) {
  return (await apiCall<FtpMainData>(FTP_API.apply(serviceId), undefined, { method: 'POST' })).system.info;
}

export function useApplyFtpChanges(serviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => applyFtpChanges(serviceId),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ftpMainQueryKey(serviceId) }),
  });
}
