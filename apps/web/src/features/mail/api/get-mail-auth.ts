import type { MailAuthData } from '@panel247/contract/mail-auth';
import { MAIL_AUTH_API } from '@panel247/contract/routes';
import { apiGetQuery } from '../../../lib/api-query';
import { mailQueryKey } from './list-mail';

export const mailAuthQueryKey = (serviceId: number) => [...mailQueryKey(serviceId), 'auth'] as const;

/** The mail authentication card's key and call, shared with the boot and the server (app/route-data.ts). */
export function mailAuthQuery(serviceId: number) {
  return apiGetQuery<MailAuthData>(mailAuthQueryKey(serviceId), { path: MAIL_AUTH_API.view(serviceId) });
}
