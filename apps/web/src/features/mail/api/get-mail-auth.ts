import type { MailAuthData } from '@panel247/contract/mail-auth';
import { MAIL_AUTH_API } from '@panel247/contract/mail-auth-rules';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { mailQueryKey } from './list-mail';

export const mailAuthQueryKey = (serviceId: number) => [...mailQueryKey(serviceId), 'auth'] as const;

export function getMailAuth(serviceId: number, signal?: AbortSignal): Promise<MailAuthData> {
  return api<MailAuthData>(MAIL_AUTH_API.view(serviceId), undefined, { method: 'GET', signal });
}

/**
 * DKIM, SPF and DMARC of the service's domain. Asked again every minute while a rotation has a
 * step left: each look also moves it on, so the customer sees the steps pass.
 */
export function useMailAuth(serviceId: number) {
  return useQuery({
    queryKey: mailAuthQueryKey(serviceId),
    queryFn: ({ signal }) => getMailAuth(serviceId, signal),
    refetchInterval: (query) => (query.state.data && query.state.data.dkim.rotation !== 'idle' ? 60_000 : false),
  });
}
