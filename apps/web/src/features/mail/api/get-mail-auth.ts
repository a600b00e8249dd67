import type { MailAuthData } from '@panel247/contract/mail-auth';
import { MAIL_AUTH_API } from '@panel247/contract/routes';
import { api } from '../../../lib/api-client';
import { mailQueryKey } from './list-mail';

export const mailAuthQueryKey = (serviceId: number) => [...mailQueryKey(serviceId), 'auth'] as const;

export function getMailAuth(serviceId: number, signal?: AbortSignal): Promise<MailAuthData> {
  return api<MailAuthData>(MAIL_AUTH_API.view(serviceId), undefined, { method: 'GET', signal });
}

/** The key and call, shared with the boot's prefetch (app/route-data.ts). */
export function mailAuthQuery(serviceId: number) {
  return {
    queryKey: mailAuthQueryKey(serviceId),
    queryFn: ({ signal }: { signal?: AbortSignal }) => getMailAuth(serviceId, signal),
  };
}
