import { DDBB_API } from '@panel247/contract/routes';
import type { SignonForm } from '@panel247/contract/signon';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** The form the browser posts to phpMyAdmin to log in (a one-time token, never a password). */
export function getPhpMyAdminLogin(serviceId: number, databaseId: number): Promise<SignonForm> {
  return api<SignonForm>(DDBB_API.login(serviceId, databaseId), undefined, { method: 'GET' });
}

/** A fresh login each time (the token is single-use), so a mutation and not a cached query. */
export function usePhpMyAdminLogin(serviceId: number) {
  return useMutation({ mutationFn: (databaseId: number) => getPhpMyAdminLogin(serviceId, databaseId) });
}
