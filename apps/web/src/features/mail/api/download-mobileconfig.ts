import { MAIL_API } from '@panel247/contract/routes';
import { useMutation } from '@tanstack/react-query';
import { saveApiFile } from '../../../lib/save-file';

/** A mailbox's .mobileconfig (Apple devices), saved by the browser under the server's file name. */
export function downloadMobileconfig(serviceId: number, accountId: number): Promise<string> {
  return saveApiFile(MAIL_API.mobileconfig(serviceId, accountId));
}

export function useDownloadMobileconfig(serviceId: number) {
  return useMutation({ mutationFn: (accountId: number) => downloadMobileconfig(serviceId, accountId) });
}
