import type { WebmailLoginData } from '@panel247/contract/mail';
import { MAIL_API } from '@panel247/contract/routes';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** The form the browser posts to the brand's WebMail to log in (never a password). */
export function getWebmailLogin(serviceId: number, accountId: number): Promise<WebmailLoginData> {
  return api<WebmailLoginData>(MAIL_API.mailboxLogin(serviceId, accountId), undefined, { method: 'GET' });
}

/** A fresh login each time (the fields are single-use), so a mutation and not a cached query. */
export function useWebmailLogin(serviceId: number) {
  return useMutation({ mutationFn: (accountId: number) => getWebmailLogin(serviceId, accountId) });
}
